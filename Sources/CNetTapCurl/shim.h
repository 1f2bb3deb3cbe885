// libcurl (the same libcurl.so.4 FoundationNetworking loads), used by NetTapCore's libcurl transport on Linux only.
// Needs the libcurl4-openssl-dev package (scripts/test installs it when missing).
//
// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot call, so each
// argument type gets a typed wrapper here; the epoll helpers keep Swift away from the packed epoll_event struct.
#ifndef CNETTAPCURL_SHIM_H
#define CNETTAPCURL_SHIM_H
#include <curl/curl.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <time.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

typedef size_t (*nettap_curl_data_callback)(char *buffer, size_t size, size_t count, void *user);
typedef int (*nettap_curl_seek_callback)(void *user, curl_off_t offset, int origin);
typedef int (*nettap_curl_debug_callback)(CURL *easy, curl_infotype type, char *data, size_t size, void *user);
typedef int (*nettap_curl_socket_callback)(CURL *easy, curl_socket_t socket, int what, void *user, void *socketUser);
typedef int (*nettap_curl_timer_callback)(CURLM *multi, long timeoutMilliseconds, void *user);

static inline CURLcode nettap_easy_set_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode nettap_easy_set_offset(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode nettap_easy_set_pointer(CURL *easy, CURLoption option, const void *value) {
    return curl_easy_setopt(easy, option, value);
}
/// Sets a blob option (`CURLOPT_CAINFO_BLOB`); libcurl copies the bytes.
static inline CURLcode nettap_easy_set_blob(CURL *easy, CURLoption option, const void *data, size_t length) {
    struct curl_blob blob;
    blob.data = (void *)data;
    blob.len = length;
    blob.flags = CURL_BLOB_COPY;
    return curl_easy_setopt(easy, option, &blob);
}
static inline CURLcode nettap_easy_set_data_callback(CURL *easy, CURLoption option, nettap_curl_data_callback value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode nettap_easy_set_seek_callback(CURL *easy, nettap_curl_seek_callback value) {
    return curl_easy_setopt(easy, CURLOPT_SEEKFUNCTION, value);
}
static inline CURLcode nettap_easy_set_debug_callback(CURL *easy, nettap_curl_debug_callback value) {
    return curl_easy_setopt(easy, CURLOPT_DEBUGFUNCTION, value);
}
static inline CURLcode nettap_easy_get_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}
static inline CURLcode nettap_easy_get_offset(CURL *easy, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(easy, info, value);
}
static inline CURLcode nettap_easy_get_string(CURL *easy, CURLINFO info, char **value) {
    return curl_easy_getinfo(easy, info, value);
}
static inline CURLcode nettap_easy_get_certinfo(CURL *easy, struct curl_certinfo **value) {
    return curl_easy_getinfo(easy, CURLINFO_CERTINFO, value);
}
static inline CURLcode nettap_easy_get_tls_session(CURL *easy, struct curl_tlssessioninfo **value) {
    return curl_easy_getinfo(easy, CURLINFO_TLS_SSL_PTR, value);
}
static inline CURLMcode nettap_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
static inline CURLMcode nettap_multi_set_pointer(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}
static inline CURLMcode nettap_multi_set_socket_callback(CURLM *multi, nettap_curl_socket_callback value) {
    return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, value);
}
static inline CURLMcode nettap_multi_set_timer_callback(CURLM *multi, nettap_curl_timer_callback value) {
    return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, value);
}

/// The running libcurl's version information.
static inline curl_version_info_data *nettap_curl_version(void) { return curl_version_info(CURLVERSION_NOW); }

/// Adds, changes or removes a descriptor's interest in an epoll set (`events` 0 with `remove` removes it).
static inline int nettap_epoll_control(int epoll, int descriptor, uint32_t events, int operation) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = 0;
    event.data.fd = descriptor;
    return epoll_ctl(epoll, operation, descriptor, &event);
}

/// Waits on an epoll set; writes each ready descriptor and its events into the two arrays.
static inline int nettap_epoll_wait(int epoll, int *descriptors, uint32_t *events, int capacity, int timeout) {
    struct epoll_event ready[64];
    if (capacity > 64) capacity = 64;
    int count = epoll_wait(epoll, ready, capacity, timeout);
    for (int index = 0; index < count; index++) {
        descriptors[index] = ready[index].data.fd;
        events[index] = ready[index].events;
    }
    return count;
}

/// The negotiated TLS protocol version ("TLSv1.3") of an OpenSSL `SSL *` (what CURLINFO_TLS_SSL_PTR gives).
static inline const char *nettap_tls_version(void *ssl) { return SSL_get_version((const SSL *)ssl); }

/// The negotiated cipher suite's name ("TLS_AES_256_GCM_SHA384"), or NULL.
static inline const char *nettap_tls_cipher(void *ssl) {
    const SSL_CIPHER *cipher = SSL_get_current_cipher((const SSL *)ssl);
    return cipher ? SSL_CIPHER_get_name(cipher) : NULL;
}

static inline long nettap_asn1_time_epoch(const ASN1_TIME *time) {
    struct tm parts;
    if (time == NULL || ASN1_TIME_to_tm(time, &parts) != 1) return 0;
    return (long)timegm(&parts);
}

/// The server certificate's subject and issuer (RFC 2253 form) and validity (seconds since 1970, UTC).
/// Returns 0 when the connection has no peer certificate.
static inline int nettap_tls_peer_certificate(void *ssl, char *subject, int subjectSize, char *issuer, int issuerSize,
                                              long *notBefore, long *notAfter) {
    X509 *certificate = SSL_get1_peer_certificate((const SSL *)ssl);
    if (certificate == NULL) return 0;
    subject[0] = 0;
    issuer[0] = 0;
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio != NULL) {
        if (X509_NAME_print_ex(bio, X509_get_subject_name(certificate), 0, XN_FLAG_RFC2253) >= 0) {
            int length = BIO_read(bio, subject, subjectSize - 1);
            subject[length > 0 ? length : 0] = 0;
        }
        (void)BIO_reset(bio);
        if (X509_NAME_print_ex(bio, X509_get_issuer_name(certificate), 0, XN_FLAG_RFC2253) >= 0) {
            int length = BIO_read(bio, issuer, issuerSize - 1);
            issuer[length > 0 ? length : 0] = 0;
        }
        BIO_free(bio);
    }
    *notBefore = nettap_asn1_time_epoch(X509_get0_notBefore(certificate));
    *notAfter = nettap_asn1_time_epoch(X509_get0_notAfter(certificate));
    X509_free(certificate);
    return 1;
}
#endif
