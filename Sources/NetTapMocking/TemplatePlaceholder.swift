import NetTapCore

/// What one `{{…}}` of a response template stands for, read once when the template is compiled.
///
/// The syntax is Handlebars' as WireMock users write it; the article “Mocks and mock files” lists it with examples.
enum TemplatePlaceholder: Sendable, Hashable {
    /// How `{{now}}` is written.
    enum DateFormat: String, Sendable, Hashable, CaseIterable {
        /// ISO 8601 in UTC to the second: `2025-06-01T12:00:00Z` (the default).
        case iso8601
        /// Milliseconds since 1970-01-01T00:00:00Z.
        case epoch
        /// Seconds since 1970-01-01T00:00:00Z.
        case unix
    }

    /// `request.method`: the method, uppercase.
    case method
    /// `request.url`: the whole URL as sent.
    case url
    /// `request.scheme`.
    case scheme
    /// `request.host`.
    case host
    /// `request.port`: the URL's port, or the scheme's default.
    case port
    /// `request.path`: the percent-decoded path.
    case path
    /// `request.path.N` (also `request.path.[N]`, `request.pathSegments.N`): the Nth path segment, 0-based.
    case pathSegment(Int)
    /// `request.query.NAME` (`.N` for the Nth value, 0-based): a query item's decoded value.
    case query(String, index: Int)
    /// `request.header.NAME` (also `request.headers.NAME`): a header field's value, name case-insensitive.
    case header(String)
    /// `request.body`: the body as UTF-8 text.
    case body
    /// `request.body.$.a.b` (also `jsonPath request.body '$.a.b'`): a field of a JSON body.
    case bodyField(TemplateJSONPath)
    /// `randomId`: a random UUID (lowercase), the same for every `{{randomId}}` of one answer; seeded by the mock
    /// set.
    case randomId
    /// `now`: the date of the request (``DateFormat``).
    case now(DateFormat)

    /// The placeholders' forms, for error messages.
    static let forms = [
        "request.method", "request.url", "request.scheme", "request.host", "request.port", "request.path",
        "request.path.N", "request.query.NAME", "request.header.NAME", "request.body", "request.body.$.FIELD",
        "randomId", "now",
    ]

    /// The first one or two segments of every placeholder path, for "did you mean".
    private static let heads: Set<String> = [
        "request.method", "request.url", "request.scheme", "request.host", "request.port", "request.path",
        "request.pathSegments", "request.query", "request.header", "request.headers", "request.body", "randomId", "now",
    ]

    /// Reads a placeholder path such as `request.query.id` (segments split at `.`; `[…]` holds a segment with
    /// dots, such as `request.query.[filter.id]`).
    ///
    /// - Throws: A message naming what is unknown, with a suggestion when one is close.
    init(path: String) throws(TemplatePlaceholder.Failure) {
        if path.hasPrefix("request.body.$") {
            do {
                self = .bodyField(try TemplateJSONPath(parsing: String(path.dropFirst("request.body.".count))))
            } catch {
                throw Failure(error.message)
            }
            return
        }
        let segments = try Self.segments(of: path)
        if let simple = Self.simple(segments) {
            self = simple
            return
        }
        guard segments.count >= 3, segments[0] == "request" else { throw Self.unknown(path, segments) }
        switch segments[1] {
        case "path" where segments.count == 3, "pathSegments" where segments.count == 3:
            self = .pathSegment(try Self.index(segments[2], in: path))
        case "query" where segments.count <= 4:
            self = .query(segments[2], index: segments.count == 4 ? try Self.index(segments[3], in: path) : 0)
        case "header", "headers":
            self = .header(segments.dropFirst(2).joined(separator: "."))
        default:
            throw Self.unknown(path, segments)
        }
    }

    /// The placeholders of one or two segments.
    private static func simple(_ segments: [String]) -> TemplatePlaceholder? {
        switch segments {
        case ["randomId"]: .randomId
        case ["now"]: .now(.iso8601)
        case ["request", "method"]: .method
        case ["request", "url"]: .url
        case ["request", "scheme"]: .scheme
        case ["request", "host"]: .host
        case ["request", "port"]: .port
        case ["request", "path"]: .path
        case ["request", "body"]: .body
        default: nil
        }
    }

    /// The path's segments: split at `.`, with `[…]` as one segment (brackets removed).
    private static func segments(of path: String) throws(Failure) -> [String] {
        guard !path.hasSuffix("."), !path.hasPrefix(".") else { throw Failure("empty segment in \"\(path)\"") }
        var segments: [String] = []
        var rest = Substring(path)
        while !rest.isEmpty {
            if rest.first == "[" {
                guard let close = rest.firstIndex(of: "]") else { throw Failure("missing \"]\" in \"\(path)\"") }
                segments.append(String(rest[rest.index(after: rest.startIndex)..<close]))
                rest = rest[rest.index(after: close)...]
                guard rest.isEmpty || rest.first == "." else {
                    throw Failure("expected \".\" after \"]\" in \"\(path)\"")
                }
                rest = rest.dropFirst()
            } else {
                let segment = rest.prefix { $0 != "." }
                guard !segment.isEmpty else { throw Failure("empty segment in \"\(path)\"") }
                segments.append(String(segment))
                rest = rest.dropFirst(segment.count + 1)
            }
        }
        return segments
    }

    /// A 0-based index segment.
    private static func index(_ segment: String, in path: String) throws(Failure) -> Int {
        guard let index = Int(segment), index >= 0 else {
            throw Failure("expected an index from 0 in \"\(path)\", found \"\(segment)\"")
        }
        return index
    }

    /// The error for an unknown path, with a suggestion when its head is close to a known one.
    private static func unknown(_ path: String, _ segments: [String]) -> Failure {
        for count in [2, 1] where segments.count >= count {
            let head = segments.prefix(count).joined(separator: ".")
            if let suggestion = ConfigNode.suggestion(for: head, among: heads), suggestion != head {
                let rest = segments.dropFirst(count).map { $0.contains(".") ? "[\($0)]" : $0 }
                let suggested = ([suggestion] + rest).joined(separator: ".")
                return Failure("unknown placeholder \"\(path)\"; did you mean \"\(suggested)\"?")
            }
        }
        return Failure("unknown placeholder \"\(path)\"; expected one of " + forms.joined(separator: ", "))
    }

    /// Why a placeholder cannot be read.
    struct Failure: Error {
        let message: String

        init(_ message: String) {
            self.message = message
        }
    }
}
