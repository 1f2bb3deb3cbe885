import Foundation

/// Which stored transactions to list, count or export: every filter that is set must match.
///
/// Results come newest first (by start time). Each filter is backed by an index, except ``pathContains``,
/// which scans the rows the other filters leave.
///
/// ```swift
/// var query = StoreQuery(host: "*.example.com", statusClass: .serverError)
/// query.since = Date().addingTimeInterval(-3600)
/// let failures = try await store.transactions(matching: query)
/// ```
public struct StoreQuery: Sendable, Hashable {
    /// A class of outcomes: the RFC 9110 §15 status classes, or no response at all.
    public enum StatusClass: String, Sendable, Hashable, CaseIterable {
        /// `1xx`: informational.
        case informational = "1xx"
        /// `2xx`: success.
        case success = "2xx"
        /// `3xx`: redirection.
        case redirection = "3xx"
        /// `4xx`: client error.
        case clientError = "4xx"
        /// `5xx`: server error.
        case serverError = "5xx"
        /// `failed`: the transaction failed or was cancelled (`CapturedTransaction.State.failed` or
        /// `CapturedTransaction.State.cancelled`).
        case failed

        /// Parses `1xx` … `5xx` or `failed` (any case).
        ///
        /// - Parameter text: The text, for example `2xx`.
        /// - Returns: The class.
        /// - Throws: ``StoreError`` `.invalidQuery` naming the text and the accepted values.
        public static func parse(_ text: String) throws(StoreError) -> StatusClass {
            guard let value = StatusClass(rawValue: text.lowercased()) else {
                throw StoreError(
                    code: .invalidQuery,
                    input: "status \"\(text)\"",
                    message: "must be one of \(allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            return value
        }
    }

    /// Transactions that started at or after this date.
    public var since: Date?
    /// Transactions that started before this date.
    public var until: Date?
    /// A host name (any case): `api.example.com` matches exactly, `*.example.com` matches its subdomains
    /// (not `example.com` itself), on any port.
    ///
    /// With a port, as `nettap stats` prints hosts on non-default ports, only that port matches:
    /// `localhost:8080`, `*.example.com:8443`, `[::1]:8080`. A URL without a port is on its scheme's default
    /// port (80 for `http` and `ws`, 443 for `https` and `wss`), so `example.com:443` matches
    /// `https://example.com/`.
    public var host: String?
    /// A request method, compared in upper case (`get` matches `GET`).
    public var method: String?
    /// The outcome's class.
    public var statusClass: StatusClass?
    /// Text the URL path contains (case-sensitive, as percent-encoded in the URL).
    public var pathContains: String?
    /// `true` for transactions with at least one `Finding`, `false` for those without.
    public var hasFinding: Bool?
    /// Who answered (`CapturedTransaction.answeredBy`), compared exactly: `network`, `passthrough`, or a handler's name
    /// such as `mock`, `cassette`, `files`, `cache`, `integrity`, `shaping` or a custom handler's name.
    ///
    /// The aliases in ``answeredByAliases`` match the name they stand for too: `stub` matches `mock` (the
    /// name stubs record), `file` matches `files`. ``TransactionStore/answeredByNames()`` lists the names a
    /// store holds.
    public var answeredBy: String?
    /// The most transactions to return, or `nil` for all.
    public var limit: Int?
    /// How many matching transactions to skip (newest first) before returning any.
    public var offset: Int

    /// Creates a query; every filter left `nil` matches everything.
    ///
    /// - Parameters:
    ///   - since: Start at or after this date.
    ///   - until: Start before this date.
    ///   - host: An exact host, or `*.domain` for its subdomains.
    ///   - method: A request method.
    ///   - statusClass: An outcome class.
    ///   - pathContains: Text the URL path contains.
    ///   - hasFinding: Whether the transaction has findings.
    ///   - answeredBy: Who answered.
    ///   - limit: The most results, or `nil` for all.
    ///   - offset: Results to skip; 0 by default.
    public init(
        since: Date? = nil,
        until: Date? = nil,
        host: String? = nil,
        method: String? = nil,
        statusClass: StatusClass? = nil,
        pathContains: String? = nil,
        hasFinding: Bool? = nil,
        answeredBy: String? = nil,
        limit: Int? = nil,
        offset: Int = 0
    ) {
        self.since = since
        self.until = until
        self.host = host
        self.method = method
        self.statusClass = statusClass
        self.pathContains = pathContains
        self.hasFinding = hasFinding
        self.answeredBy = answeredBy
        self.limit = limit
        self.offset = offset
    }

    /// Every transaction, newest first.
    public static let all = StoreQuery()

    /// Other words for the names NetTap records in `CapturedTransaction.answeredBy`: `stub` → `mock`, `file` → `files`.
    ///
    /// An ``answeredBy`` filter set to an alias matches the alias itself and the name it stands for.
    public static let answeredByAliases: [String: String] = ["stub": "mock", "file": "files"]

    /// The names an ``answeredBy`` filter of `name` matches: the name, and the name it is an alias for.
    ///
    /// - Parameter name: The filter's text, for example `stub`.
    /// - Returns: The names, for example `["stub", "mock"]`.
    public static func answeredByNames(matching name: String) -> [String] {
        [name] + (answeredByAliases[name].map { [$0] } ?? [])
    }

    /// Checks every filter without running the query.
    ///
    /// - Throws: ``StoreError`` `.invalidQuery` naming the argument, as a query would.
    public func validate() throws(StoreError) {
        _ = try whereClause()
    }

    /// The `WHERE` clause (empty or starting with ` WHERE`) and its parameter values.
    ///
    /// - Throws: ``StoreError`` `.invalidQuery` for a malformed host pattern, an empty filter text, or a negative
    ///   limit or offset.
    func whereClause() throws(StoreError) -> (sql: String, values: [Statement.Value]) {
        var conditions: [String] = []
        var values: [Statement.Value] = []
        if let since {
            conditions.append("start >= ?")
            values.append(.real(since.timeIntervalSince1970))
        }
        if let until {
            conditions.append("start < ?")
            values.append(.real(until.timeIntervalSince1970))
        }
        if let host { try Self.addHostConditions(host, to: &conditions, values: &values) }
        if let method {
            guard !method.isEmpty, !method.contains(" ") else {
                throw Self.invalid("method", method, "must be a method name such as GET")
            }
            conditions.append("method = ?")
            values.append(.text(method.uppercased()))
        }
        addStatusCondition(to: &conditions, values: &values)
        if let pathContains {
            guard !pathContains.isEmpty else { throw Self.invalid("path", pathContains, "must not be empty") }
            conditions.append("instr(path, ?) > 0")
            values.append(.text(pathContains))
        }
        switch hasFinding {
        case true?: conditions.append("finding_count > 0")
        case false?: conditions.append("finding_count = 0")
        case nil: break
        }
        if let answeredBy {
            let names = Self.answeredByNames(matching: answeredBy)
            conditions.append("answered_by IN (\(names.map { _ in "?" }.joined(separator: ", ")))")
            values += names.map { .text($0) }
        }
        try validateRange()
        let sql = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return (sql, values)
    }

    /// The conditions of a ``host`` filter: the host name or `*.` suffix, and the port when it names one (the
    /// scheme's default port counts).
    private static func addHostConditions(
        _ host: String,
        to conditions: inout [String],
        values: inout [Statement.Value]
    ) throws(StoreError) {
        let (pattern, port) = try splitPort(host)
        if pattern.hasPrefix("*.") {
            let suffix = String(pattern.dropFirst(1))
            guard suffix.count > 1, !suffix.contains("*") else {
                throw invalid("host", host, "a wildcard must look like *.example.com")
            }
            conditions.append("(length(host) > ? AND substr(host, -?) = ?)")
            values += [.integer(Int64(suffix.utf8.count)), .integer(Int64(suffix.utf8.count)), .text(suffix)]
        } else {
            guard !pattern.isEmpty, !pattern.contains("*") else {
                throw invalid("host", host, "must be a host name or *.domain (a * only as the first label)")
            }
            conditions.append("host = ?")
            values.append(.text(pattern))
        }
        if let port {
            conditions.append(
                "coalesce(port, CASE scheme WHEN 'http' THEN 80 WHEN 'ws' THEN 80 WHEN 'https' THEN 443 "
                    + "WHEN 'wss' THEN 443 END) = ?"
            )
            values.append(.integer(Int64(port)))
        }
    }

    /// The condition of the ``statusClass`` filter: a range of status codes, or the failed and cancelled states.
    private func addStatusCondition(to conditions: inout [String], values: inout [Statement.Value]) {
        switch statusClass {
        case nil: break
        case .failed: conditions.append("state IN ('failed', 'cancelled')")
        case let statusClass?:
            let first = Int64(statusClass.rawValue.prefix(1)).map { $0 * 100 } ?? 0
            conditions.append("status BETWEEN ? AND ?")
            values += [.integer(first), .integer(first + 99)]
        }
    }

    /// Checks ``limit``, ``offset`` and that ``until`` is not before ``since``.
    private func validateRange() throws(StoreError) {
        if let limit, limit < 0 { throw Self.invalid("limit", "\(limit)", "must be a whole number >= 0") }
        if offset < 0 { throw Self.invalid("offset", "\(offset)", "must be a whole number >= 0") }
        if let since, let until, until < since {
            let formatter = ISO8601DateFormatter()
            throw Self.invalid(
                "until",
                formatter.string(from: until),
                "is before since (\(formatter.string(from: since)))"
            )
        }
    }

    /// Splits `host:port` (or `[v6]:port`) into the lower-cased host pattern and the port.
    private static func splitPort(_ host: String) throws(StoreError) -> (pattern: String, port: Int?) {
        let text = host.lowercased()
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let address = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if rest.isEmpty { return (address, nil) }
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()), (1...65_535).contains(port) else {
                throw invalid("host", host, "must look like [::1] or [::1]:8080")
            }
            return (address, port)
        }
        // More than one colon without brackets is an IPv6 address on any port.
        guard let colon = text.firstIndex(of: ":"), text.lastIndex(of: ":") == colon else { return (text, nil) }
        guard let port = Int(text[text.index(after: colon)...]), (1...65_535).contains(port) else {
            throw invalid("host", host, "the port after ':' must be a number from 1 to 65535")
        }
        return (String(text[..<colon]), port)
    }

    private static func invalid(_ name: String, _ value: String, _ message: String) -> StoreError {
        StoreError(code: .invalidQuery, input: "\(name) \"\(value)\"", message: message)
    }
}
