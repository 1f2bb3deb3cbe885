import Foundation

#if canImport(SQLite3)
import SQLite3
#else
import CSQLite
#endif

/// A failed SQLite call: the result code, SQLite's own message and the statement that failed.
struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The extended result code, for example `SQLITE_NOTADB` (26).
    var code: Int32
    /// SQLite's message (`sqlite3_errmsg`), for example "file is not a database".
    var message: String
    /// The SQL that failed, when a statement did.
    var sql: String?

    /// The primary result code (the low byte of the extended code).
    var primaryCode: Int32 { code & 0xFF }

    var description: String {
        guard let sql else { return "\(message) (SQLite code \(code))" }
        return "\(message) (SQLite code \(code)) in: \(sql)"
    }
}

/// One SQLite connection: a thin wrapper over the C API.
///
/// Thread safety: none; one owner (the store's writer actor, or one reader) uses it at a time. The connection is
/// opened with `SQLITE_OPEN_NOMUTEX` for that reason.
final class Database {
    /// How to open the file.
    enum Access {
        /// Read and write, creating the file when missing.
        case readWriteCreate
        /// Read and write an existing file.
        case readWrite
        /// Read an existing file.
        case readOnly
    }

    private let handle: OpaquePointer
    /// The file's path.
    let path: String

    /// Opens a connection.
    /// - Parameters:
    ///   - path: The file's path.
    ///   - access: Read-write (creating or not) or read-only.
    /// - Throws: ``SQLiteError`` when SQLite cannot open the file.
    init(path: String, access: Access) throws(SQLiteError) {
        var flags = SQLITE_OPEN_NOMUTEX
        switch access {
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        }
        var pointer: OpaquePointer?
        let status = sqlite3_open_v2(path, &pointer, flags, nil)
        guard let pointer else {
            throw SQLiteError(code: status, message: String(cString: sqlite3_errstr(status)), sql: nil)
        }
        guard status == SQLITE_OK else {
            let error = SQLiteError(code: status, message: String(cString: sqlite3_errmsg(pointer)), sql: nil)
            sqlite3_close_v2(pointer)
            throw error
        }
        sqlite3_extended_result_codes(pointer, 1)
        handle = pointer
        self.path = path
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows of interest.
    /// - Parameter sql: The SQL, statements separated by `;`.
    /// - Throws: ``SQLiteError`` naming the SQL.
    func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        guard status == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// Compiles a statement.
    /// - Parameter sql: One SQL statement with `?` parameters.
    /// - Returns: The statement, ready to bind.
    /// - Throws: ``SQLiteError`` naming the SQL.
    func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        var pointer: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        guard status == SQLITE_OK, let pointer else { throw error(sql: sql) }
        return Statement(pointer, database: self, sql: sql)
    }

