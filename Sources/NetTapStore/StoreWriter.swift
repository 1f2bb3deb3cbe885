import Foundation
import NetTapCore

/// Transactions recorded but not yet written, and the state of background flushes.
struct PendingWrites {
    /// The recorded transactions, oldest first.
    var buffer: [CapturedTransaction] = []
    /// Whether a timed flush is waiting.
    var isTimerScheduled = false
    /// Whether a flush for a full batch is on its way.
    var isBatchFlushScheduled = false
    /// The failure of the last background flush, reported by the next ``TransactionStore/flush()``.
    var failure: StoreError?
}

/// The one writer of a store: serializes batch writes, limits and queries on its connection.
actor StoreWriter {
    /// The connection's owner.
    ///
    /// `nonisolated(unsafe)` only so that `deinit`, which runs with exclusive access
    /// wherever the last reference is released, can write and close synchronously; every other use is isolated.
    private nonisolated(unsafe) let engine: StoreEngine
    private let pending: Locked<PendingWrites>

    /// Creates the writer around an opened engine.
    init(
        url: URL,
        isWritable: Bool,
        limits: StoreLimits,
        now: @escaping @Sendable () -> Date,
        pending: Locked<PendingWrites>
    )
        throws(StoreError)
    {
        let engine = try StoreEngine(url: url, isWritable: isWritable, limits: limits, now: now)
        if isWritable { try engine.enforceLimitsMapped() }
        self.engine = engine
        self.pending = pending
    }

    /// Writes what is still buffered, then closes the connection (the engine folds the log back on close).
    ///
    /// Runs when the ``TransactionStore`` is released and no write is on its way (a timed write holds the writer
    /// weakly, so it does not keep the connection open), before the release returns.
    deinit {
        let batch = pending.withLock { state -> [CapturedTransaction] in
            defer { state.buffer = [] }
            return state.buffer
        }
        do {
            try engine.write(batch)
        } catch {
            FileHandle.standardError.write(Data("NetTap store: cannot write captures: \(error)\n".utf8))
        }
    }

    /// Writes everything recorded so far, then folds the write-ahead log into the file when nothing more is waiting.
    ///
    /// Runs without suspending, so when it returns every transaction recorded before the call is written (or its
    /// failure thrown).
    /// - Parameter isCheckpointForced: `true` (for ``TransactionStore/flush()``) checkpoints even when other
    ///   transactions were recorded meanwhile or nothing was written.
    /// - Throws: ``StoreError``; the batch that failed is dropped.
    func drain(isCheckpointForced: Bool = true) throws(StoreError) {
        let batch = pending.withLock { state -> [CapturedTransaction] in
            let batch = state.buffer
            state.buffer = []
            state.isTimerScheduled = false
            state.isBatchFlushScheduled = false
            return batch
        }
        try engine.write(batch)
        let isIdle = pending.withLock { $0.buffer.isEmpty }
        guard isCheckpointForced || isIdle && !batch.isEmpty else { return }
        do {
            try engine.checkpointWhenIdle()
        } catch {
            throw StoreError.sqlite(error, file: engine.file)
        }
    }

    /// Writes everything recorded so far, keeping a failure for the next ``TransactionStore/flush()`` and printing
    /// one line on standard error the first time.
    func drainInBackground() {
        do {
            try drain(isCheckpointForced: false)
        } catch {
            let isFirst = pending.withLock { state -> Bool in
                defer { state.failure = error }
                return state.failure == nil
            }
            if isFirst {
                FileHandle.standardError.write(Data("NetTap store: cannot write captures: \(error)\n".utf8))
            }
        }
    }

    /// See ``StoreEngine/transactions(matching:includingBodies:)``.
    func transactions(matching query: StoreQuery, includingBodies: Bool) throws(StoreError) -> [CapturedTransaction] {
        try engine.transactions(matching: query, includingBodies: includingBodies)
    }

    /// See ``StoreEngine/count(matching:)``.
    func count(matching query: StoreQuery) throws(StoreError) -> Int { try engine.count(matching: query) }

    /// See ``StoreEngine/answeredByNames()``.
    func answeredByNames() throws(StoreError) -> [String] { try engine.answeredByNames() }

    /// See ``StoreEngine/transaction(id:)``.
    func transaction(id: UUID) throws(StoreError) -> CapturedTransaction? { try engine.transaction(id: id) }

    /// See ``StoreEngine/integrityCheck()``.
    func integrityCheck() throws(StoreError) -> [String] { try engine.integrityCheck() }

    /// See ``StoreEngine/rowCounts()``.
    func rowCounts() throws(StoreError) -> (transactions: Int, bodies: Int) { try engine.rowCounts() }

    /// See ``StoreEngine/usedByteCount()``.
    func usedByteCount() throws(StoreError) -> Int64 {
        do { return try engine.usedByteCount() } catch { throw StoreError.sqlite(error, file: engine.file) }
    }

    /// See ``StoreEngine/enforceLimits()``.
    func enforceLimits() throws(StoreError) { try engine.enforceLimitsMapped() }

    /// See ``StoreEngine/checkpoint()``.
    func checkpoint() throws(StoreError) { try engine.checkpoint() }
}

extension StoreEngine {
    /// ``enforceLimits()`` with its failures as ``StoreError``.
    func enforceLimitsMapped() throws(StoreError) {
        do {
            try enforceLimits()
        } catch {
            throw StoreError.wrapping(error, file: file, code: .sqlite)
        }
    }
}
