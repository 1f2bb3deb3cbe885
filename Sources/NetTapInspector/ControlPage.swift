import Foundation
import NetTapCore

/// The inspector's control page at `/`: the running app's mock scenarios, stub alternatives, network profile and
/// rules, host scope and capture switch, changed from a browser for the next request, with the live request count
/// and the DevTools link.
///
/// Routes: `GET /` (the page, ``ControlPageDocument``), `GET /control/state` (``ControlState`` as JSON), and
/// `POST /control/ACTION?…` (``ControlAction``; answered with the new state, or 400 and `{"error": …}`).
///
/// Besides the server's `Host` rule (loopback only, against DNS rebinding), every `/control/` request must carry
/// the page's per-run token in `X-NetTap-Token` (a page of another site cannot read it, and cannot send that field
/// without a CORS preflight this server never grants) and, when it has an `Origin`, come from the page's own
/// origin. The page is never framed (`frame-ancestors 'none'`).
///
/// Thread safety: every member may be used from any thread; requests are answered on the server's queue.
final class ControlPage: InspectorPage {
    /// The header field carrying the token.
    static let tokenField = "X-NetTap-Token"

    private let token: String
    private let title: String
    private let targetID: String
    private let traffic: any InspectedTraffic
    private let app: ControlledApp?

    /// A page for `app` (`nil`: recorded traffic, only shown) whose DevTools link names `targetID`.
    init(title: String, targetID: String, traffic: any InspectedTraffic, app: ControlledApp?, token: String) {
        self.title = title
        self.targetID = targetID
        self.traffic = traffic
        self.app = app
        self.token = token
    }

    func reply(to head: HTTPRequestHead, server: InspectorServer) -> InspectorReply? {
        if head.path == "/" {
            guard head.method == "GET" || head.method == "HEAD" else { return Self.text(405, "GET only") }
            return .response(
                status: 200,
                contentType: "text/html; charset=utf-8",
                body: Array(ControlPageDocument.html(title: title, token: token).utf8),
                fields: ControlPageDocument.securityFields
            )
        }
        guard head.path.hasPrefix("/control/") else { return nil }
        if let refusal = refusal(of: head) { return Self.text(403, refusal) }
        let action = String(head.path.dropFirst("/control/".count))
        if action == "state" {
            guard head.method == "GET" || head.method == "HEAD" else { return Self.text(405, "GET only") }
            return json(200, state(on: server))
        }
        guard head.method == "POST" else { return Self.text(405, "POST only") }
        return change(action, query: head.query, server: server)
    }

    private func change(_ name: String, query: String?, server: InspectorServer) -> InspectorReply {
        do throws(InspectorError) {
            guard let action = try ControlAction(action: name, query: query) else {
                return Self.text(404, "no control action \"\(name)\"")
            }
            guard let app else { return Self.error(409, "recorded traffic: there is no running app to change") }
            try action.apply(to: app)
            return json(200, state(on: server))
        } catch {
            return Self.error(400, "\(name): \(error.description)")
        }
    }

    /// Why a `/control/` request is refused: no or a wrong token, or another origin.
    private func refusal(of head: HTTPRequestHead) -> String? {
        let tokens = head.fields.values(for: Self.tokenField)
        guard tokens.count == 1, let sent = tokens.first, Self.equalInConstantTime(sent, token) else {
            return "the control page's token is missing or wrong (\(Self.tokenField)); reload the page"
        }
        let origins = head.fields.values(for: "Origin")
        guard let origin = origins.first else { return nil }
        guard origins.count == 1, let authority = head.authority,
            origin.lowercased() == "http://\(authority.lowercased())"
        else { return "changes are accepted from the control page's own origin only, not from \(origin)" }
        return nil
    }

    private func state(on server: InspectorServer) -> ControlState {
        let devToolsURL = DevToolsEndpoint.frontendURL(targetID: targetID, on: server)
        let discovery = DevToolsInspector.authority(server.address, server.port)
        guard let app else {
            return ControlState(recorded: traffic, title: title, devToolsURL: devToolsURL, discoveryAddress: discovery)
        }
        return ControlState(app: app, title: title, devToolsURL: devToolsURL, discoveryAddress: discovery)
    }

    private func json(_ status: Int, _ state: ControlState) -> InspectorReply {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(state) else { return Self.error(500, "the state could not be encoded") }
        return .response(status: status, contentType: "application/json; charset=utf-8", body: Array(data))
    }

    private static func error(_ status: Int, _ message: String) -> InspectorReply {
        let body = DevToolsEndpoint.encode(["error": message])
        return .response(status: status, contentType: "application/json; charset=utf-8", body: Array(body.utf8))
    }

    private static func text(_ status: Int, _ message: String) -> InspectorReply {
        .response(status: status, contentType: "text/plain; charset=utf-8", body: Array((message + "\n").utf8))
    }

    private static func equalInConstantTime(_ lhs: String, _ rhs: String) -> Bool {
        let (left, right) = (Array(lhs.utf8), Array(rhs.utf8))
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
