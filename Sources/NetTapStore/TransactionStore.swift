import Foundation
import NetTapCore
import NetTapHAR

/// Keeps captured transactions in an SQLite file so they survive app restarts, within size and age limits.
///
/// Add it to a capture log and every finished transaction is written, in batches, off the request path:
///
/// ```swift
/// let store = try TransactionStore(url: URL.applicationSupportDirectory.appending(path: "captures.sqlite"))
/// NetTapInterceptor.shared.captureLog.addObserver(store)
/// // later, in this process or another one:
/// let errors = try await store.transactions(matching: StoreQuery(statusClass: .serverError))
/// ```
///
/// ```
///  CaptureLog ──.finished──▶ observe(_:) ─▶ record(_:) ─▶ buffer ──every 250 ms or 500 transactions──▶
///      StoreWriter (one actor, one connection) ─▶ BEGIN … INSERT bodies, transactions … COMMIT ─▶ limits
/// ```
///
/// The file: SQLite in write-ahead-log mode (`journal_mode=WAL`, `synchronous=NORMAL`), created with mode 0600
/// (the `-wal` and `-shm` files too). A committed batch survives the process being killed at any moment; a
/// power loss may lose the last batches but never corrupts the file. Whenever the writer has nothing left to
/// write, and at every ``flush()``, the log is folded back into the file, so the `.sqlite` file alone holds every
/// flushed transaction (it can be copied without its `-wal`); releasing the store writes what is still
/// buffered, closes the connection and so removes the `-wal` and `-shm` files. The schema version is in
/// `PRAGMA user_version` and older files are migrated when opened for writing. Bodies live in their own table,
/// once per distinct content (SHA-256), so listing stays fast and repeated responses cost nothing.
///
/// Errors: ``record(_:)`` never fails; a failed background write prints one line on standard error and is
/// thrown by the next ``flush()``.
///
/// Thread safety: every member may be used from any thread or task.
public final class TransactionStore: TransactionObserver, Sendable {
    /// How a store opens its file.
    public enum Mode: Sendable, Hashable {
        /// Read and write: the file is created when missing, migrated when older, and kept within the limits.
        case readWrite
        /// Read only: the file must exist; nothing in it changes (tools reading an app's store use this).
        case readOnly
    }

    /// The file.
    public let url: URL
    /// The limits applied after each written batch.
    public let limits: StoreLimits
    /// How many recorded transactions start a write at once; 500 by default.
    public let batchSize: Int
    /// How long a recorded transaction may wait before its batch is written; 250 ms by default.
    public let flushInterval: Duration

    private let writer: StoreWriter
    private let pending: Locked<PendingWrites>

