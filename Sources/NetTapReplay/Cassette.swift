import Foundation
import NetTapCore
import NetTapHAR

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A recording of HTTP exchanges to replay: a HAR 1.2 file whose entries a ``ReplayHandler`` answers from.
///
/// Any HAR 1.2 file is a cassette (a browser export, another tool's, NetTap's own export); NetTap writes
/// one entry per redirect hop and one for the final request, so replaying an entry answers exactly one
/// request and the interceptor follows a replayed redirect to the next entry.
///
/// ```swift
/// var cassette = try Cassette.load(contentsOf: fileURL)
/// cassette.append(transaction)                  // HAREntry.entries(for:)
/// try cassette.save(to: fileURL)                // temporary file, then rename
/// ```
public struct Cassette: Sendable, Hashable {
    /// The HAR document.
    public var document: HARDocument

    /// Creates a cassette from a HAR document.
    ///
    /// - Parameter document: The document; an empty NetTap log by default.
    public init(document: HARDocument = HARDocument(log: HARLog())) {
        self.document = document
    }

    /// The entries in recorded order: HAR 1.2 `log.entries`.
    public var entries: [HAREntry] {
        get { document.log.entries }
        set { document.log.entries = newValue }
    }

    /// Reads a cassette file.
    ///
    /// - Parameter url: A file URL of a HAR 1.2 file (a UTF-8 byte-order mark is accepted).
    /// - Returns: The cassette.
    /// Read strictly (`HARDocument.loadStrictly(contentsOf:)`): an entry the lenient reading would leave out or
    /// coerce is an error, so a replay never misses a recorded entry silently and recording never rewrites the
    /// file without it.
    ///
    /// - Throws: `HARError` naming the file and, for invalid JSON, the line and column, or for a value that is
    ///   missing or unusable, its JSON path (`api.har: $.log.entries[2]: missing required field "url" at
    ///   $.log.entries[2].request`).
    public static func load(contentsOf url: URL) throws(HARError) -> Cassette {
        Cassette(document: try HARDocument.loadStrictly(contentsOf: url))
    }

    /// Appends the HAR entries of a transaction: one per redirect hop, then the final request's
    /// (`HAREntry.entries(for:)`).
    ///
    /// The transaction is appended as given: redact it first (`Redactor/redact(transaction:)`).
    /// - Parameter transaction: The transaction.
    public mutating func append(_ transaction: CapturedTransaction) {
        entries += HAREntry.entries(for: transaction)
    }

    /// Writes the cassette atomically: pretty-printed HAR 1.2 JSON into a temporary file beside `url`, then renamed over it (POSIX `rename`), so a reader never sees half a file.
    ///
    /// Missing folders are created.
    ///
    /// - Parameter url: The file URL.
    /// - Throws: `EncodingError` for a non-finite number, `CocoaError` when the folder or temporary file cannot
    ///   be written, or `POSIXError` when the rename fails.
    public func save(to url: URL) throws {
        let data = try document.encoded()
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        try data.write(to: temporary)
        guard rename(temporary.path, url.path) == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            try? FileManager.default.removeItem(at: temporary)
            throw POSIXError(code)
        }
    }
}
