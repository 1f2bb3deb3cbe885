import Foundation

/// What the transport saw on the wire for a transaction's final exchange: which transport sent it, the
/// connection, the protocol, the time each phase took and the TLS session.
///
/// The libcurl transport (Linux) fills every field it can from libcurl's own clocks and connection data; the
/// URLSession transport only says it served the request (FoundationNetworking gives no metrics). Handler
/// answers have none.
public struct WireDetails: Sendable, Hashable, Codable {
    /// The transport that sent the request: ``libcurl`` or ``urlSession``.
    public var transport: String
    /// The negotiated protocol (`HTTP/1.1`, `HTTP/2`), when known.
    public var httpVersion: String?
    /// The server's IP address as connected to.
    public var remoteAddress: String?
    /// The server's port.
    public var remotePort: Int?
    /// The local port of the connection, which identifies it (HAR `connection`).
    public var localPort: Int?
    /// Whether the request opened a new connection (`false`: it reused one).
    public var isNewConnection: Bool?
    /// Milliseconds each phase took (libcurl's clocks), when known.
    public var phases: WirePhases?
    /// The TLS session of an HTTPS request.
    public var tls: TLSDetails?

    /// `transport` of the libcurl transport.
    public static let libcurl = "libcurl"
    /// `transport` of the URLSession forwarding transport.
    public static let urlSession = "urlsession"

    /// Creates the details.
    /// - Parameter transport: ``libcurl`` or ``urlSession``.
    public init(transport: String) {
        self.transport = transport
    }

    /// `HTTP/1.0`, `HTTP/1.1`, `HTTP/2` or `HTTP/3` for the spellings transports and tools write (`http/2.0`,
    /// `h2`, `h3`, …); other non-empty values as written; `nil` when empty.
    package static func normalizedHTTPVersion(_ version: String) -> String? {
        let trimmed = version.trimmingCharacters(in: .whitespaces)
        switch trimmed.lowercased() {
        case "": return nil
        case "http/1.0": return "HTTP/1.0"
        case "http/1.1": return "HTTP/1.1"
        case "h2", "http/2", "http/2.0": return "HTTP/2"
        case "h3", "http/3", "http/3.0": return "HTTP/3"
        default: return trimmed
        }
    }
}

/// The phases of one exchange in milliseconds, HAR 1.2's split (`-1` where a phase did not happen, such as DNS,
/// connect and TLS on a reused connection).
public struct WirePhases: Sendable, Hashable, Codable {
    /// Resolving the host name.
    public var dns: Double
    /// Opening the connection, TLS included (as HAR counts it).
    public var connect: Double
    /// The TLS handshake.
    public var ssl: Double
    /// Sending the request (libcurl does not time it apart from waiting: 0).
    public var send: Double
    /// From the request sent to the first response byte.
    public var wait: Double
    /// From the first response byte to the last.
    public var receive: Double

    /// Creates the phases (milliseconds, `-1` for a phase that did not happen).
    public init(dns: Double, connect: Double, ssl: Double, send: Double, wait: Double, receive: Double) {
        self.dns = dns
        self.connect = connect
        self.ssl = ssl
        self.send = send
        self.wait = wait
        self.receive = receive
    }
}

/// The TLS session of an HTTPS exchange, with the names Chrome's DevTools Protocol uses (`SecurityDetails`).
public struct TLSDetails: Sendable, Hashable, Codable {
    /// The protocol version, for example `TLSv1.3`.
    public var protocolVersion: String
    /// The cipher suite, for example `TLS_AES_256_GCM_SHA384`.
    public var cipher: String?
    /// The server certificate's subject (RFC 2253, for example `CN=example.com,O=Example`).
    public var subject: String?
    /// The certificate's issuer (RFC 2253).
    public var issuer: String?
    /// The start of the certificate's validity.
    public var validFrom: Date?
    /// The end of the certificate's validity.
    public var validTo: Date?

    /// Creates TLS details.
    public init(
        protocolVersion: String,
        cipher: String? = nil,
        subject: String? = nil,
        issuer: String? = nil,
        validFrom: Date? = nil,
        validTo: Date? = nil
    ) {
        self.protocolVersion = protocolVersion
        self.cipher = cipher
        self.subject = subject
        self.issuer = issuer
        self.validFrom = validFrom
        self.validTo = validTo
    }

    /// The subject's common name (`CN`), Chrome's `subjectName`.
    public var subjectName: String? {
        guard let subject else { return nil }
        for part in subject.split(separator: ",") where part.hasPrefix("CN=") { return String(part.dropFirst(3)) }
        return subject
    }
}
