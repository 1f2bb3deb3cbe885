import Foundation

/// One page of a browser recording, which entries refer to by `pageref`: HAR 1.2 `pages[]`.
public struct HARPage: Codable, Sendable, Hashable {
    /// When the page load started, as an ISO 8601 date-time.
    public var startedDateTime: String
    /// The page's unique identifier, referred to by ``HAREntry/pageref``.
    public var id: String
    /// The page title.
    public var title: String
    /// Page load milestones.
    public var pageTimings: HARPageTimings
    /// A comment from the user or the application.
    public var comment: String?
    /// Custom fields (names starting with `_`) kept from the imported file.
    public var customFields: [String: HARValue]

    /// Creates a page.
    ///
    /// - Parameters:
    ///   - startedDateTime: The start as an ISO 8601 date-time.
    ///   - id: The unique identifier.
    ///   - title: The title.
    ///   - pageTimings: The load milestones.
    ///   - comment: An optional comment.
    ///   - customFields: Custom `_` fields.
    public init(
        startedDateTime: String,
        id: String,
        title: String,
        pageTimings: HARPageTimings = HARPageTimings(),
        comment: String? = nil,
        customFields: [String: HARValue] = [:]
    ) {
        self.startedDateTime = startedDateTime
        self.id = id
        self.title = title
        self.pageTimings = pageTimings
        self.comment = comment
        self.customFields = customFields
    }

    /// Decodes leniently: only `id` is needed; the rest defaults to empty values.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.keyNotFound` when `id` is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        startedDateTime = try container.lenientString("startedDateTime") ?? ""
        id = try container.required("id", container.lenientString)
        title = try container.lenientString("title") ?? ""
        pageTimings = container.lenientOptional(HARPageTimings.self, "pageTimings") ?? HARPageTimings()
        comment = try container.lenientString("comment")
        customFields = container.customFields()
    }

    /// Encodes the HAR 1.2 fields and the custom ones.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encode(startedDateTime, forKey: "startedDateTime")
        try container.encode(id, forKey: "id")
        try container.encode(title, forKey: "title")
        try container.encode(pageTimings, forKey: "pageTimings")
        try container.encodeIfPresent(comment, forKey: "comment")
        try container.encodeCustomFields(customFields)
    }
}

/// Page load milestones in milliseconds since the page started: HAR 1.2 `pageTimings`.
public struct HARPageTimings: Codable, Sendable, Hashable {
    /// Milliseconds until the content loaded (`DOMContentLoaded`); `nil` or −1 when not known.
    public var onContentLoad: Double?
    /// Milliseconds until the page loaded (`load` event); `nil` or −1 when not known.
    public var onLoad: Double?
    /// A comment from the user or the application.
    public var comment: String?

    /// Creates page timings.
    ///
    /// - Parameters:
    ///   - onContentLoad: Milliseconds until content load.
    ///   - onLoad: Milliseconds until load.
    ///   - comment: An optional comment.
    public init(onContentLoad: Double? = nil, onLoad: Double? = nil, comment: String? = nil) {
        self.onContentLoad = onContentLoad
        self.onLoad = onLoad
        self.comment = comment
    }

    /// Decodes leniently: numbers may be strings.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.typeMismatch` when a value is not a number.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        onContentLoad = try container.lenientDouble("onContentLoad")
        onLoad = try container.lenientDouble("onLoad")
        comment = try container.lenientString("comment")
    }

    /// Encodes the HAR 1.2 fields.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encodeIfPresent(onContentLoad, forKey: "onContentLoad")
        try container.encodeIfPresent(onLoad, forKey: "onLoad")
        try container.encodeIfPresent(comment, forKey: "comment")
    }
}
