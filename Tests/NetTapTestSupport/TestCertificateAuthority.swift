import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The certificates of the ``TLSFront``: a test CA that this machine's trust store holds, a server certificate it
/// signed, and an *untrusted* CA (never installed) with a server certificate of its own, for verification failures.
///
/// Both server certificates name `IP:127.0.0.1` and `DNS:localhost` in their subject alternative names and are valid
/// for 30 days; the CAs for a year. All are P-256 keys made with the `openssl` command-line tool, kept in a stable
/// folder (``defaultFolder``) and reused by later runs while valid: a CA with less than 31 days left, or a server
/// certificate with less than a day left, that no longer verifies against its CA, or whose key does not match, is
/// made again (a new CA makes new server certificates too). Test processes that run at once share the folder under
/// an exclusive `flock(2)` on its `.lock` file.
///
/// ``trusted()`` also installs the trusted CA as ``trustStoreCertificate`` and runs `update-ca-certificates`, when
/// Debian's bundle (``systemBundle``, which libcurl and so FoundationNetworking's `URLSession` read) does not hold
/// it yet; that needs root. To remove it: delete ``trustStoreCertificate``, then `update-ca-certificates --fresh`.
///
/// Thread safety: the value is immutable; every member may be used from any thread.
public struct TestCertificateAuthority: Sendable {
    /// Why the certificates could not be made or trusted.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with what to do about it.
        public var description: String
    }

    /// A certificate and its private key, PEM files.
    public struct Identity: Sendable {
        /// The certificate.
        public var certificate: URL
        /// Its private key (unencrypted).
        public var key: URL
    }

    /// The folder reused across runs: `/var/tmp/nettap-test-ca` (`/var/tmp` survives reboots on Debian).
    public static let defaultFolder = URL(fileURLWithPath: "/var/tmp/nettap-test-ca")

    /// Where the trusted CA is installed: `/usr/local/share/ca-certificates/nettap-test-ca.crt`.
    public static let trustStoreCertificate = URL(
        fileURLWithPath: "/usr/local/share/ca-certificates/nettap-test-ca.crt"
    )

    /// The bundle `update-ca-certificates` writes and libcurl reads: `/etc/ssl/certs/ca-certificates.crt`.
    public static let systemBundle = URL(fileURLWithPath: "/etc/ssl/certs/ca-certificates.crt")

    /// The folder holding every file.
    public let folder: URL
    /// The trusted CA's certificate (`ca.crt`).
    public let certificate: URL
    /// The server certificate signed by the trusted CA, with its key (`server.crt`, `server.key`).
    public let server: Identity
    /// The untrusted CA's certificate (`untrusted-ca.crt`), never installed anywhere.
    public let untrustedCertificate: URL
    /// The server certificate signed by the untrusted CA, with its key.
    public let untrustedServer: Identity

    private let openssl: ToolCommand

    private init(folder: URL, openssl: ToolCommand) {
        self.folder = folder
        self.openssl = openssl
        certificate = folder.appendingPathComponent("ca.crt")
        server = Identity(
            certificate: folder.appendingPathComponent("server.crt"),
            key: folder.appendingPathComponent("server.key")
        )
        untrustedCertificate = folder.appendingPathComponent("untrusted-ca.crt")
        untrustedServer = Identity(
            certificate: folder.appendingPathComponent("untrusted-server.crt"),
            key: folder.appendingPathComponent("untrusted-server.key")
        )
    }

    // MARK: - Making and trusting

    /// The certificates in ``defaultFolder``, the trusted CA installed system-wide: done once per process.
    ///
    /// Call it before the process sends its first HTTPS request: libcurl may keep the CA bundle it read in memory.
    /// - Returns: The certificates.
    /// - Throws: ``Failure`` when `openssl` is missing or fails, or when the CA is not trusted yet and this process
    ///   is not root (installing needs root), or `update-ca-certificates` fails.
    public static func trusted() throws -> TestCertificateAuthority {
        try trustedOnce.get()
    }

    private static let trustedOnce = Result { () throws -> TestCertificateAuthority in
        let authority = try prepare()
        try authority.withLock { try authority.installInSystemTrustStore() }
        return authority
    }

    /// Makes or reuses the certificates in `folder`, without touching the trust store.
    ///
    /// - Parameter folder: The folder; created (mode 0700) when missing.
    /// - Returns: The certificates, each valid and matching its key.
    /// - Throws: ``Failure`` when `openssl` is missing, the folder cannot be written, or a command fails.
    public static func prepare(in folder: URL = defaultFolder) throws -> TestCertificateAuthority {
        guard let openssl = ToolCommand.locate("openssl") else {
            throw Failure(description: "the test CA needs the openssl command-line tool (apt-get install openssl)")
        }
        let authority = TestCertificateAuthority(folder: folder, openssl: openssl)
        do {
            try FileManager.default.createDirectory(
                at: folder,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw Failure(description: "cannot create the test CA's folder \(folder.path): \(error)")
        }
        try authority.withLock {
            let trustedIsNew = try authority.ensureAuthority(named: "ca", commonName: "NetTap Test CA")
            try authority.ensureServer(authority.server, signedBy: "ca", remake: trustedIsNew)
            let untrustedIsNew = try authority.ensureAuthority(
                named: "untrusted-ca",
                commonName: "NetTap Untrusted Test CA"
            )
            try authority.ensureServer(authority.untrustedServer, signedBy: "untrusted-ca", remake: untrustedIsNew)
        }
        return authority
    }

    /// Whether ``systemBundle`` holds the trusted CA's certificate.
    public var isTrustedBySystem: Bool {
        guard let pem = try? String(contentsOf: certificate, encoding: .utf8),
            let bundle = try? String(contentsOf: Self.systemBundle, encoding: .utf8)
        else { return false }
        return Self.joinedBase64(bundle).contains(Self.joinedBase64(pem))
    }

    /// Installs the trusted CA as ``trustStoreCertificate`` and runs `update-ca-certificates`, unless that file
    /// already holds this CA and ``systemBundle`` has it.
    ///
    /// - Throws: ``Failure`` when an install is needed and this process is not root, or when it fails.
    public func installInSystemTrustStore() throws {
        let pem: Data
        do {
            pem = try Data(contentsOf: certificate)
        } catch {
            throw Failure(description: "cannot read the test CA \(certificate.path): \(error)")
        }
        let installed = try? Data(contentsOf: Self.trustStoreCertificate)
        if installed == pem, isTrustedBySystem { return }
        guard geteuid() == 0 else {
            throw Failure(
                description: "the TLS tests need the test CA in the system trust store and this process is not "
                    + "root (uid \(geteuid())); run them as root (CI does), or as root run: cp \(certificate.path) "
                    + "\(Self.trustStoreCertificate.path) && update-ca-certificates"
            )
        }
        guard let update = ToolCommand.locate("update-ca-certificates") else {
            throw Failure(description: "update-ca-certificates not found (apt-get install ca-certificates)")
        }
        do {
            try FileManager.default.createDirectory(
                at: Self.trustStoreCertificate.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try pem.write(to: Self.trustStoreCertificate, options: .atomic)
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o644],
                ofItemAtPath: Self.trustStoreCertificate.path
            )
        } catch {
            throw Failure(description: "cannot write \(Self.trustStoreCertificate.path): \(error)")
        }
        let result = try run(update, [])
        guard isTrustedBySystem else {
            throw Failure(
                description: "update-ca-certificates ran but \(Self.systemBundle.path) does not hold the test CA:\n"
                    + result.output
            )
        }
    }

    // MARK: - Internals

    /// Runs `body` holding an exclusive `flock(2)` on the folder's `.lock` file, so test processes running at
    /// once never make or install certificates together.
    private func withLock<T>(_ body: () throws -> T) throws -> T {
        let path = folder.appendingPathComponent(".lock").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw Failure(description: "cannot open \(path): errno \(errno) (is the folder another user's?)")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Failure(description: "flock(\(path)) failed: errno \(errno)") }
        }
        return try body()
    }

    /// Makes the CA `name` (`name.key`, `name.crt`) unless a valid one with at least 31 days left is there.
    ///
    /// - Returns: `true` when it was made now.
    private func ensureAuthority(named name: String, commonName: String) throws -> Bool {
        let key = folder.appendingPathComponent("\(name).key")
        let crt = folder.appendingPathComponent("\(name).crt")
        if try isUsable(certificate: crt, key: key, remainingSeconds: 31 * 86_400) { return false }
        let newKey = folder.appendingPathComponent("\(name).new.key")
        let newCrt = folder.appendingPathComponent("\(name).new.crt")
        try run(
            openssl,
            [
                "req", "-x509", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", newKey.path, "-out", newCrt.path, "-days", "365", "-subj", "/CN=\(commonName)",
                "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ]
        )
        try replace(key, with: newKey)
        try replace(crt, with: newCrt)
        return true
    }

    /// Makes the server certificate `identity` signed by the CA `authority` unless a valid one with a day left,
    /// verifying against that CA as a TLS server certificate, is there (or `remake` is set: a new CA).
    private func ensureServer(_ identity: Identity, signedBy authority: String, remake: Bool) throws {
        let caKey = folder.appendingPathComponent("\(authority).key")
        let caCrt = folder.appendingPathComponent("\(authority).crt")
        if !remake, try isUsable(certificate: identity.certificate, key: identity.key, remainingSeconds: 86_400) {
            let verified = try openssl.run(
                ["verify", "-purpose", "sslserver", "-CAfile", caCrt.path, identity.certificate.path]
            )
            if verified.status == 0 { return }
        }
        let base = identity.certificate.deletingPathExtension().lastPathComponent
        let newKey = folder.appendingPathComponent("\(base).new.key")
        let newCrt = folder.appendingPathComponent("\(base).new.crt")
        let request = folder.appendingPathComponent("\(base).csr")
        let extensions = folder.appendingPathComponent("\(base).ext")
        defer {
            try? FileManager.default.removeItem(at: request)
            try? FileManager.default.removeItem(at: extensions)
        }
        do {
            try Data(
                """
                basicConstraints=critical,CA:FALSE
                keyUsage=critical,digitalSignature,keyEncipherment
                extendedKeyUsage=serverAuth
                subjectAltName=IP:127.0.0.1,DNS:localhost
                subjectKeyIdentifier=hash
                authorityKeyIdentifier=keyid

                """.utf8
            ).write(to: extensions)
        } catch {
            throw Failure(description: "cannot write \(extensions.path): \(error)")
        }
        try run(
            openssl,
            [
                "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", newKey.path, "-out", request.path, "-subj", "/CN=localhost",
            ]
        )
        let serial = "0x" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try run(
            openssl,
            [
                "x509", "-req", "-in", request.path, "-CA", caCrt.path, "-CAkey", caKey.path, "-set_serial", serial,
                "-days", "30", "-extfile", extensions.path, "-out", newCrt.path,
            ]
        )
        try replace(identity.key, with: newKey)
        try replace(identity.certificate, with: newCrt)
    }

    /// Whether `certificate` and `key` exist, the certificate is valid for `remainingSeconds` more, and the key is
    /// the certificate's.
    private func isUsable(certificate: URL, key: URL, remainingSeconds: Int) throws -> Bool {
        let files = FileManager.default
        guard files.fileExists(atPath: certificate.path), files.fileExists(atPath: key.path) else { return false }
        let lasting = try openssl.run([
            "x509", "-checkend", String(remainingSeconds), "-noout", "-in", certificate.path,
        ])
        guard lasting.status == 0 else { return false }
        let fromCertificate = try openssl.run(["x509", "-noout", "-pubkey", "-in", certificate.path])
        let fromKey = try openssl.run(["pkey", "-pubout", "-in", key.path])
        return fromCertificate.status == 0 && fromKey.status == 0 && fromCertificate.output == fromKey.output
    }

    /// Moves `new` over `file` (one `rename(2)`, so a reader sees the old file or the new one, never half of one).
    private func replace(_ file: URL, with new: URL) throws {
        guard rename(new.path, file.path) == 0 else {
            throw Failure(description: "rename \(new.path) → \(file.path) failed: errno \(errno)")
        }
    }

    /// The DER SubjectPublicKeyInfo of a certificate's key (what a public-key pin hashes with SHA-256).
    ///
    /// - Parameter certificate: A PEM certificate file.
    /// - Returns: The DER bytes.
    /// - Throws: ``Failure`` when `openssl` fails or prints no public key.
    public func subjectPublicKeyInfo(of certificate: URL) throws -> Data {
        let printed = try run(openssl, ["x509", "-noout", "-pubkey", "-in", certificate.path]).output
        guard let start = printed.range(of: "-----BEGIN PUBLIC KEY-----"),
            let end = printed.range(of: "-----END PUBLIC KEY-----", range: start.upperBound..<printed.endIndex),
            let der = Data(base64Encoded: Self.joinedBase64(String(printed[start.upperBound..<end.lowerBound])))
        else { throw Failure(description: "openssl printed no public key for \(certificate.path)") }
        return der
    }

    /// Runs `tool` and throws ``Failure`` with its output when it cannot start or exits non-zero.
    @discardableResult
    private func run(_ tool: ToolCommand, _ arguments: [String]) throws -> ToolCommand.Result {
        let result: ToolCommand.Result
        do {
            result = try tool.run(arguments)
        } catch {
            throw Failure(description: "cannot run \(tool.commandLine(arguments)): \(error)")
        }
        guard result.status == 0 else {
            throw Failure(
                description: "\(tool.commandLine(arguments)) exited with status \(result.status):\n\(result.output)"
            )
        }
        return result
    }

    /// The base64 lines of PEM text joined without line breaks, so a certificate can be found in a bundle whatever
    /// its line endings.
    private static func joinedBase64(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline)
            .filter { !$0.hasPrefix("-----") }
            .joined()
    }
}
