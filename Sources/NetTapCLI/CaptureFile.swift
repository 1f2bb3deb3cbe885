import Foundation
import NetTapCore
import NetTapHAR
import NetTapStore

/// Reads the transactions of a HAR 1.2 file or a NetTap SQLite store, as `nettap report --html` and
/// `nettap stats` do.
enum CaptureFile {
    /// How many stored transactions are read per page (the progress bar moves per page).
    static let pageSize = 2_000

    /// Whether a file starts with the SQLite 3 header (`"SQLite format 3\0"`, the SQLite file format §1.3).
    ///
    /// Only a regular file can be a store: a pipe (`<(cat a.har)`) is never opened here, since reading its first
    /// bytes would take them from the HAR reader.
    static func isSQLite(_ url: URL) -> Bool {
        let type = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
        guard type == .typeRegular, let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        return header == Data("SQLite format 3\u{0}".utf8)
    }

    /// Every transaction of the file, oldest first, with bodies.
    ///
    /// - Parameters:
    ///   - path: The path as typed.
    ///   - command: The command name for error lines.
    ///   - strict: Whether a HAR file with values read leniently is refused (`--strict`).
    ///   - listsWarnings: Whether every value read leniently is listed (`--warnings`).
    ///   - environment: Working directory and standard error (for the progress bar).
    /// - Returns: The transactions, sorted by start (ties in file order).
    /// - Throws: ``CLIError`` (exit 1) naming the file: missing, not a HAR (with the JSON path or line), or not a
    ///   readable store.
    static func transactions(
        _ path: String,
        command: String,
        strict: Bool = false,
        listsWarnings: Bool = false,
        in environment: CommandEnvironment
    ) async throws(CLIError) -> [CapturedTransaction] {
        let url = environment.fileURL(path)
        if let reason = Formatting.unreadableFileReason(url) {
            throw CLIError.failure(command: command, input: path, message: reason)
        }
        let progress = ProgressBar("importing \(url.lastPathComponent)", output: environment.standardError)
        defer { progress.finish() }
        progress.update(0)
        var transactions: [CapturedTransaction]
        if isSQLite(url) {
            let store = try QueryCommand.open(path, command: command, in: environment)
            do {
                let total = try await store.count()
                transactions = []
                transactions.reserveCapacity(total)
                while transactions.count < total {
                    let page = try await store.transactions(
                        matching: StoreQuery(limit: pageSize, offset: transactions.count),
                        includingBodies: true
                    )
                    if page.isEmpty { break }
                    transactions += page
                    progress.update(Double(transactions.count) / Double(max(total, 1)))
                }
            } catch {
                throw CLIError.failure(command: command, input: path, message: QueryCommand.message(error))
            }
        } else {
            let document = try HARInput.load(
                url,
                path: path,
                command: command,
                strict: strict,
                listsWarnings: listsWarnings,
                in: environment
            )
            progress.update(0.5)
            transactions = document.transactions()
        }
        progress.update(1)
        return transactions.enumerated()
            .sorted { ($0.element.timings.startDate, $0.offset) < ($1.element.timings.startDate, $1.offset) }
            .map(\.element)
    }
}
