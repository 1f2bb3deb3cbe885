import Foundation
import NetTapCore
import NetTapShaping

extension NetTapInterceptor {
    /// Starts the inspector: this interceptor's traffic, live in Chrome DevTools' Network panel.
    ///
    /// The inspector listens on `address:port` (127.0.0.1 and a free port by default) and writes one line to
    /// standard error with the URL to open; DevTools' throttling menu and request blocking then act on this
    /// interceptor's requests. It runs until ``DevToolsInspector/stop()``, whether or not the handle is kept; while
    /// it runs, calling this again returns it. Under the same debug/release gating as NetTap: off in release builds
    /// unless NetTap is enabled there.
    ///
    /// - Parameters:
    ///   - address: The IPv4 address to listen on. Anything but a loopback address exposes the app's traffic to
    ///     the network: NetTap then writes a warning, and accepts a `Host` naming that address (any, for
    ///     `0.0.0.0`).
    ///   - port: The port; 0 for a free one.
    /// - Returns: The running inspector.
    /// - Throws: ``InspectorError`` when NetTap is off, the address is not an IPv4 address, or the port is in use.
    @discardableResult
    public func startInspector(
        address: String = "127.0.0.1",
        port: Int = 0
    ) throws(InspectorError)
        -> DevToolsInspector
    {
        let activation = gate.check()
        guard activation.isActive else {
            throw InspectorError("NetTap is off (\(activation.reason)): the inspector was not started")
        }
        let started = DevToolsInspector.running.withLock { running -> Result<DevToolsInspector, InspectorError> in
            if let inspector = running[ObjectIdentifier(self)] { return .success(inspector) }
            let made = Result { () throws(InspectorError) in try makeInspector(address: address, port: port) }
            if case .success(let inspector) = made { running[ObjectIdentifier(self)] = inspector }
            return made
        }
        return try started.get()
    }

    private func makeInspector(address: String, port: Int) throws(InspectorError) -> DevToolsInspector {
        let appShaper = handlers.lazy.compactMap { ($0 as? ShapingHandler)?.shaper }.first
        let controls = InspectorControls(appShaper: appShaper)
        let inspector = try DevToolsInspector.serve(
            captureLog,
            controls: (controls, on: self),
            title: ProcessInfo.processInfo.processName,
            address: address,
            port: port
        )
        installControls(controls)
        if !DevToolsInspector.isLoopback(address) {
            Self.writeLine(
                "NetTap inspector: listening on \(address):\(inspector.port), not a loopback address: anyone who "
                    + "can reach it can see this app's traffic and change its network conditions"
            )
        }
        Self.writeLine(
            "NetTap inspector: open \(inspector.devToolsURL) in Chrome, Edge or Brave; "
                + "switch mocks, network and capture at \(inspector.controlPageURL.absoluteString)"
        )
        return inspector
    }

    /// Puts the controls' stage first, after the audit handlers (the audit still sees what the app receives).
    private func installControls(_ controls: InspectorControls) {
        var list = handlers
        let index = list.firstIndex { $0.name != "audit" } ?? list.endIndex
        list.insert(InspectorControlHandler(controls: controls), at: index)
        handlers = list
    }

    private static func writeLine(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
