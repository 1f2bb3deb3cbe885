import Foundation
import NetTapCore
import NetTapReport
import NetTapStore

extension DemoCommand {
    /// What the demo wrote at its end: the store and the HTML report made from it.
    package struct StoreResult: Sendable {
        /// The number of transactions in the store.
        package var transactionCount: Int
        /// The number of those with at least one finding.
        package var findingCount: Int
        /// The store file.
        package var storeURL: URL
        /// The HTML report.
        package var reportURL: URL
    }

    /// Opens a new, empty store at `url` for the demo's transactions, replacing the store an earlier demo left
    /// there (its `-wal` and `-shm` files too).
    ///
    /// A file at `url` that is not a NetTap store is left alone and reported, so `--store` never deletes
    /// another program's data.
    /// - Parameters:
    ///   - url: The store file.
    ///   - path: The path as the user typed it, for messages.
    /// - Returns: The open store.
    /// - Throws: ``CLIError`` (exit 1) naming `--store` when its folder is missing, the file is not a NetTap
    ///   store, cannot be removed, or cannot be created.
    static func openFreshStore(at url: URL, typedAs path: String) throws(CLIError) -> TransactionStore {
        let input = "--store \(Formatting.quoted(path))"
        let files = FileManager.default
        var isFolder: ObjCBool = false
        if !files.fileExists(atPath: url.deletingLastPathComponent().path, isDirectory: &isFolder)
            || !isFolder.boolValue
        {
            throw CLIError.failure(
                command: "demo",
                input: input,
                message: Formatting.unwritableFileReason(url, error: CocoaError(.fileNoSuchFile))
            )
        }
        if files.fileExists(atPath: url.path) {
            do {
                _ = try TransactionStore(url: url, mode: .readOnly)
            } catch {
                throw CLIError.failure(
                    command: "demo",
                    input: input,
                    message: "\(error); the demo replaces only a store it wrote (choose another path with --store)"
                )
            }
            for suffix in ["", "-wal", "-shm"] where files.fileExists(atPath: url.path + suffix) {
                do {
                    try files.removeItem(atPath: url.path + suffix)
                } catch {
                    throw CLIError.failure(
                        command: "demo",
                        input: input,
                        message: "cannot replace the earlier demo store: \(error.localizedDescription)"
                    )
                }
            }
        }
        do {
            return try TransactionStore(url: url)
        } catch {
            throw CLIError.failure(command: "demo", input: input, message: "\(error)")
        }
    }

    /// Writes every transaction the store received, reads them back from the file and renders the HTML report of
    /// them (redacted with `Redactor.default`).
    ///
    /// - Parameters:
    ///   - store: The demo's store, no longer observing the capture log.
    ///   - reportURL: Where to write the HTML report (replaced).
    ///   - reportPath: The report's path as typed, for messages.
    /// - Returns: The counts and both files.
    /// - Throws: ``CLIError`` (exit 1) when the store cannot be written or read, or the report cannot be written.
    static func finishStore(
        _ store: TransactionStore,
        reportURL: URL,
        typedAs reportPath: String
    ) async throws(CLIError) -> StoreResult {
        let transactions: [CapturedTransaction]
        do {
            try await store.flush()
            transactions = try await store.transactions(matching: .all, includingBodies: true)
        } catch {
            throw CLIError.failure(command: "demo", input: store.url.path, message: "\(error)")
        }
        let report = HTMLReport(transactions: transactions, title: "nettap demo")
        do {
            try Data(report.render().utf8).write(to: reportURL, options: .atomic)
        } catch {
            throw CLIError.failure(
                command: "demo",
                input: "--html \(Formatting.quoted(reportPath))",
                message: Formatting.unwritableFileReason(reportURL, error: error)
            )
        }
        return StoreResult(
            transactionCount: transactions.count,
            findingCount: transactions.filter { !$0.findings.isEmpty }.count,
            storeURL: store.url,
            reportURL: reportURL
        )
    }

    /// The closing lines about the store and the report: counts, absolute paths, and commands to look further.
    ///
    /// - Parameters:
    ///   - result: What ``finishStore(_:reportURL:typedAs:)`` wrote.
    ///   - storePath: The store's path as typed.
    ///   - reportPath: The report's path as typed.
    /// - Returns: Lines ending with a newline.
    static func storeLines(_ result: StoreResult, storePath: String, reportPath: String) -> String {
        "Store: wrote \(result.transactionCount) transactions (\(result.findingCount) with findings) to "
            + "\(storePath)\n  \(result.storeURL.standardizedFileURL.path)\n"
            + "  look closer: nettap query \(storePath) --finding    nettap stats \(storePath) --by host\n"
            + "HTML report of the store: \(reportPath) (open it in a browser; it loads nothing from the network)\n"
            + "  \(result.reportURL.standardizedFileURL.path)\n"
    }
}
