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
    /// The positions in the file's `log.entries` of the entries left out while reading it, in order.
    ///
    /// Those are not HAR entries at all (`null`, no `request`); empty for a log made in code. Positions users
    /// see (`nettap report`'s HAR ENTRY column, `mock save --entry`) are file positions: see
    /// ``filePosition(ofEntry:)``.
    public var leftOutEntryPositions: [Int] = []

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
        let read = try container.required("entries") { try container.indexedElements(HAREntry.self, $0) }
        entries = read.elements
        leftOutEntryPositions = read.leftOut
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

    /// The position in the file's `log.entries` of ``entries``[`index`] (the same unless entries were left out).
    public func filePosition(ofEntry index: Int) -> Int {
        var position = index
        for leftOut in leftOutEntryPositions where leftOut <= position { position += 1 }
        return position
    }

    /// The index in ``entries`` of the entry at `position` in the file's `log.entries`; `nil` when that entry was
    /// left out or the position is past the end.
    public func entryIndex(atFilePosition position: Int) -> Int? {
        guard position >= 0, !leftOutEntryPositions.contains(position) else { return nil }
        let index = position - leftOutEntryPositions.filter { $0 < position }.count
        return index < entries.count ? index : nil
    }

    /// How many entries the file's `log.entries` has, left-out ones included.
    public var fileEntryCount: Int { entries.count + leftOutEntryPositions.count }
}
