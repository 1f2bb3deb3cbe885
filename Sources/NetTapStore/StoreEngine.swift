import Foundation
import NetTapCore
import NetTapCrypto

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The synchronous heart of a ``TransactionStore``: one SQLite connection, its prepared statements, batch
/// writes, limits and queries.
///
/// Thread safety: none; the ``StoreWriter`` actor owns it and calls it one method at a time.
final class StoreEngine {
    private let database: Database
    /// The store's path, for errors.
    let file: String
    private let limits: StoreLimits
    private let now: @Sendable () -> Date
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()
    private var insertTransaction: Statement?
    private var insertBody: Statement?
    private let isWritable: Bool

    /// How long a statement waits for another connection's lock (`PRAGMA busy_timeout`), in milliseconds.
    private static let busyTimeoutMilliseconds: Int32 = 5000

    /// Opens (and in read-write mode creates and migrates) the store at `url`.
    ///
    /// - Parameters:
    ///   - url: The file.
    ///   - isWritable: `false` opens an existing file read-only and never changes it.
    ///   - limits: The limits applied after each batch.
    ///   - now: The current date, for the age limit.
    /// - Throws: ``StoreError`` naming the file.
    init(url: URL, isWritable: Bool, limits: StoreLimits, now: @escaping @Sendable () -> Date) throws(StoreError) {
        let path = url.path
        file = path
        self.limits = limits
        self.now = now
        self.isWritable = isWritable
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if isDirectory.boolValue {
            throw StoreError(code: .cannotOpen, file: path, message: "is a directory, not a store file")
        }
        if !exists {
            guard isWritable else { throw StoreError(code: .missingFile, file: path, message: "no such file") }
            try Self.createPrivateFile(path)
        }
        // SQLite gives the -wal and -shm files it creates the main file's mode; a read-only open of a file that
        // is not private (a copy made with cp) must still leave only private side files behind.
        let sideFiles = [path + "-wal", path + "-shm"]
        let sideFilesBefore = Set(sideFiles.filter { FileManager.default.fileExists(atPath: $0) })
        defer {
            for sideFile in sideFiles where isWritable || !sideFilesBefore.contains(sideFile) {
                Self.makePrivate(sideFile)
            }
        }
        do {
            database = try Database(path: path, access: isWritable ? .readWrite : .readOnly)
            try database.execute("PRAGMA busy_timeout = \(Self.busyTimeoutMilliseconds)")
            if isWritable {
                // auto_vacuum must be chosen before the first table exists; on an older file it changes nothing.
                try database.execute("PRAGMA auto_vacuum = INCREMENTAL")
                let mode = try database.text("PRAGMA journal_mode = WAL")
                guard mode?.lowercased() == "wal" else {
                    throw StoreError(
                        code: .cannotOpen,
                        file: path,
                        message: "cannot switch to write-ahead logging (journal_mode is \(mode ?? "unknown"))"
                    )
                }
                try database.execute("PRAGMA synchronous = NORMAL")
                // The log is folded back after idle flushes (see checkpointWhenIdle()); these bound it in between:
                // SQLite checkpoints by itself after `wal_autocheckpoint` pages and truncates the file it reuses to
                // `journal_size_limit` bytes.
                let logLimit = Self.logByteLimit(for: limits)
                try database.execute("PRAGMA journal_size_limit = \(logLimit)")
                try database.execute("PRAGMA wal_autocheckpoint = \(max(16, logLimit / 4096))")
            }
            try database.execute("PRAGMA foreign_keys = ON")
            try Schema.prepare(database, file: path, isWritable: isWritable)
        } catch {
            throw StoreError.wrapping(error, file: path, code: .cannotOpen)
        }
    }

    /// Creates an empty file readable and writable by its owner only (mode 0600) before SQLite opens it.
    private static func createPrivateFile(_ path: String) throws(StoreError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        let code = errno
        guard code != EEXIST else { return }
        throw StoreError(code: .cannotOpen, file: path, message: "cannot create: \(String(cString: strerror(code)))")
    }

