import Foundation
import NetTapCore
import NetTapShaping

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A running inspector: the app's traffic live in the Network panel of Chrome DevTools (Chrome, Edge, Brave or
/// any Chromium), started with `NetTapInterceptor.startInspector(address:port:)`.
///
/// Open ``devToolsURL`` in the browser, or add `127.0.0.1:PORT` under `chrome://inspect` → "Discover network
/// targets" and the app appears there as a Node process does. DevTools' throttling menu and request blocking act
/// on the app's requests until ``stop()``. ``controlPageURL`` is a page for any browser that switches the app's mock
/// scenarios, stub alternatives, network profile, host scope and capture, each for the next request.
///
/// Thread safety: every member may be used from any thread.
public final class DevToolsInspector: Sendable {
    /// The address the inspector listens on, `127.0.0.1` unless the app chose another.
    public let address: String
    /// The port it listens on.
    public let port: Int
    private let server: InspectorServer
    private let endpoint: DevToolsEndpoint
    private let domain: NetworkDomain
    private let interceptor: NetTapInterceptor?
    private let controls: InspectorControls?
    private let stopped = Locked(false)

    private init(
        server: InspectorServer,
        endpoint: DevToolsEndpoint,
        domain: NetworkDomain,
        interceptor: NetTapInterceptor?,
        controls: InspectorControls?
    ) {
        self.server = server
        self.endpoint = endpoint
        self.domain = domain
        self.interceptor = interceptor
        self.controls = controls
        self.address = server.address
        self.port = server.port
    }

    /// The URL to open in Chrome, Edge or Brave: `devtools://devtools/bundled/js_app.html?ws=127.0.0.1:PORT/…`.
    public var devToolsURL: String { endpoint.frontendURL(on: server) }

    /// The control page: `http://127.0.0.1:PORT/`, where the app's mock scenarios, stub alternatives, network
    /// profile and rules, host scope and capture are switched from a browser (for recorded traffic it shows the
    /// count and the DevTools link).
    public var controlPageURL: URL {
        URL(string: "http://\(Self.authority(address, port))/") ?? URL(fileURLWithPath: "/")
    }

    /// The discovery list `chrome://inspect` reads: `http://127.0.0.1:PORT/json/list`.
    public var discoveryURL: URL {
        URL(string: "http://\(Self.authority(address, port))/json/list") ?? URL(fileURLWithPath: "/")
    }

    /// How many DevTools clients were dropped for falling behind the app's traffic (their events are never allowed
    /// to delay a request).
    public var droppedClientCount: Int { server.droppedClientCount }

    /// Stops listening and closes every DevTools connection.
    ///
    /// DevTools' throttling and blocking come off the app's requests (an app's own network profile is put back).
    /// Calling it again does nothing.
    public func stop() {
        let first = stopped.withLock { wasStopped in
            defer { wasStopped = true }
            return !wasStopped
        }
        guard first else { return }
        server.stop()
        domain.detach()
        guard let interceptor, let controls else { return }
        Self.running.withLock { running in
            if running[ObjectIdentifier(interceptor)] === self { running[ObjectIdentifier(interceptor)] = nil }
        }
        interceptor.handlers.removeAll { ($0 as? InspectorControlHandler)?.controls === controls }
        controls.restore()
    }

    /// Serves `traffic` to DevTools on `address:port`, its throttling and blocking commands acting on `controls`.
    ///
    /// - Parameters:
    ///   - traffic: What the Network panel shows.
    ///   - controls: What DevTools' controls set, with the interceptor they act on; `nil` for recorded traffic.
    ///   - title: The target's title in `chrome://inspect`.
    ///   - address: The IPv4 address to listen on; any host is then accepted in `Host` for `0.0.0.0`, that
    ///     address for another that is not loopback.
    ///   - port: The port; 0 for a free one.
    /// - Returns: The running inspector.
    /// - Throws: ``InspectorError`` naming the address and port when it cannot listen.
    package static func serve(
        _ traffic: any InspectedTraffic,
        controls: (InspectorControls, on: NetTapInterceptor)?,
        title: String,
        address: String,
        port: Int
    ) throws(InspectorError) -> DevToolsInspector {
        let domain = NetworkDomain(traffic: traffic, controls: controls?.0)
        let targetID = DevToolsEndpoint.randomID()
        let page = ControlPage(
            title: title,
            targetID: targetID,
            traffic: traffic,
            app: controls.map { ControlledApp(interceptor: $0.on, controls: $0.0) },
            token: DevToolsEndpoint.randomID()
        )
        let endpoint = DevToolsEndpoint(
            title: title,
            description: controls == nil
                ? "NetTap: recorded traffic (\(title))" : "NetTap: the app's URLSession traffic",
            targetID: targetID,
            handler: { method, params, client in domain.answer(method, params: params, client: client) },
            followUp: { method, client, server in
                if method == "Network.enable" { domain.enable(client, on: server) }
            },
            disconnected: { client in domain.disconnected(client) },
            page: page
        )
        let isLoopback = InspectorRequestPolicy.isLoopback(authority: address)
        let policy = InspectorRequestPolicy(
            allowedHosts: isLoopback ? [] : [address == "0.0.0.0" ? "*" : address.lowercased()]
        )
        let server = try InspectorServer(address: address, port: port, policy: policy, endpoint: endpoint)
        domain.attach(to: server)
        return DevToolsInspector(
            server: server,
            endpoint: endpoint,
            domain: domain,
            interceptor: controls?.on,
            controls: controls?.0
        )
    }

    /// Whether `address` is a loopback address.
    package static func isLoopback(_ address: String) -> Bool {
        InspectorRequestPolicy.isLoopback(authority: address)
    }

    /// The running inspector of each interceptor: it runs until stopped, whether or not the app keeps the handle.
    static let running = Locked<[ObjectIdentifier: DevToolsInspector]>([:])

    package static func authority(_ address: String, _ port: Int) -> String {
        address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
    }
}
