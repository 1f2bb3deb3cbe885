import Foundation
import NetTapCore

/// A shaping rule: requests that match ``matcher`` get ``profile``.
public struct ShapingRule: Sendable {
    /// Which requests the rule applies to.
    public var matcher: RequestMatcher
    /// The network profile those requests get.
    public var profile: NetworkProfile

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - matcher: Which requests the rule applies to, for example `.host("api.example.com")`.
    ///   - profile: The network profile those requests get.
    public init(_ matcher: RequestMatcher, profile: NetworkProfile) {
        self.matcher = matcher
        self.profile = profile
    }
}
