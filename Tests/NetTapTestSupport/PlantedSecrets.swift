import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A corpus of requests carrying unique planted secrets in every place NetTap redacts by default, and a scanner
/// that finds any of them in produced bytes.
///
/// Every secret is `SECRET-<run>-<label>`, where `<run>` is a fresh UUID, so nothing else a test produces can
/// contain it. The corpus (``requests(at:)``) plants them in `Authorization` (Bearer and Basic),
/// `Proxy-Authorization`, `Cookie`, `X-Api-Key` and `X-Auth-Token` headers, `token`, `access_token`,
/// `api_key` and `Password` query items, nested JSON bodies (objects, arrays of objects, `refresh_token`,
/// `client_secret`, `otp`, `session`, mixed case), a form body, and in what httpbin sends back: `/anything`
/// echoes the whole request, `/cookies/set` answers with `Set-Cookie` and a redirect, `/response-headers`
/// turns its query into response headers (`Set-Cookie`, `X-Api-Key`) and echoes them in its body.
///
/// ```swift
/// let planted = PlantedSecrets()
/// for request in planted.requests(at: server.url("/")) { _ = try await session.data(for: request) }
/// #expect(planted.findings(in: try JSONEncoder().encode(log.transactions)) == [])
/// ```
///
/// The scan (``findings(in:)``) looks for the run's UUID, so a secret cut short (a shortened URL) still counts,
/// in the spellings it takes on the way: as is, lowercased, percent-encoded (`%2D` for `-`), JSON-escaped, and
/// inside base64 (Basic credentials, JSON-encoded `Data`, HAR `content.encoding: base64`), which is decoded
/// wherever a run of base64 characters appears.
///
/// Thread safety: the value is immutable.
public struct PlantedSecrets: Sendable {
    /// The run's UUID, upper-case, as it appears in every secret.
    public let run: String

    /// Creates a corpus with a fresh run identifier.
    ///
    /// - Parameter run: The identifier; a new UUID by default.
    public init(run: UUID = UUID()) {
        self.run = run.uuidString
    }

    /// The secret planted under `label`: `SECRET-<run>-<label>`.
    ///
    /// - Parameter label: Where it is planted, for example `bearer`.
    /// - Returns: The secret.
    public func secret(_ label: String) -> String {
        "SECRET-\(run)-\(label)"
    }

    /// The labels of every secret ``requests(at:)`` plants.
    public static let labels = [
        "bearer", "x-api-key", "x-auth-token", "query-token", "query-access-token", "query-api-key",
        "query-password", "basic", "proxy-basic", "cookie-session", "cookie-theme", "json-password",
        "json-refresh-token", "json-client-secret", "json-otp", "json-session", "json-access-token", "json-api-key",
        "form-password", "form-client-secret", "form-token", "set-cookie-session", "response-set-cookie",
        "response-api-key", "several-set-cookie-1", "several-set-cookie-2", "quoted-set-cookie",
        "nameless-set-cookie",
    ]

    /// Every planted secret.
    public var secrets: [String] { Self.labels.map(secret) }

    /// The user name and password of the planted Basic credentials, as `user:password`.
    public var basicCredentials: String { "ann:" + secret("basic") }

