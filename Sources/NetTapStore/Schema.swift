import Foundation

/// The store's schema and its migrations.
///
/// The version lives in `PRAGMA user_version`; `PRAGMA application_id` marks the file as a NetTap store.
/// ``migrations`` holds one function per version, in order: migration *i* takes a store at version *i* to
/// *i + 1*, inside the same SQL transaction that records the new version. Adding version 2 is appending one
/// function.
enum Schema {
    /// `PRAGMA application_id` of a NetTap store: the bytes "NTap".
    static let applicationID: Int64 = 0x4E54_6170

    /// The migrations, oldest first; their count is the current version.
    static let migrations: [@Sendable (Database) throws -> Void] = [version1]

    /// The schema version this code writes and reads.
    static var currentVersion: Int64 { Int64(migrations.count) }

    /// Version 1: transactions (indexed columns and the JSON record without bodies) and deduplicated bodies.
    ///
    /// - `bodies`: one row per distinct stored body, found by its SHA-256 (`hash`, unique); `size` is the stored
    ///   byte count. A rowid table, not `WITHOUT ROWID`: its leaves hold a 1 KiB body inline, where an index
    ///   b-tree would spill each one to an overflow page of its own.
    /// - `transactions`: `start` in seconds since 1970, `duration_ms` in milliseconds, `status` NULL without a
    ///   response, `*_body_hash` NULL without a body, `*_body_size` the full body size (also when the stored
    ///   bytes were truncated), `record` the ``CapturedTransaction`` as JSON with its bodies left out.
    private static func version1(_ database: Database) throws {
        try database.execute(
            """
            CREATE TABLE bodies (
                hash BLOB NOT NULL UNIQUE,
                data BLOB NOT NULL,
                size INTEGER NOT NULL
            );
            CREATE TABLE transactions (
                id TEXT PRIMARY KEY NOT NULL,
                start REAL NOT NULL,
                duration_ms REAL,
                method TEXT NOT NULL,
                scheme TEXT NOT NULL,
                host TEXT NOT NULL,
                port INTEGER,
                path TEXT NOT NULL,
                query TEXT,
                status INTEGER,
                state TEXT NOT NULL,
                answered_by TEXT NOT NULL,
                request_body_hash BLOB REFERENCES bodies(hash),
                request_body_size INTEGER,
                response_body_hash BLOB REFERENCES bodies(hash),
                response_body_size INTEGER,
                finding_count INTEGER NOT NULL,
                error_code INTEGER,
                record TEXT NOT NULL
            );
            CREATE INDEX transactions_start ON transactions(start);
            CREATE INDEX transactions_host ON transactions(host, start);
            CREATE INDEX transactions_method ON transactions(method, start);
            CREATE INDEX transactions_status ON transactions(status, start);
            CREATE INDEX transactions_state ON transactions(state, start);
            CREATE INDEX transactions_answered_by ON transactions(answered_by, start);
            CREATE INDEX transactions_finding ON transactions(start) WHERE finding_count > 0;
            CREATE INDEX transactions_request_body ON transactions(request_body_hash)
                WHERE request_body_hash IS NOT NULL;
            CREATE INDEX transactions_response_body ON transactions(response_body_hash)
                WHERE response_body_hash IS NOT NULL;
            """
        )
    }

    /// Checks the file is a NetTap store this code can read, and migrates it to ``currentVersion`` when writable.
    ///
    /// - Parameters:
    ///   - database: The open connection.
    ///   - file: The path, for errors.
    ///   - isWritable: Whether migrations may run.
    /// - Throws: ``StoreError`` `.notAStore` for another program's database, `.newerSchema` for a newer
    ///   version, `.notAStore` for an old version opened read-only, or an SQLite failure.
    static func prepare(_ database: Database, file: String, isWritable: Bool) throws {
        let fileApplicationID = try database.integer("PRAGMA application_id") ?? 0
        let version = try database.integer("PRAGMA user_version") ?? 0
        let tableCount = try database.integer("SELECT count(*) FROM sqlite_master") ?? 0
        let isOurs = fileApplicationID == applicationID || fileApplicationID == 0 && tableCount == 0
        if !isOurs {
            throw StoreError(
                code: .notAStore,
                file: file,
                message: "not a NetTap store: an SQLite database some other program made (application_id "
                    + "\(fileApplicationID), \(tableCount) schema objects)"
            )
        }
        if version > currentVersion {
            throw StoreError(
                code: .newerSchema,
                file: file,
                message: "schema version \(version) is newer than this NetTap supports (\(currentVersion)); "
                    + "update NetTap to read it"
            )
        }
        guard version < currentVersion else { return }
        guard isWritable else {
            let fileName = URL(fileURLWithPath: file).lastPathComponent
            throw StoreError(
                code: .notAStore,
                file: file,
                message: version == 0
                    ? "not a NetTap store: an empty SQLite database (a store copied without its \(fileName)-wal "
                        + "file may have left its transactions there: copy both files, or flush the store first)"
                    : "not a NetTap store this version can read: schema version \(version); open it read-write "
                        + "(TransactionStore(url:)) to migrate it"
            )
        }
        for index in Int(version)..<migrations.count {
            try database.transaction {
                try migrations[index](database)
                try database.execute("PRAGMA user_version = \(index + 1)")
                try database.execute("PRAGMA application_id = \(applicationID)")
            }
        }
    }
}
