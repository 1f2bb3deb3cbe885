import Foundation
import NetTapCore

/// The `inspector` section of `nettap.json`: start the DevTools inspector when the configuration is applied.
///
/// ```json
/// {"inspector": {"enabled": true, "address": "127.0.0.1", "port": 9229}}
/// ```
/// `enabled` (default `true`) lets a file keep the section switched off; `address` is the IPv4 address to listen on
/// (`127.0.0.1` by default; another writes a warning, see `NetTapInterceptor.startInspector(address:port:)`);
/// `port` is from 0 to 65535, 0 (the default) for a free one.
public struct InspectorSettings: Sendable, Hashable {
    /// The keys of the `inspector` object.
    public static let configurationKeys: Set<String> = ["enabled", "address", "port"]

    /// Whether applying the configuration starts the inspector.
    public var isEnabled: Bool
    /// The IPv4 address to listen on.
    public var address: String
    /// The port; 0 for a free one.
    public var port: Int

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - isEnabled: Whether the inspector starts; `true` by default.
    ///   - address: The IPv4 address; `127.0.0.1` by default.
    ///   - port: The port (0 to 65535); 0, a free one, by default.
    public init(isEnabled: Bool = true, address: String = "127.0.0.1", port: Int = 0) {
        self.isEnabled = isEnabled
        self.address = address
        self.port = port
    }

    /// Reads the `inspector` section.
    ///
    /// - Parameter node: The inspector object, `$.inspector`.
    /// - Throws: `ConfigurationError` naming the file and JSON path of an unknown key (with a did-you-mean
    ///   suggestion), an address that is not IPv4, or a port outside 0 to 65535.
    package init(configuration node: ConfigNode) throws {
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        self.init()
        if let enabled = try node.child("enabled"), enabled.value != .null { isEnabled = try enabled.boolValue() }
        if let addressNode = try node.child("address"), addressNode.value != .null {
            address = try addressNode.stringValue()
            guard ListeningSocket.isIPv4(address) else {
                throw addressNode.error("expected an IPv4 address such as 127.0.0.1, found \"\(address)\"")
            }
        }
        if let portNode = try node.child("port"), portNode.value != .null {
            port = try portNode.intValue()
            guard (0...65_535).contains(port) else {
                throw portNode.error("expected a port from 0 to 65535 (0: a free one), found \(port)")
            }
        }
    }

    /// Starts the inspector on `interceptor` when enabled.
    ///
    /// - Parameter interceptor: The interceptor whose traffic it shows.
    /// - Returns: The running inspector, or `nil` when not enabled.
    /// - Throws: ``InspectorError`` when NetTap is off or the port is in use.
    public func start(on interceptor: NetTapInterceptor) throws(InspectorError) -> DevToolsInspector? {
        guard isEnabled else { return nil }
        return try interceptor.startInspector(address: address, port: port)
    }
}

extension InspectorSettings: ConfigurationSection {
    /// `inspector`.
    package static let sectionName = "inspector"
    /// The section's keys: ``configurationKeys``.
    package static var sectionKeys: Set<String> { configurationKeys }

    /// Reads the `inspector` section.
    package static func read(section: ConfigNode, context: ConfigurationContext) throws -> InspectorSettings? {
        try InspectorSettings(configuration: section)
    }
}
