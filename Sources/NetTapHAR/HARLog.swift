import Foundation

/// The root of a HAR file's content: HAR 1.2 `log`.
public struct HARLog: Codable, Sendable, Hashable {
    /// The format version; NetTap writes `1.2`.
    public var version: String
    /// The application that wrote the file.
    public var creator: HARCreator
    /// The browser the recording came from, if any.
    public var browser: HARCreator?
    /// The pages; empty when the recording has none (written as `[]`, which Firefox's importer needs).
    public var pages: [HARPage]
    /// The entries in recorded order.
    public var entries: [HAREntry]
    /// A comment from the user or the application.
    public var comment: String?
    /// Custom fields (names starting with `_`) kept from the imported file.
    public var customFields: [String: HARValue]

    /// Creates a log.
    ///
    /// - Parameters:
    ///   - version: The format version.
    ///   - creator: The writing application.
    ///   - browser: The browser, if any.
    ///   - pages: The pages.
    ///   - entries: The entries.
    ///   - comment: An optional comment.
    ///   - customFields: Custom `_` fields.
    public init(
        version: String = "1.2",
        creator: HARCreator = .netTap,
        browser: HARCreator? = nil,
        pages: [HARPage] = [],
        entries: [HAREntry] = [],
        comment: String? = nil,
        customFields: [String: HARValue] = [:]
    ) {
        self.version = version
        self.creator = creator
        self.browser = browser
        self.pages = pages
        self.entries = entries
        self.comment = comment
        self.customFields = customFields
    }

    /// Decodes leniently: only `entries` is needed; a missing `pages` reads as `[]`.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.keyNotFound` when `entries` is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        version = try container.lenientString("version") ?? "1.2"
        creator = container.lenientOptional(HARCreator.self, "creator") ?? HARCreator(name: "", version: "")
        browser = container.lenientOptional(HARCreator.self, "browser")
        pages = try container.list(HARPage.self, "pages")
        entries = try container.required("entries") { try container.elements(HAREntry.self, $0) }
        comment = try container.lenientString("comment")
        customFields = container.customFields()
    }

    /// Encodes every HAR 1.2 field and the custom ones.
    ///
    /// An entry's `pageref` that names no page in ``pages`` (as Chrome writes) is left out, since
    /// HAR 1.2 requires it to name one.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: `EncodingError.invalidValue` when a number is not finite.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        let pageIDs = Set(pages.map(\.id))
        let written = entries.map { entry -> HAREntry in
            guard let pageref = entry.pageref, !pageIDs.contains(pageref) else { return entry }
            var entry = entry
            entry.pageref = nil
            return entry
        }
        try container.encode(version, forKey: "version")
        try container.encode(creator, forKey: "creator")
        try container.encodeIfPresent(browser, forKey: "browser")
        try container.encode(pages, forKey: "pages")
        try container.encode(written, forKey: "entries")
        try container.encodeIfPresent(comment, forKey: "comment")
        try container.encodeCustomFields(customFields)
    }
}
