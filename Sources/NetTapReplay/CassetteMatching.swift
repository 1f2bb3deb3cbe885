import Foundation
import NetTapCore

/// How a ``ReplayHandler`` decides that a request is the one a cassette entry recorded.
///
/// Method (case-insensitive), scheme, host (case-insensitive), port and path always count. By default the
/// query must be equal too, item by item and in order; the options relax or tighten that:
///
/// ```swift
/// let matching = CassetteMatching(
///     ignoresQueryOrder: true,           // ?a=1&b=2 matches ?b=2&a=1
///     ignoredQueryItems: ["_ts"],        // a cache buster that changes every run
///     headers: ["Accept"],               // must have the recorded value
///     body: .json                        // equal JSON, member order free
/// )
/// ```
///
/// Both requests are compared after redaction (``ReplayHandler`` redacts the incoming request with the same
/// `Redactor` that redacted the recording), so a secret replaced by the placeholder still matches. A recorded
/// query value holding `[redacted]` where the incoming one has other text also matches: the recording removed
/// a copy of a secret the response revealed (an echo), which the incoming request alone cannot know.
public struct CassetteMatching: Sendable, Hashable {
    /// How request bodies compare.
    public enum BodyComparison: String, Sendable, Hashable, CaseIterable {
        /// Bodies are not compared.
        case ignore
        /// Byte for byte (a missing body equals an empty one).
        case exact
        /// As JSON values (RFC 8259): member order and white space do not count; bodies that are not both
        /// JSON compare byte for byte.
        case json
    }

    /// Whether query items may come in any order.
    public var ignoresQueryOrder: Bool
    /// Query item names (exact, percent-decoded) left out of the comparison.
    public var ignoredQueryItems: Set<String>
    /// Header field names (case-insensitive) whose values must be equal; for repeated fields all values
    /// in order.
    public var headers: [String]
    /// How bodies compare.
    public var body: BodyComparison

    /// Method and URL, query in order; no headers, no body.
    public static let `default` = CassetteMatching()

    /// Creates matching options.
    ///
    /// - Parameters:
    ///   - ignoresQueryOrder: Whether query item order is free; `false` by default.
    ///   - ignoredQueryItems: Query item names not compared; none by default.
    ///   - headers: Header names that must match; none by default.
    ///   - body: How bodies compare; ``BodyComparison/ignore`` by default.
    public init(
        ignoresQueryOrder: Bool = false,
        ignoredQueryItems: Set<String> = [],
        headers: [String] = [],
        body: BodyComparison = .ignore
    ) {
        self.ignoresQueryOrder = ignoresQueryOrder
        self.ignoredQueryItems = ignoredQueryItems
        self.headers = headers
        self.body = body
    }

    /// Why `request` is not the recorded request, one readable reason per difference.
    ///
    /// - Parameters:
    ///   - request: The incoming request, redacted.
    ///   - recorded: The recorded request, redacted.
    /// - Returns: The reasons, for example `query page=2, recorded page=1`; empty when they match.
    /// - Complexity: O(query items + compared headers + body size).
    public func differences(between request: CapturedRequest, and recorded: CapturedRequest) -> [String] {
        differences(between: Prepared(request), and: Prepared(recorded))
    }

    /// A request with the parts matching compares already parsed, so a cassette parses each recorded URL once
    /// and each incoming URL once per request, not once per comparison.
    struct Prepared: Sendable {
        let request: CapturedRequest
        let method: String
        fileprivate let url: URLParts
        /// Method, origin and path: what every matching entry shares.
        let key: String

        init(_ request: CapturedRequest) {
            self.request = request
            method = request.method.uppercased()
            url = URLParts(request.url)
            key = method + " " + url.origin + url.path
        }
    }