    /// The corpus: one request per kind of place, against an httpbin server.
    ///
    /// Each request carries `X-Test-ID: planted-secrets-N` (N from 0), which holds no secret.
    ///
    /// - Parameter base: The server's base URL, for example `http://127.0.0.1:8765/`.
    /// - Returns: The requests, in order: headers and query (`/anything/bearer`), Basic credentials and cookies
    ///   (`/anything/basic`), a JSON body (`/anything/json`), a form body (`/anything/form`), a cookie set by
    ///   the server behind a redirect (`/cookies/set`), response headers chosen by the query
    ///   (`/response-headers`), a response with several `Set-Cookie` fields, then their values again in a later
    ///   request's query (`/anything/track`) and in a redirect's `Location` (`/redirect-to`), then a quoted and a
    ///   nameless `Set-Cookie` whose values a later request's query carries (`/anything/again`).
    public func requests(at base: URL) -> [URLRequest] {
        var requests: [URLRequest] = []
        func add(_ path: String, query: String? = nil, method: String = "GET", headers: [String: String] = [:]) {
            var components = URLComponents(url: base, resolvingAgainstBaseURL: false) ?? URLComponents()
            components.path = path
            components.percentEncodedQuery = query
            var request = URLRequest(url: components.url ?? base)
            request.httpMethod = method
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            request.setValue("planted-secrets-\(requests.count)", forHTTPHeaderField: "X-Test-ID")
            requests.append(request)
        }
        add(
            "/anything/bearer",
            query: "page=1&token=\(secret("query-token"))&access_token=\(secret("query-access-token"))"
                + "&api_key=\(secret("query-api-key"))&Password=\(secret("query-password"))",
            headers: [
                "Authorization": "Bearer " + secret("bearer"), "X-Api-Key": secret("x-api-key"),
                "X-Auth-Token": secret("x-auth-token"),
            ]
        )
        add(
            "/anything/basic",
            headers: [
                "Authorization": "Basic " + Data(basicCredentials.utf8).base64EncodedString(),
                "Proxy-Authorization": "Basic " + Data("proxy:\(secret("proxy-basic"))".utf8).base64EncodedString(),
                "Cookie": "session=\(secret("cookie-session")); theme=\(secret("cookie-theme"))",
            ]
        )
        add("/anything/json", method: "POST", headers: ["Content-Type": "application/json"])
        requests[requests.count - 1].httpBody = Data(
            """
            {"user": {"name": "ann", "password": "\(secret("json-password"))",
                      "profile": {"refresh_token": "\(secret("json-refresh-token"))"}},
             "items": [{"client_secret": "\(secret("json-client-secret"))"}, {"id": 2, "otp": "\(secret("json-otp"))"}],
             "session": "\(secret("json-session"))", "Access_Token": "\(secret("json-access-token"))",
             "nested": {"deeper": [[{"api_key": "\(secret("json-api-key"))"}]]}, "count": 3}
            """.utf8
        )
        add("/anything/form", method: "POST", headers: ["Content-Type": "application/x-www-form-urlencoded"])
        requests[requests.count - 1].httpBody = Data(
            ("user=ann&password=\(secret("form-password"))&client_secret=\(secret("form-client-secret"))"
                + "&token=\(secret("form-token"))&keep=1").utf8
        )
        add("/cookies/set", query: "session=\(secret("set-cookie-session"))")
        add(
            "/response-headers",
            query: "Set-Cookie=sid%3D\(secret("response-set-cookie"))%3B%20Path%3D%2F"
                + "&X-Api-Key=\(secret("response-api-key"))"
        )
        // Several Set-Cookie fields in one response, whose values later requests carry under names no rule
        // covers: in a query item, and in a redirect's Location (and so in the URL it leads to).
        add(
            "/response-headers",
            query: "Set-Cookie=uid%3D\(secret("several-set-cookie-1"))%3B%20HttpOnly"
                + "&Set-Cookie=pref%3D\(secret("several-set-cookie-2"))%3B%20Secure"
        )
        add("/anything/track", query: "visit=\(secret("several-set-cookie-1"))&page=2")
        add("/redirect-to", query: "url=%2Fanything%2Fnext%3Fv%3D\(secret("several-set-cookie-2"))")
        // A quoted cookie value and a cookie without a name (RFC 6265 §4.1.1, §5.2), whose values a later request
        // carries unquoted; no session here stores cookies.
        add(
            "/response-headers",
            query: "Set-Cookie=qsid%3D%22\(secret("quoted-set-cookie"))%22%3B%20Path%3D%2F"
                + "&Set-Cookie=\(secret("nameless-set-cookie"))%3B%20Path%3D%2F"
        )
        add(
            "/anything/again",
            query: "q=\(secret("quoted-set-cookie"))&n=\(secret("nameless-set-cookie"))"
        )
        return requests
    }

    /// Every planted secret found in `bytes`, in any of the spellings the type's discussion lists, also inside
    /// base64 runs.
    ///
    /// - Parameter bytes: Produced output: a file, a capture encoded as JSON, printed text.
    /// - Returns: One description per find, `SECRET-…-bearer (percent-encoded) at byte 1234` or
    ///   `… in base64 at byte 99`; empty when none of them is there.
    /// - Complexity: O(bytes × spellings).
    public func findings(in bytes: Data) -> [String] {
        var found = scan(bytes, context: "")
        for (offset, decoded) in Self.base64Runs(in: bytes) {
            found += scan(decoded, context: " in base64 at byte \(offset)")
        }
        return found
    }

    /// ``findings(in:)`` for text.
    ///
    /// - Parameter text: Printed output.
    /// - Returns: As ``findings(in:)``.
    public func findings(in text: String) -> [String] {
        findings(in: Data(text.utf8))
    }

    private func scan(_ bytes: Data, context: String) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        var found: [String] = []
        let spellings = [
            ("", run), (" (lowercased)", run.lowercased()),
            (" (percent-encoded)", run.replacingOccurrences(of: "-", with: "%2D")),
            (" (percent-encoded)", run.lowercased().replacingOccurrences(of: "-", with: "%2d")),
            (" (JSON-escaped)", run.replacingOccurrences(of: "-", with: "\\u002d")),
        ]
        for (spelling, needle) in spellings {
            var searchRange = text.startIndex..<text.endIndex
            while let range = text.range(of: needle, range: searchRange) {
                let offset = text.utf8.distance(from: text.startIndex, to: range.lowerBound)
                let label = text[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
                found.append("SECRET-…\(label)\(spelling)\(context.isEmpty ? " at byte \(offset)" : context)")
                searchRange = range.upperBound..<text.endIndex
            }
        }
        return found
    }

    /// Maximal runs of at least 12 base64 characters (`\/` read as `/`, as JSON may escape it), decoded.
    private static func base64Runs(in bytes: Data) -> [(offset: Int, decoded: Data)] {
        let text = Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\\/", with: "/").utf8)
        func isBase64(_ byte: UInt8) -> Bool {
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
        }
        var runs: [(Int, Data)] = []
        var index = 0
        while index < text.count {
            guard isBase64(text[index]) else {
                index += 1
                continue
            }
            let start = index
            while index < text.count, isBase64(text[index]) { index += 1 }
            guard index - start >= 12 else { continue }
            var run = String(decoding: text[start..<index], as: UTF8.self)
            run = String(run.prefix { $0 != "=" })
            // Any alignment: a run may start inside a longer token.
            for shift in 0..<4 where run.count - shift >= 12 {
                var candidate = String(run.dropFirst(shift))
                candidate = String(candidate.prefix(candidate.count - candidate.count % 4))
                if let decoded = Data(base64Encoded: candidate) { runs.append((start + shift, decoded)) }
            }
        }
        return runs
    }
}
