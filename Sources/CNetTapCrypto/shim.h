// OpenSSL's libcrypto message digests (EVP_MD_CTX, EVP_sha256/384/512, EVP_sha1 for the WebSocket handshake), Linux only.
// Apple platforms use CryptoKit instead. Needs the libssl-dev package (scripts/test installs it when missing).
#ifndef CNETTAPCRYPTO_SHIM_H
#define CNETTAPCRYPTO_SHIM_H
#include <openssl/evp.h>
#endif
