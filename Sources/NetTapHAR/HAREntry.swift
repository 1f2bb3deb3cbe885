import Foundation

/// One request and its response in a HAR file: HAR 1.2 `entries[]`.
///
/// ``HAREntry/init(transaction:)`` builds one from a NetTap transaction and ``transaction()`` turns it back.
public struct HAREntry: Codable, Sendable, Hashable {
    /// The ``HARPage/id`` of the page the entry belongs to, if any.
    public var pageref: String?
    /// When the request started, as an ISO 8601 date-time with time zone, for example
    /// `2024-05-01T10:20:30.123Z`.
    public var startedDateTime: String
    /// Total milliseconds: the sum of the non-negative ``timings`` phases except `ssl`.
    public var time: Double
    /// The request.
    public var request: HARRequest
    /// The response; status 0 when there was none.
    public var response: HARResponse
    /// What the browser cache held; empty for NetTap exports.
    public var cache: HARCache
    /// The phases of the request in milliseconds.
    public var timings: HARTimings
    /// The server's IP address.
    public var serverIPAddress: String?
    /// An identifier of the TCP/IP connection.
    public var connection: String?
    /// A comment from the user or the application; NetTap writes a short summary of what it did.
    public var comment: String?
    /// NetTap's own record of the transaction (the custom field `_netTap`), used to restore it on import.
    public var netTap: HARNetTapRecord?
    /// Other custom fields (names starting with `_`) kept from the imported file.
    public var customFields: [String: HARValue]

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - pageref: The page identifier.
    ///   - startedDateTime: The start as an ISO 8601 date-time.
    ///   - time: Total milliseconds.
    ///   - request: The request.
    ///   - response: The response.
    ///   - cache: The cache record.
    ///   - timings: The phases in milliseconds.
    ///   - serverIPAddress: The server's IP address.
    ///   - connection: The connection identifier.
    ///   - comment: An optional comment.
    ///   - netTap: NetTap's record.
    ///   - customFields: Custom `_` fields.
    public init(
        pageref: String? = nil,
        startedDateTime: String,
        time: Double,
        request: HARRequest,
        response: HARResponse,
        cache: HARCache = HARCache(),
        timings: HARTimings = HARTimings(),
        serverIPAddress: String? = nil,
        connection: String? = nil,
        comment: String? = nil,
        netTap: HARNetTapRecord? = nil,
        customFields: [String: HARValue] = [:]
    ) {
        self.pageref = pageref
        self.startedDateTime = startedDateTime
        self.time = time
        self.request = request
        self.response = response
        self.cache = cache
        self.timings = timings
        self.serverIPAddress = serverIPAddress
        self.connection = connection
        self.comment = comment
        self.netTap = netTap
        self.customFields = customFields
    }

    /// Decodes leniently: `request` and `response` are needed; missing `time` reads as the timings'
    /// sum, missing timings and cache as empty; a malformed `_netTap` is ignored.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.keyNotFound` when `request` or `response` is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        pageref = try container.lenientString("pageref")
        request = try container.required("request") { try container.optional(HARRequest.self, $0) }
        if container.isAbsent("response") {
            // A trimmed export, or a request still pending when the file was written.
            HARWarningLog.warn(at: container.codingPath, "missing \"response\"", "read as no response (status 0)")
            response = HARResponse.noResponse(error: nil)
        } else {
            response = try container.required("response") { try container.optional(HARResponse.self, $0) }
        }
        // Read once the entry is known to be readable: an entry left out gets one warning, not one per field.
        if !container.contains("startedDateTime") {
            HARWarningLog.warn(
                at: container.codingPath,
                "missing \"startedDateTime\"",
                "read as the earliest start in the file"
            )
        }
        let started = try container.requiredString(
            "startedDateTime",
            resolution: "read as the earliest start in the file"
        )
        startedDateTime = started ?? ""
        _ = container.isRequiredNull("cache", resolution: "read as empty")
        cache = container.lenientOptional(HARCache.self, "cache") ?? HARCache()
        if !container.contains("timings") {
            HARWarningLog.warn(at: container.codingPath, "missing \"timings\"", "read as unknown (-1)")
        }
        _ = container.isRequiredNull("timings", resolution: "read as unknown (-1)")
        timings = container.lenientOptional(HARTimings.self, "timings") ?? HARTimings()
        if let started, HARDate.date(from: started) == nil {
            HARWarningLog.warn(
                at: container.codingPath + [HARCodingKey("startedDateTime")],
                "not an ISO 8601 date and time",
                "read as the earliest start in the file"
            )
        }
        if !container.contains("time") {
            HARWarningLog.warn(at: container.codingPath, "missing \"time\"", "read as the sum of the timings")
        }
        time = try container.requiredDouble("time", resolution: "read as the sum of the timings") ?? timings.total
        serverIPAddress = try container.lenientString("serverIPAddress")
        connection = try container.lenientString("connection")
        comment = try container.lenientString("comment")
        netTap = try? container.optional(HARNetTapRecord.self, HARNetTapRecord.fieldName)
        customFields = container.customFields(excluding: [HARNetTapRecord.fieldName])
    }

    /// Encodes every HAR 1.2 field, `_netTap` and the custom fields.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: `EncodingError.invalidValue` when a number is not finite.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encodeIfPresent(pageref, forKey: "pageref")
        try container.encode(startedDateTime, forKey: "startedDateTime")
        try container.encode(time, forKey: "time")
        try container.encode(request, forKey: "request")
        try container.encode(response, forKey: "response")
        try container.encode(cache, forKey: "cache")
        try container.encode(timings, forKey: "timings")
        try container.encodeIfPresent(serverIPAddress, forKey: "serverIPAddress")
        try container.encodeIfPresent(connection, forKey: "connection")
        try container.encodeIfPresent(comment, forKey: "comment")
        try container.encodeIfPresent(netTap, forKey: HARCodingKey(HARNetTapRecord.fieldName))
        try container.encodeCustomFields(customFields)
    }
}