    /// The most bytes the write-ahead log keeps between checkpoints: a quarter of the size limit, from 64 KiB to
    /// 4 MiB.
    static func logByteLimit(for limits: StoreLimits) -> Int64 {
        min(4 * 1024 * 1024, max(64 * 1024, limits.totalByteLimit / 4))
    }

    /// Folds the write-ahead log into the file when the connection closes (SQLite then deletes the `-wal`).
    deinit {
        if isWritable { _ = try? database.checkpointWithoutWaiting(busyTimeoutMilliseconds: 0) }
    }

    /// Sets mode 0600 on one of SQLite's side files (`-wal`, `-shm`) when it exists.
    private static func makePrivate(_ path: String) {
        if FileManager.default.fileExists(atPath: path) { chmod(path, 0o600) }
    }

    // MARK: Writing

    /// Writes a batch of transactions in one SQL transaction, then applies the limits.
    ///
    /// A transaction whose identifier is already stored replaces the stored one.
    /// - Parameter batch: The transactions.
    /// - Throws: ``StoreError`` naming the file; nothing of the batch is stored then.
    func write(_ batch: [CapturedTransaction]) throws(StoreError) {
        guard !batch.isEmpty else { return }
        do {
            var replacedHashes = Set<Data>()
            try database.transaction {
                for transaction in batch {
                    try insert(transaction, replacedHashes: &replacedHashes)
                }
                try deleteUnreferencedBodies(replacedHashes)
            }
            try enforceLimits()
        } catch {
            throw StoreError.wrapping(error, file: file, code: .sqlite)
        }
    }

    private func insert(_ transaction: CapturedTransaction, replacedHashes: inout Set<Data>) throws {
        let requestBody = try storeBody(transaction.request.body)
        let responseBody = try storeBody(transaction.response?.body)
        var record = transaction
        record.request.body = nil
        record.response?.body = nil
        let json = try encoder.encode(record)
        let url = transaction.request.url
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? url.path
        let values: [Statement.Value] = [
            .text(transaction.id.uuidString),
            .real(transaction.timings.startDate.timeIntervalSince1970),
            transaction.timings.end.map { .real($0) } ?? .null,
            .text(transaction.request.method.uppercased()),
            .text(url.scheme?.lowercased() ?? ""),
            .text(url.host?.lowercased() ?? ""),
            url.port.map { .integer(Int64($0)) } ?? .null,
            .text(path.isEmpty ? "/" : path),
            components?.percentEncodedQuery.map { .text($0) } ?? .null,
            transaction.response.map { .integer(Int64($0.statusCode)) } ?? .null,
            .text(transaction.state.rawValue),
            .text(transaction.answeredBy),
            requestBody.map { .blob($0.hash) } ?? .null,
            requestBody.map { .integer($0.totalByteCount) } ?? .null,
            responseBody.map { .blob($0.hash) } ?? .null,
            responseBody.map { .integer($0.totalByteCount) } ?? .null,
            .integer(Int64(transaction.findings.count)),
            transaction.error.map { .integer(Int64($0.code)) } ?? .null,
            .utf8(json),
        ]
        let statement = try insertTransactionStatement()
        var isDuplicate = false
        do {
            try statement.run(values)
        } catch {
            // SQLITE_CONSTRAINT_PRIMARYKEY: the id is already stored; replace it below.
            guard error.code == 1555 else { throw error }
            isDuplicate = true
        }
        guard isDuplicate else { return }
        for hash in try delete(where: "id = ?", [.text(transaction.id.uuidString)]) {
            replacedHashes.insert(hash)
        }
        try statement.run(values)
    }