    /// Opens the store at `url`, creating it when missing in read-write mode.
    ///
    /// - Parameters:
    ///   - url: The SQLite file, for example `captures.sqlite` in Application Support.
    ///   - mode: ``Mode/readWrite`` (default) or ``Mode/readOnly``.
    ///   - limits: Total size, body size and age limits; ``StoreLimits/default`` by default.
    ///   - batchSize: How many recorded transactions start a write at once; at least 1, 500 by default.
    ///   - flushInterval: How long a recorded transaction may wait before its batch is written; 250 ms by default.
    ///   - now: The current date, used by the age limit; the system clock by default (tests inject their own).
    /// - Throws: ``StoreError`` naming the file: `.missingFile` (read-only and absent), `.cannotOpen`,
    ///   `.notAStore` (not SQLite, or another program's database), `.corrupt`, `.newerSchema`.
    public init(
        url: URL,
        mode: Mode = .readWrite,
        limits: StoreLimits = .default,
        batchSize: Int = 500,
        flushInterval: Duration = .milliseconds(250),
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(StoreError) {
        let pending = Locked(PendingWrites())
        self.url = url
        self.limits = limits
        self.batchSize = max(1, batchSize)
        self.flushInterval = flushInterval
        self.pending = pending
        writer = try StoreWriter(url: url, isWritable: mode == .readWrite, limits: limits, now: now, pending: pending)
    }

    /// Records a finished transaction: the event's snapshot is buffered and written with the next batch.
    ///
    /// Other events (`TransactionEvent.started(_:)`, `TransactionEvent.responseReceived(_:)`) are ignored, so
    /// the store holds each transaction once, in its final state.
    /// - Parameter event: The event.
    public func observe(_ event: TransactionEvent) {
        if case .finished(let transaction) = event { record(transaction) }
    }

    /// Buffers a transaction for the next batch; returns at once.
    ///
    /// A transaction whose `CapturedTransaction.id` is already stored replaces it. Bodies longer than
    /// ``StoreLimits/bodyByteLimit`` are stored truncated, with their full byte count.
    /// - Parameter transaction: The transaction.
    public func record(_ transaction: CapturedTransaction) {
        enum Start { case none, now, timer }
        let batchSize = batchSize
        let start = pending.withLock { state -> Start in
            state.buffer.append(transaction)
            if state.buffer.count >= batchSize {
                guard !state.isBatchFlushScheduled else { return .none }
                state.isBatchFlushScheduled = true
                return .now
            }
            guard !state.isTimerScheduled else { return .none }
            state.isTimerScheduled = true
            return .timer
        }
        let writer = writer
        switch start {
        case .none:
            break
        case .now:
            Task { await writer.drainInBackground() }
        case .timer:
            let interval = flushInterval
            Task { [weak writer] in
                try? await Task.sleep(for: interval)
                await writer?.drainInBackground()
            }
        }
    }

    /// Writes every transaction recorded so far and waits until it is committed and in the `.sqlite` file.
    ///
    /// After the write, the write-ahead log is folded into the file and truncated
    /// (`PRAGMA wal_checkpoint(TRUNCATE)`), so a copy of the `.sqlite` file alone holds every flushed transaction.
    /// When another process is reading an older snapshot at that moment, the checkpoint copies what it can without
    /// waiting; the rest stays in the `-wal` file (still safe, and read by every connection) until the next one.
    /// - Throws: ``StoreError`` when this write, or a background write since the last `flush()`, failed
    ///   (transactions of a failed batch are not kept).
    public func flush() async throws(StoreError) {
        try await writer.drain()
        let failure = pending.withLock { state -> StoreError? in
            defer { state.failure = nil }
            return state.failure
        }
        if let failure { throw failure }
    }

    /// The stored transactions matching `query`, newest first.
    ///
    /// Transactions recorded but not yet flushed are not included; call ``flush()`` first to see them.
    /// - Parameters:
    ///   - query: The filters, limit and offset; every transaction by default.
    ///   - includingBodies: `true` loads the stored body bytes; `false` (the default, for fast listing) gives each
    ///     body as empty data with its full `CapturedBody.totalByteCount`.
    /// - Returns: The transactions.
    /// - Throws: ``StoreError`` `.invalidQuery` naming a malformed filter, or a read failure naming the file.
    /// - Complexity: O(log n + k) for indexed filters with k results (plus the body sizes when loading bodies);
    ///   ``StoreQuery/pathContains`` scans the rows the other filters select.
    public func transactions(
        matching query: StoreQuery = .all,
        includingBodies: Bool = false
    ) async throws(StoreError) -> [CapturedTransaction] {
        try await writer.transactions(matching: query, includingBodies: includingBodies)
    }

    /// The number of stored transactions matching `query` (its limit and offset apply too).
    ///
    /// - Parameter query: The filters; every transaction by default.
    /// - Returns: The count.
    /// - Throws: ``StoreError`` as ``transactions(matching:includingBodies:)`` does.
    /// - Complexity: O(k) in the matching transactions.
    public func count(matching query: StoreQuery = .all) async throws(StoreError) -> Int {
        try await writer.count(matching: query)
    }

    /// The distinct `CapturedTransaction.answeredBy` names of the stored transactions, sorted.
    ///
    /// Tools use it to say which names exist when an ``StoreQuery/answeredBy`` filter matches nothing.
    /// - Returns: The names, for example `["cache", "mock", "network"]`.
    /// - Throws: ``StoreError`` when the store cannot be read.
    /// - Complexity: O(d log n) for d distinct names (an index scan).
    public func answeredByNames() async throws(StoreError) -> [String] {
        try await writer.answeredByNames()
    }

    /// One stored transaction with its bodies.
    ///
    /// - Parameter id: The transaction's identifier.
    /// - Returns: The transaction, or `nil` when it is not stored (never recorded, not flushed, or evicted).
    /// - Throws: ``StoreError`` when the store cannot be read or the record decoded.
    public func transaction(id: UUID) async throws(StoreError) -> CapturedTransaction? {
        try await writer.transaction(id: id)
    }

    /// A HAR 1.2 document of the transactions matching `query`, with their stored bodies, oldest first.
    ///
    /// HAR 1.2 prefers entries sorted by `startedDateTime`, oldest first. With a ``StoreQuery/limit``, the query
    /// still selects the newest transactions (as ``transactions(matching:includingBodies:)`` does); the
    /// document lists those oldest first.
    /// - Parameter query: The filters; every transaction by default.
    /// - Returns: The document (entries as `HARDocument.init(transactions:creator:)` makes them).
    /// - Throws: ``StoreError`` as ``transactions(matching:includingBodies:)`` does.
    public func exportHAR(matching query: StoreQuery = .all) async throws(StoreError) -> HARDocument {
        HARDocument(transactions: try await transactions(matching: query, includingBodies: true).reversed())
    }

    /// Bytes the store uses, the figure ``StoreLimits/totalByteLimit`` limits.
    ///
    /// - Returns: Database pages in use, (`page_count` − `freelist_count`) × `page_size`, plus the size of the
    ///   `-wal` file, in bytes.
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func usedByteCount() async throws(StoreError) -> Int64 {
        try await writer.usedByteCount()
    }

    /// Applies the limits now (they are also applied after every written batch): removes transactions older
    /// than the age limit, then the oldest while over the size limit.
    ///
    /// - Throws: ``StoreError`` when the store cannot be written.
    public func enforceLimits() async throws(StoreError) {
        try await writer.enforceLimits()
    }

    /// Checks the file with SQLite's `PRAGMA integrity_check`.
    ///
    /// - Returns: `["ok"]` for a sound file, else SQLite's descriptions of each problem.
    /// - Throws: ``StoreError`` when the check cannot run.
    public func integrityCheck() async throws(StoreError) -> [String] {
        try await writer.integrityCheck()
    }

    /// Copies the write-ahead log into the main file and empties it (`PRAGMA wal_checkpoint(TRUNCATE)`), for
    /// example before copying the file elsewhere.
    ///
    /// - Throws: ``StoreError`` when the checkpoint fails.
    public func checkpoint() async throws(StoreError) {
        try await writer.checkpoint()
    }

    /// The number of stored transactions and of distinct stored bodies.
    ///
    /// - Returns: The two counts.
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func rowCounts() async throws(StoreError) -> (transactions: Int, bodies: Int) {
        try await writer.rowCounts()
    }
}
