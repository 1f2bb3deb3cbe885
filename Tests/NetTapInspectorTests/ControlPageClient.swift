import Foundation
import NetTapInspector
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Talks to an inspector's control page as its own script does, over a plain URLSession (not intercepted): reads
/// the page's token, then sends `/control/` requests with it.
struct ControlPageClient {
    let base: URL
    let token: String
    private let session = URLSession(configuration: .ephemeral)

    /// A raw answer: status, header fields and body.
    struct Answer {
        var status: Int
        var fields: [AnyHashable: Any]
        var body: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Loads the page and takes its token.
    init(_ inspector: DevToolsInspector) async throws {
        base = inspector.controlPageURL
        let page = try await Self.send(URLRequest(url: base), URLSession(configuration: .ephemeral))
        let html = page.text
        let marker = #"<meta name="nettap-token" content=""#
        let start = try #require(html.range(of: marker), "no token in the page: \(html.prefix(300))")
        token = String(html[start.upperBound...].prefix { $0 != "\"" })
    }

    /// The page itself.
    func page() async throws -> Answer {
        try await Self.send(URLRequest(url: base), session)
    }

    /// `GET /control/state`.
    func state() async throws -> [String: Any] {
        let answer = try await send("GET", "state")
        #expect(answer.status == 200, "\(answer.text)")
        return answer.json
    }

    /// `POST /control/ACTION?query`, with the token unless `token` says otherwise.
    func post(
        _ action: String,
        _ items: [String: String] = [:],
        token: String? = nil,
        fields: [String: String] = [:]
    ) async throws -> Answer {
        try await send("POST", action, items, token: token, fields: fields)
    }

    func send(
        _ method: String,
        _ action: String,
        _ items: [String: String] = [:],
        token: String? = nil,
        fields: [String: String] = [:]
    ) async throws -> Answer {
        var components = try #require(URLComponents(url: base, resolvingAgainstBaseURL: false))
        components.path = "/control/\(action)"
        if !items.isEmpty { components.queryItems = items.sorted { $0.key < $1.key }.map(URLQueryItem.init) }
        var request = URLRequest(url: try #require(components.url))
        request.httpMethod = method
        request.setValue(token ?? self.token, forHTTPHeaderField: "X-NetTap-Token")
        for (name, value) in fields { request.setValue(value, forHTTPHeaderField: name) }
        return try await Self.send(request, session)
    }

    private static func send(_ request: URLRequest, _ session: URLSession) async throws -> Answer {
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return Answer(status: http.statusCode, fields: http.allHeaderFields, body: data)
    }
}
