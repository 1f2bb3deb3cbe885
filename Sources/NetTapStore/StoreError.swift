import Foundation

/// A failure of the transaction store, naming the file (or the query argument) and saying what is wrong.
///
/// The ``description`` is one line such as
/// `captures.sqlite: not a NetTap store: file is not a database (SQLite code 26)` or
/// `captures.sqlite: schema version 3 is newer than this NetTap supports (1); update NetTap to read it`.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure, as an extensible set of static members.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, for example `notAStore`.
        public var rawValue: String

        /// Creates a code.
        ///
        /// - Parameter rawValue: The code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The file does not exist (opening an existing store).
        public static let missingFile = Code(rawValue: "missingFile")
        /// The file cannot be created, opened or given its permissions.
        public static let cannotOpen = Code(rawValue: "cannotOpen")
        /// The file is not an SQLite database, or a database some other program made.
        public static let notAStore = Code(rawValue: "notAStore")
        /// SQLite reports the file as damaged (`SQLITE_CORRUPT`).
        public static let corrupt = Code(rawValue: "corrupt")
        /// The store was written by a newer NetTap with a schema this one cannot read.
        public static let newerSchema = Code(rawValue: "newerSchema")
        /// A query argument is malformed (a status class, a host pattern, a limit).
        public static let invalidQuery = Code(rawValue: "invalidQuery")
        /// A stored transaction record cannot be decoded.
        public static let invalidRecord = Code(rawValue: "invalidRecord")
        /// The store was closed.
        public static let closed = Code(rawValue: "closed")
        /// Any other SQLite failure (disk full, I/O error, a busy lock).
        public static let sqlite = Code(rawValue: "sqlite")

        /// The code's name.
        public var description: String { rawValue }
    }

    /// What kind of failure.
    public var code: Code
    /// The store's file path, or `nil` when the failure is not about a file (a query argument).
    public var file: String?
    /// The input at fault besides the file: a query argument such as `status "7xx"`, or the SQL that failed.
    public var input: String?
    /// What went wrong, in one line.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What kind of failure.
    ///   - file: The store's path, if the failure concerns it.
    ///   - input: The argument or SQL at fault, if any.
    ///   - message: One line saying what went wrong.
    public init(code: Code, file: String? = nil, input: String? = nil, message: String) {
        self.code = code
        self.file = file
        self.input = input
        self.message = message
    }

    /// `FILE: INPUT: message`, leaving out the parts that are `nil`.
    public var description: String {
        ([file, input].compactMap { $0 } + [message]).joined(separator: ": ")
    }

    /// Any error of the store's work as a ``StoreError``.
    ///
    /// SQLite's are mapped by ``sqlite(_:file:)``, a `StoreError` stays as it is, anything else gets `code`.
    static func wrapping(_ error: any Error, file: String, code: Code) -> StoreError {
        if let error = error as? SQLiteError { return sqlite(error, file: file) }
        if let error = error as? StoreError { return error }
        return StoreError(code: code, file: file, message: "\(error)")
    }

    /// Maps an SQLite failure on `file` to a store error.
    static func sqlite(_ error: SQLiteError, file: String) -> StoreError {
        switch error.primaryCode {
        case 26:  // SQLITE_NOTADB
            StoreError(code: .notAStore, file: file, message: "not a NetTap store: \(error.message)")
        case 11:  // SQLITE_CORRUPT
            StoreError(code: .corrupt, file: file, message: "the database is damaged: \(error.message)")
        case 14:  // SQLITE_CANTOPEN
            StoreError(code: .cannotOpen, file: file, message: "cannot open: \(error.message)")
        default:
            StoreError(
                code: .sqlite,
                file: file,
                input: error.sql,
                message: "\(error.message) (SQLite code \(error.code))"
            )
        }
    }
}

extension StoreError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
