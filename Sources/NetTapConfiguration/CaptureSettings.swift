import Foundation
import NetTapCore

/// How much the capture keeps, as the `capture` section of `nettap.json` says.
///
/// ```json
/// {"capture": {"capacity": 1000, "bodyByteLimit": "1 MiB", "enabled": true}}
/// ```
/// `capacity` (an integer ≥ 1) is how many transactions `CaptureLog` keeps before dropping the oldest
/// (`CaptureLog.capacity`, 1,000 by default). `bodyByteLimit` is the most bytes of each request and response body
/// kept in the capture (`NetTapInterceptor.bodyByteLimit`, 1 MiB by default; traffic is never truncated): a number of
/// bytes (≥ 0) or a string with a unit (`KB`, `MB`, `GB`, `KiB`, `MiB`, `GiB`). `enabled: false` starts with
/// capture paused (`CaptureLog.isCapturing`): requests go through every handler but are not recorded until it is
/// switched on (from the code, or the inspector's control page). A key left out leaves the interceptor's setting as
/// it is.
public struct CaptureSettings: Sendable, Hashable {
    /// The keys of the `capture` object.
    public static let configurationKeys: Set<String> = ["capacity", "bodyByteLimit", "enabled"]

    /// How many transactions the capture log keeps, or `nil` to leave it.
    public var capacity: Int?
    /// The most bytes of each body the capture keeps, or `nil` to leave it.
    public var bodyByteLimit: Int?
    /// Whether requests are recorded (`CaptureLog.isCapturing`), or `nil` to leave it.
    public var isEnabled: Bool?

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - capacity: Transactions kept (≥ 1), or `nil`.
    ///   - bodyByteLimit: Bytes per body (≥ 0), or `nil`.
    ///   - isEnabled: Whether requests are recorded, or `nil`.
    public init(capacity: Int? = nil, bodyByteLimit: Int? = nil, isEnabled: Bool? = nil) {
        self.capacity = capacity
        self.bodyByteLimit = bodyByteLimit
        self.isEnabled = isEnabled
    }

    /// Reads the `capture` section.
    ///
    /// - Parameter node: The capture object, for example `$.capture`.
    /// - Throws: `ConfigurationError` naming the file and JSON path of an unknown key (with a did-you-mean
    ///   suggestion), a capacity below 1, a size that is negative or has an unknown unit, or an `enabled` that is not
    ///   a boolean.
    package init(configuration node: ConfigNode) throws {
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        var capacity: Int?
        if let capacityNode = try node.child("capacity"), capacityNode.value != .null {
            let value = try capacityNode.intValue()
            guard value >= 1 else { throw capacityNode.error("expected a capacity of at least 1, found \(value)") }
            capacity = value
        }
        var isEnabled: Bool?
        if let enabledNode = try node.child("enabled"), enabledNode.value != .null {
            isEnabled = try enabledNode.boolValue()
        }
        self.init(capacity: capacity, bodyByteLimit: try node.byteCount("bodyByteLimit"), isEnabled: isEnabled)
    }

    /// Sets the interceptor's capture log capacity, body byte limit and capturing switch, where given.
    ///
    /// - Parameter interceptor: The interceptor to change.
    public func apply(to interceptor: NetTapInterceptor) {
        if let capacity { interceptor.captureLog.capacity = capacity }
        if let bodyByteLimit { interceptor.bodyByteLimit = bodyByteLimit }
        if let isEnabled { interceptor.captureLog.isCapturing = isEnabled }
    }
}

extension CaptureSettings: ConfigurationSection {
    /// `capture`.
    package static let sectionName = "capture"
    /// The section's keys: ``configurationKeys``.
    package static var sectionKeys: Set<String> { configurationKeys }

    /// Reads the `capture` section.
    package static func read(section: ConfigNode, context: ConfigurationContext) throws -> CaptureSettings? {
        try CaptureSettings(configuration: section)
    }
}