    /// Stores a body's bytes (up to the body limit) under their SHA-256 unless already stored.
    private func storeBody(_ body: CapturedBody?) throws -> (hash: Data, totalByteCount: Int64)? {
        guard let body else { return nil }
        let kept = body.data.count > limits.bodyByteLimit ? Data(body.data.prefix(limits.bodyByteLimit)) : body.data
        let hash = try StreamingDigest.hash(kept, using: .sha256)
        try insertBodyStatement().run([.blob(hash), .blob(kept), .integer(Int64(kept.count))])
        return (hash, max(body.totalByteCount, Int64(body.data.count)))
    }

    private func insertTransactionStatement() throws(SQLiteError) -> Statement {
        if let insertTransaction { return insertTransaction }
        let statement = try database.prepare(
            """
            INSERT INTO transactions (id, start, duration_ms, method, scheme, host, port, path, query, status, state,
                answered_by, request_body_hash, request_body_size, response_body_hash, response_body_size,
                finding_count, error_code, record)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        )
        insertTransaction = statement
        return statement
    }

    private func insertBodyStatement() throws(SQLiteError) -> Statement {
        if let insertBody { return insertBody }
        let statement = try database.prepare(
            "INSERT INTO bodies (hash, data, size) VALUES (?, ?, ?) ON CONFLICT (hash) DO NOTHING"
        )
        insertBody = statement
        return statement
    }

    /// Deletes transactions matching a condition and returns the hashes of the bodies they referenced.
    private func delete(where condition: String, _ values: [Statement.Value]) throws -> Set<Data> {
        let statement = try database.prepare(
            "DELETE FROM transactions WHERE \(condition) RETURNING request_body_hash, response_body_hash"
        )
        try statement.bind(values)
        var hashes = Set<Data>()
        while try statement.step() {
            if let hash = statement.data(0) { hashes.insert(hash) }
            if let hash = statement.data(1) { hashes.insert(hash) }
        }
        return hashes
    }

    /// Deletes the bodies among `hashes` that no transaction references any more.
    private func deleteUnreferencedBodies(_ hashes: Set<Data>) throws {
        guard !hashes.isEmpty else { return }
        let statement = try database.prepare(
            """
            DELETE FROM bodies WHERE hash = ?1
                AND NOT EXISTS (SELECT 1 FROM transactions WHERE request_body_hash = ?1)
                AND NOT EXISTS (SELECT 1 FROM transactions WHERE response_body_hash = ?1)
            """
        )
        for hash in hashes { try statement.run([.blob(hash)]) }
    }

    // MARK: Limits

    /// Bytes in use: database pages in use, (`page_count` − `freelist_count`) × `page_size`, plus the size of the
    /// `-wal` file.
    func usedByteCount() throws(SQLiteError) -> Int64 {
        try pageByteCount() + logByteCount()
    }

    /// Bytes of database pages in use: (`page_count` − `freelist_count`) × `page_size`.
    private func pageByteCount() throws(SQLiteError) -> Int64 {
        let pages = try database.integer("PRAGMA page_count") ?? 0
        let free = try database.integer("PRAGMA freelist_count") ?? 0
        let size = try database.integer("PRAGMA page_size") ?? 0
        return (pages - free) * size
    }

    /// The size of the `-wal` file in bytes, 0 when there is none.
    private func logByteCount() -> Int64 {
        let attributes = try? FileManager.default.attributesOfItem(atPath: file + "-wal")
        return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// Folds the write-ahead log into the file and truncates it, unless a reader or another writer is busy.
    ///
    /// Called when the writer has nothing left to write, so the `.sqlite` file holds every committed transaction
    /// on its own (a copy of it alone is complete) and the `-wal` file does not grow with the store's history.
    /// - Throws: ``SQLiteError`` for a failure other than another connection being busy.
    func checkpointWhenIdle() throws(SQLiteError) {
        guard isWritable else { return }
        try database.checkpointWithoutWaiting(busyTimeoutMilliseconds: Self.busyTimeoutMilliseconds)
    }

    /// Removes transactions older than the age limit, then the oldest until the store is under 90 % of the size
    /// limit when it is over it; removes the bodies left unreferenced and shrinks the file.
    ///
    /// The size counts the `-wal` file: when it puts the store over the limit, the log is checkpointed first, and
    /// again after removing transactions (removal itself writes to the log).
    /// - Throws: ``SQLiteError``.
    func enforceLimits() throws {
        var didDelete = false
        if let age = limits.maximumAgeSeconds {
            let cutoff = now().timeIntervalSince1970 - age
            try database.transaction {
                let hashes = try delete(where: "start < ?", [.real(cutoff)])
                didDelete = database.changes > 0 || !hashes.isEmpty
                try deleteUnreferencedBodies(hashes)
            }
        }
        if try usedByteCount() > limits.totalByteLimit { try checkpointWhenIdle() }
        var used = try pageByteCount()
        if used + logByteCount() > limits.totalByteLimit {
            let target = limits.totalByteLimit / 10 * 9
            while used > target {
                let count = try database.integer("SELECT count(*) FROM transactions") ?? 0
                guard count > 0 else { break }
                let perTransaction = max(1, used / count)
                let removeCount = min(count, max(1, (used - target) / perTransaction + 1))
                try database.transaction {
                    let hashes = try delete(
                        where: "id IN (SELECT id FROM transactions ORDER BY start LIMIT ?)",
                        [.integer(removeCount)]
                    )
                    try deleteUnreferencedBodies(hashes)
                }
                didDelete = true
                used = try pageByteCount()
            }
        }
        guard didDelete else { return }
        try database.execute("PRAGMA incremental_vacuum")
        if logByteCount() > 0 { try checkpointWhenIdle() }
    }

    // MARK: Reading

    /// The transactions matching `query`, newest first.
    ///
    /// - Parameters:
    ///   - query: The filters, limit and offset.
    ///   - includingBodies: `true` loads body bytes; `false` gives bodies with no bytes and their full size.
    /// - Returns: The transactions.
    /// - Throws: ``StoreError``.
    func transactions(matching query: StoreQuery, includingBodies: Bool) throws(StoreError) -> [CapturedTransaction] {
        let (condition, values) = try query.whereClause()
        var sql = "SELECT t.id, t.record, t.request_body_hash, t.request_body_size, t.response_body_hash, "
        sql += "t.response_body_size"
        sql += includingBodies ? ", rq.data, rs.data FROM transactions t" : " FROM transactions t"
        if includingBodies {
            sql += " LEFT JOIN bodies rq ON rq.hash = t.request_body_hash"
            sql += " LEFT JOIN bodies rs ON rs.hash = t.response_body_hash"
        }
        sql += condition + " ORDER BY t.start DESC, t.id"
        if let limit = query.limit { sql += " LIMIT \(limit)" } else if query.offset > 0 { sql += " LIMIT -1" }
        if query.offset > 0 { sql += " OFFSET \(query.offset)" }
        return try reading { () throws -> [CapturedTransaction] in
            let statement = try database.prepare(sql)
            try statement.bind(values)
            var result: [CapturedTransaction] = []
            while try statement.step() {
                result.append(try decodeRow(statement, includingBodies: includingBodies))
            }
            return result
        }
    }

    /// The number of transactions matching `query`'s filters (its limit and offset apply too).
    func count(matching query: StoreQuery) throws(StoreError) -> Int {
        let (condition, values) = try query.whereClause()
        var sql = "SELECT count(*) FROM (SELECT 1 FROM transactions t" + condition
        if let limit = query.limit { sql += " LIMIT \(limit)" } else if query.offset > 0 { sql += " LIMIT -1" }
        if query.offset > 0 { sql += " OFFSET \(query.offset)" }
        sql += ")"
        return try reading { () throws -> Int in
            let statement = try database.prepare(sql)
            try statement.bind(values)
            return try statement.step() ? Int(statement.int64(0)) : 0
        }
    }

    /// The distinct `answered_by` values, sorted.
    func answeredByNames() throws(StoreError) -> [String] {
        try reading { () throws -> [String] in
            let statement = try database.prepare("SELECT DISTINCT answered_by FROM transactions ORDER BY 1")
            var names: [String] = []
            while try statement.step() { names.append(statement.text(0) ?? "") }
            return names
        }
    }

    /// One transaction with its bodies, or `nil` when not stored.
    func transaction(id: UUID) throws(StoreError) -> CapturedTransaction? {
        try reading { () throws -> CapturedTransaction? in
            let statement = try database.prepare(
                """
                SELECT t.id, t.record, t.request_body_hash, t.request_body_size, t.response_body_hash,
                    t.response_body_size, rq.data, rs.data FROM transactions t
                LEFT JOIN bodies rq ON rq.hash = t.request_body_hash
                LEFT JOIN bodies rs ON rs.hash = t.response_body_hash
                WHERE t.id = ?
                """
            )
            try statement.bind([.text(id.uuidString)])
            guard try statement.step() else { return nil }
            return try decodeRow(statement, includingBodies: true)
        }
    }

    /// `PRAGMA integrity_check`: `["ok"]` for a sound file, else SQLite's list of problems.
    func integrityCheck() throws(StoreError) -> [String] {
        try reading { () throws -> [String] in
            let statement = try database.prepare("PRAGMA integrity_check")
            var lines: [String] = []
            while try statement.step() { lines.append(statement.text(0) ?? "") }
            return lines
        }
    }

    /// The number of stored transactions and distinct bodies.
    func rowCounts() throws(StoreError) -> (transactions: Int, bodies: Int) {
        try reading { () throws -> (Int, Int) in
            let transactions = try database.integer("SELECT count(*) FROM transactions") ?? 0
            let bodies = try database.integer("SELECT count(*) FROM bodies") ?? 0
            return (Int(transactions), Int(bodies))
        }
    }

    /// Writes the log into the file and truncates it (`PRAGMA wal_checkpoint(TRUNCATE)`), waiting for readers.
    func checkpoint() throws(StoreError) {
        try reading { () throws in try database.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    private func reading<Result>(_ body: () throws -> Result) throws(StoreError) -> Result {
        do {
            return try body()
        } catch {
            throw StoreError.wrapping(error, file: file, code: .sqlite)
        }
    }

    /// A decoding failure in words with the JSON path of the value at fault, without Swift's type names.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "the record is not JSON a CapturedTransaction has" }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(JSONPath.path(context.codingPath)): missing field \"\(key.stringValue)\""
        case .valueNotFound(_, let context):
            return "\(JSONPath.path(context.codingPath)): the value is null"
        case .typeMismatch(_, let context):
            return "\(JSONPath.path(context.codingPath)): a value of the wrong type"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "the record is not valid JSON" : "\(JSONPath.path(context.codingPath)): an unreadable value"
        @unknown default:
            return "the record is not JSON a CapturedTransaction has"
        }
    }

    private func decodeRow(_ statement: Statement, includingBodies: Bool) throws -> CapturedTransaction {
        let id = statement.text(0) ?? ""
        var transaction: CapturedTransaction
        do {
            transaction = try decoder.decode(CapturedTransaction.self, from: statement.data(1) ?? Data())
        } catch {
            throw StoreError(
                code: .invalidRecord,
                file: file,
                input: "transaction \(id)",
                message: "cannot decode the stored record: \(Self.describe(error))"
            )
        }
        if !statement.isNull(2) {
            let bytes = includingBodies ? statement.data(6) ?? Data() : Data()
            transaction.request.body = CapturedBody(data: bytes, totalByteCount: statement.int64(3))
        }
        if !statement.isNull(4), transaction.response != nil {
            let bytes = includingBodies ? statement.data(7) ?? Data() : Data()
            transaction.response?.body = CapturedBody(data: bytes, totalByteCount: statement.int64(5))
        }
        return transaction
    }
}
