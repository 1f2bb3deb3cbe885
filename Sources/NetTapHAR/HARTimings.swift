import Foundation

/// How long each phase of a request took, in milliseconds: HAR 1.2 `timings`.
///
/// `send`, `wait` and `receive` are required and never negative; `blocked`, `dns`, `connect` and `ssl`
/// are −1 when they do not apply or are not known. `ssl` is part of `connect`, and an entry's `time` is the
/// sum of the non-negative phases except `ssl`.
public struct HARTimings: Codable, Sendable, Hashable {
    /// Milliseconds spent waiting before the request could be sent (queueing); −1 when not applicable.
    public var blocked: Double
    /// Milliseconds of DNS resolution; −1 when not applicable.
    public var dns: Double
    /// Milliseconds to open the TCP connection, TLS included; −1 when not applicable.
    public var connect: Double
    /// Milliseconds to send the request.
    public var send: Double
    /// Milliseconds waiting for the response to begin (time to first byte after sending).
    public var wait: Double
    /// Milliseconds to read the response.
    public var receive: Double
    /// Milliseconds of TLS negotiation (inside ``connect``); −1 when not applicable.
    public var ssl: Double
    /// A comment from the user or the application.
    public var comment: String?
    /// Custom fields (names starting with `_`) kept from the imported file, for example Chrome's
    /// `_blocked_queueing`.
    public var customFields: [String: HARValue]

    /// Creates timings; every phase in milliseconds.
    ///
    /// - Parameters:
    ///   - blocked: Queueing time, −1 when not applicable.
    ///   - dns: DNS time, −1 when not applicable.
    ///   - connect: Connection time, −1 when not applicable.
    ///   - send: Sending time.
    ///   - wait: Waiting time.
    ///   - receive: Receiving time.
    ///   - ssl: TLS time, −1 when not applicable.
    ///   - comment: An optional comment.
    ///   - customFields: Custom `_` fields.
    public init(
        blocked: Double = -1,
        dns: Double = -1,
        connect: Double = -1,
        send: Double = 0,
        wait: Double = 0,
        receive: Double = 0,
        ssl: Double = -1,
        comment: String? = nil,
        customFields: [String: HARValue] = [:]
    ) {
        self.blocked = blocked
        self.dns = dns
        self.connect = connect
        self.send = send
        self.wait = wait
        self.receive = receive
        self.ssl = ssl
        self.comment = comment
        self.customFields = customFields
    }

    /// The sum of the non-negative phases except `ssl`, which HAR 1.2 counts inside `connect`.
    ///
    /// - Returns: Milliseconds; what an entry's `time` must equal.
    public var total: Double {
        [blocked, dns, connect, send, wait, receive].filter { $0 > 0 }.reduce(0, +)
    }

    /// Decodes leniently: missing optional phases read as −1, missing required ones (as in empty timings
    /// of cached entries) as 0; numbers may be strings.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.typeMismatch` when a value is not a number.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        blocked = try container.lenientDouble("blocked") ?? -1
        dns = try container.lenientDouble("dns") ?? -1
        connect = try container.lenientDouble("connect") ?? -1
        send = try container.requiredDouble("send", resolution: "read as 0") ?? 0
        wait = try container.requiredDouble("wait", resolution: "read as 0") ?? 0
        receive = try container.requiredDouble("receive", resolution: "read as 0") ?? 0
        ssl = try container.lenientDouble("ssl") ?? -1
        comment = try container.lenientString("comment")
        customFields = container.customFields()
    }

    /// Encodes every phase (HAR 1.2 `timings`) and the custom fields.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: `EncodingError.invalidValue` when a phase is not finite.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encode(blocked, forKey: "blocked")
        try container.encode(dns, forKey: "dns")
        try container.encode(connect, forKey: "connect")
        try container.encode(send, forKey: "send")
        try container.encode(wait, forKey: "wait")
        try container.encode(receive, forKey: "receive")
        try container.encode(ssl, forKey: "ssl")
        try container.encodeIfPresent(comment, forKey: "comment")
        try container.encodeCustomFields(customFields)
    }
}