    /// The first column of the first row of a query, as an integer (`PRAGMA user_version`, `count(*)`).
    /// - Parameter sql: The query.
    /// - Returns: The value, or `nil` when there is no row.
    /// - Throws: ``SQLiteError`` naming the SQL.
    func integer(_ sql: String) throws(SQLiteError) -> Int64? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.int64(0)
    }

    /// The first column of the first row of a query, as text.
    /// - Parameter sql: The query.
    /// - Returns: The value, or `nil` when there is no row or it is NULL.
    /// - Throws: ``SQLiteError`` naming the SQL.
    func text(_ sql: String) throws(SQLiteError) -> String? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.text(0)
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back when it throws.
    /// - Parameter body: The work.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or ``SQLiteError`` from `BEGIN`/`COMMIT`.
    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Copies the write-ahead log into the database file and empties the log, without waiting for anyone.
    ///
    /// Runs `sqlite3_wal_checkpoint_v2` in `SQLITE_CHECKPOINT_TRUNCATE` mode with the busy timeout set to 0 for
    /// the call: when another connection reads an older snapshot or holds the write lock, SQLite copies what it
    /// can (as `PASSIVE` would), leaves the log in place and this returns `false` instead of blocking.
    /// - Parameter busyTimeoutMilliseconds: The busy timeout to restore after the call, in milliseconds.
    /// - Returns: `true` when the whole log was copied and the `-wal` file truncated to 0 bytes.
    /// - Throws: ``SQLiteError`` for a failure other than `SQLITE_BUSY`/`SQLITE_LOCKED`.
    @discardableResult
    func checkpointWithoutWaiting(busyTimeoutMilliseconds: Int32) throws(SQLiteError) -> Bool {
        sqlite3_busy_timeout(handle, 0)
        defer { sqlite3_busy_timeout(handle, busyTimeoutMilliseconds) }
        var logFrames: Int32 = 0
        var copiedFrames: Int32 = 0
        let status = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, &logFrames, &copiedFrames)
        switch status & 0xFF {
        case SQLITE_OK: return true
        case SQLITE_BUSY, SQLITE_LOCKED: return false
        default: throw error(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    /// The rows changed by the last `INSERT`, `UPDATE` or `DELETE`.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The connection's current error, naming `sql`.
    func error(sql: String?) -> SQLiteError {
        SQLiteError(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}

/// A compiled SQL statement: bind parameters (1-based), step through rows, read columns (0-based).
///
/// Thread safety: none; used by the owner of its ``Database``.
final class Statement {
    /// A parameter value.
    enum Value: Sendable, Hashable {
        case integer(Int64)
        case real(Double)
        case text(String)
        /// Text given as UTF-8 bytes (a JSON document), bound without a `String` round trip.
        case utf8(Data)
        case blob(Data)
        case null
    }

    private let handle: OpaquePointer
    private let database: Database
    /// The statement's SQL.
    let sql: String

    fileprivate init(_ handle: OpaquePointer, database: Database, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// SQLite's `SQLITE_TRANSIENT`: SQLite copies the bound bytes before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Resets the statement and clears its bindings, for another run.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds values to parameters 1, 2, … in order.
    /// - Parameter values: The values.
    /// - Throws: ``SQLiteError`` naming the SQL.
    func bind(_ values: [Value]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds one value.
    /// - Parameters:
    ///   - value: The value.
    ///   - index: The 1-based parameter index.
    /// - Throws: ``SQLiteError`` naming the SQL.
    func bind(_ value: Value, at index: Int32) throws(SQLiteError) {
        let status: Int32
        switch value {
        case .integer(let integer): status = sqlite3_bind_int64(handle, index, integer)
        case .real(let real): status = sqlite3_bind_double(handle, index, real)
        case .text(let text): status = sqlite3_bind_text(handle, index, text, -1, Self.transient)
        case .utf8(let data):
            status = data.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self) else {
                    return sqlite3_bind_text(handle, index, "", 0, Self.transient)
                }
                return sqlite3_bind_text64(handle, index, base, UInt64(bytes.count), Self.transient, UInt8(SQLITE_UTF8))
            }
        case .blob(let data) where data.isEmpty: status = sqlite3_bind_zeroblob(handle, index, 0)
        case .blob(let data):
            status = data.withUnsafeBytes { bytes in
                sqlite3_bind_blob64(handle, index, bytes.baseAddress, UInt64(bytes.count), Self.transient)
            }
        case .null: status = sqlite3_bind_null(handle, index)
        }
        guard status == SQLITE_OK else { throw database.error(sql: sql) }
    }

    /// Advances to the next row.
    /// - Returns: `true` when a row is ready to read, `false` when the statement is done.
    /// - Throws: ``SQLiteError`` naming the SQL.
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = database.error(sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Binds `values`, runs the statement to its end and resets it.
    /// - Parameter values: The parameter values.
    /// - Throws: ``SQLiteError`` naming the SQL.
    func run(_ values: [Value] = []) throws(SQLiteError) {
        defer { reset() }
        try bind(values)
        while try step() {}
    }

    /// Whether a column of the current row is NULL.
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// A column of the current row as an integer (0 for NULL).
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// A column of the current row as a real number (0 for NULL).
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    /// A column of the current row as text, or `nil` for NULL.
    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: pointer)
    }

    /// A column of the current row as bytes, or `nil` for NULL (an empty blob gives empty data).
    func data(_ column: Int32) -> Data? {
        guard !isNull(column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: pointer, count: count)
    }
}
