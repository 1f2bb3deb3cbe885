import Foundation
import NetTapCore

/// A whole HAR file: the HTTP Archive 1.2 format (<http://www.softwareishard.com/blog/har-12-spec/>).
///
/// ```
/// HARDocument
/// └─ log: HARLog ── creator, browser?, pages[]
///    └─ entries[]: HAREntry ── request: HARRequest ── headers, queryString, cookies, postData?
///                             ├─ response: HARResponse ── headers, cookies, content: HARContent
///                             └─ timings: HARTimings (milliseconds)
/// ```
///
/// Reading is lenient where real exporters are sloppy (numbers as strings, missing optional fields,
/// `null`s, status 0, a UTF-8 byte-order mark) and keeps custom `_` fields; writing produces strict HAR 1.2.
///
/// ```swift
/// let document = HARDocument(transactions: log.transactions)
/// try document.encoded().write(to: fileURL)
/// let again = try HARDocument.load(contentsOf: fileURL)
/// let transactions = again.log.entries.map { $0.transaction() }
/// ```
public struct HARDocument: Codable, Sendable, Hashable {
    /// The archive's content.
    public var log: HARLog

    /// Creates a document.
    ///
    /// - Parameter log: The log.
    public init(log: HARLog) {
        self.log = log
    }

    /// Decodes the root object, which needs a `log`.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.keyNotFound` when `log` is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        log = try container.required("log") { try container.optional(HARLog.self, $0) }
    }

    /// Encodes the root object.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: `EncodingError.invalidValue` when a number is not finite.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encode(log, forKey: "log")
    }

    /// Reads a HAR file.
    ///
    /// - Parameter url: A file URL.
    /// - Returns: The document.
    /// - Throws: ``HARError`` naming the file when it cannot be read, is not JSON (with line and column)
    ///   or is not a HAR document (with the JSON path).
    public static func load(contentsOf url: URL) throws(HARError) -> HARDocument {
        var warnings: [HARWarning] = []
        return try load(contentsOf: url, warnings: &warnings)
    }

    /// Reads a HAR file, reporting what was read leniently.
    ///
    /// A value NetTap can coerce or do without never rejects the file: a string written as an array or an
    /// object, a list or an object of the wrong kind, an entry without `response` (read as no response) or an
    /// entry that cannot be read at all is coerced or left out, and `warnings` gets one ``HARWarning`` each,
    /// with its JSON path. Only a file that is not HAR (not JSON, no `log`, no `entries` array) is refused.
    ///
    /// - Parameters:
    ///   - url: A file URL.
    ///   - warnings: Set to the warnings, in file order; empty for a file read as written.
    /// - Returns: The document.
    /// - Throws: ``HARError`` as ``load(contentsOf:)`` does.
    public static func load(contentsOf url: URL, warnings: inout [HARWarning]) throws(HARError) -> HARDocument {
        let name = url.lastPathComponent
        let data: Data
        do {
            data = try InputFile.read(url)
        } catch {
            throw HARError(source: name, path: "", message: "cannot read file: \(error.reason)")
        }
        return try decode(data, source: name, warnings: &warnings)
    }

    /// Reads a HAR file that must be read as written, as a cassette a test replays: a value
    /// ``load(contentsOf:warnings:)`` would read leniently is an error here, so no entry is silently left out.
    ///
    /// - Parameter url: A file URL.
    /// - Returns: The document.
    /// - Throws: ``HARError`` as ``load(contentsOf:)`` does, or naming the first value that is not as HAR 1.2
    ///   writes it (its JSON path and what is wrong).
    public static func loadStrictly(contentsOf url: URL) throws(HARError) -> HARDocument {
        var warnings: [HARWarning] = []
        let document = try load(contentsOf: url, warnings: &warnings)
        if let first = warnings.first {
            throw HARError(source: url.lastPathComponent, path: first.path, message: first.problem)
        }
        return document
    }

    /// Decodes HAR JSON; a leading UTF-8 byte-order mark is skipped.
    ///
    /// - Parameters:
    ///   - data: The file's bytes, UTF-8 JSON.
    ///   - source: The name used in errors, usually the file name.
    /// - Returns: The document.
    /// - Throws: ``HARError`` with line and column for invalid JSON, or with the JSON path of the value
    ///   that is missing or has an unusable type.
    public static func decode(_ data: Data, source: String) throws(HARError) -> HARDocument {
        var warnings: [HARWarning] = []
        return try decode(data, source: source, warnings: &warnings)
    }

    /// Decodes HAR JSON as ``decode(_:source:)`` does, reporting what was read leniently as
    /// ``load(contentsOf:warnings:)`` does.
    ///
    /// - Parameters:
    ///   - data: The file's bytes, UTF-8 JSON.
    ///   - source: The name used in errors, usually the file name.
    ///   - warnings: Set to the warnings, in file order.
    /// - Returns: The document.
    /// - Throws: ``HARError`` as ``decode(_:source:)`` does.
    public static func decode(
        _ data: Data,
        source: String,
        warnings: inout [HARWarning]
    ) throws(HARError)
        -> HARDocument
    {
        try HARDecoding.decode(data, source: source, warnings: &warnings)
    }

    /// The document as pretty-printed JSON with sorted keys, as HAR 1.2 with every required field.
    ///
    /// - Returns: UTF-8 JSON bytes.
    /// - Throws: `EncodingError.invalidValue` when a number (a timing, say) is not finite.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Writes ``encoded()`` to a file atomically.
    ///
    /// - Parameter url: A file URL.
    /// - Throws: `EncodingError` as ``encoded()`` does, or the file system's error.
    public func write(to url: URL) throws {
        try encoded().write(to: url, options: .atomic)
    }
}