    /// ``differences(between:and:)`` for prepared requests.
    func differences(between prepared: Prepared, and recordedPrepared: Prepared) -> [String] {
        let request = prepared.request
        let recorded = recordedPrepared.request
        var reasons: [String] = []
        if prepared.method != recordedPrepared.method {
            reasons.append("method \(request.method), recorded \(recorded.method)")
        }
        let mine = prepared.url
        let theirs = recordedPrepared.url
        if mine.origin != theirs.origin {
            reasons.append("origin \(mine.origin), recorded \(theirs.origin)")
        }
        if mine.path != theirs.path {
            reasons.append("path \(mine.path), recorded \(theirs.path)")
        }
        let query = queryItems(of: mine)
        let recordedQuery = queryItems(of: theirs)
        if !Self.query(query, matchesRecorded: recordedQuery, anyOrder: ignoresQueryOrder) {
            reasons.append("query \(Self.describe(query)), recorded \(Self.describe(recordedQuery))")
        }
        for name in headers {
            let values = request.headers.values(for: name)
            let recordedValues = recorded.headers.values(for: name)
            if values != recordedValues {
                reasons.append(
                    "header \(name) \(Self.describeValues(values)), recorded \(Self.describeValues(recordedValues))"
                )
            }
        }
        if let reason = bodyDifference(request.body?.data ?? Data(), recorded.body?.data ?? Data()) {
            reasons.append(reason)
        }
        return reasons
    }

    /// Whether query items (`name=value`) match the recorded ones: equal, or equal but where the recorded item
    /// holds the redaction placeholder, which stands for any text.
    private static func query(_ items: [String], matchesRecorded recorded: [String], anyOrder: Bool) -> Bool {
        guard items.count == recorded.count else { return false }
        guard items != recorded else { return true }
        guard anyOrder else {
            return zip(items, recorded).allSatisfy { item($0, matchesRecorded: $1) }
        }
        var unused = items
        for expected in recorded {
            guard let found = unused.firstIndex(where: { item($0, matchesRecorded: expected) }) else { return false }
            unused.remove(at: found)
        }
        return true
    }

    /// Whether a query item equals a recorded one in which each `[redacted]` stands for any text (the wildcard
    /// matching of `RedactionPattern`, with the placeholder as the wildcard).
    private static func item(_ item: String, matchesRecorded recorded: String) -> Bool {
        if item == recorded { return true }
        let pieces = recorded.components(separatedBy: Redactor.placeholder)
        return pieces.count > 1 && RedactionPattern.glob(pieces, matches: item)
    }

    /// A weight for how far apart two requests are, for naming the closest entry.
    static func distance(_ reasons: [String]) -> Int {
        reasons.reduce(0) { total, reason in
            if reason.hasPrefix("origin") { return total + 8 }
            if reason.hasPrefix("path") || reason.hasPrefix("method") { return total + 4 }
            if reason.hasPrefix("query") { return total + 2 }
            return total + 1
        }
    }

    private func queryItems(of parts: URLParts) -> [String] {
        let items = parts.query.filter { !ignoredQueryItems.contains($0.name) }.map { $0.name + "=" + $0.value }
        return ignoresQueryOrder ? items.sorted() : items
    }

    private func bodyDifference(_ body: Data, _ recorded: Data) -> String? {
        guard self.body != .ignore, body != recorded else { return nil }
        if self.body == .json {
            guard let value = try? JSONValue(data: body), let recordedValue = try? JSONValue(data: recorded) else {
                return "body \(body.count) bytes, recorded \(recorded.count) bytes (not both JSON; compared bytes)"
            }
            return value == recordedValue ? nil : "JSON body \(value), recorded \(recordedValue)"
        }
        return "body \(body.count) bytes, recorded \(recorded.count) bytes, bytes differ"
    }

    private static func describe(_ items: [String]) -> String {
        items.isEmpty ? "(none)" : items.joined(separator: "&")
    }

    private static func describeValues(_ values: [String]) -> String {
        values.isEmpty ? "(absent)" : values.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}

/// The parts of a URL that matching compares, normalized: lower-case scheme and host, default ports
/// spelled out, an empty path as `/`, query items percent-decoded.
private struct URLParts: Sendable {
    var origin: String
    var path: String
    var query: [(name: String, value: String)]

    init(_ url: URL) {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let scheme = (components?.scheme ?? "").lowercased()
        let host = (components?.host ?? "").lowercased()
        let defaultPort = ["http": 80, "https": 443, "ws": 80, "wss": 443][scheme]
        let port = components?.port ?? defaultPort
        origin = scheme + "://" + host + (port.map { ":\($0)" } ?? "")
        let rawPath = components?.percentEncodedPath ?? ""
        path = rawPath.isEmpty ? "/" : rawPath
        query = (components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }
    }
}
