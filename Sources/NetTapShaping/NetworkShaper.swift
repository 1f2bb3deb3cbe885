import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The network profiles in force, switchable while the app runs: rules for some requests, a profile for the rest.
///
/// ```swift
/// let shaper = NetworkShaper()
/// shaper.setProfile(.threeG)                                        // the whole app on 3G
/// shaper.setRules([ShapingRule(.host("cdn.example.com"), profile: .edge)])   // the CDN even slower
/// shaper.setProfile(nil)                                            // back to a normal network
/// ```
///
/// A change applies from the next request on; requests in flight keep the profile they started with.
///
/// Thread safety: every member may be used from any thread.
public final class NetworkShaper: Sendable {
    private struct State {
        var profile: NetworkProfile?
        var rules: [ShapingRule] = []
    }

    private let state: Locked<State>

    /// Creates a shaper.
    ///
    /// - Parameters:
    ///   - profile: The profile for requests no rule matches, or `nil` (default) to leave them alone.
    ///   - rules: The rules, tried in order; the first that matches wins.
    public init(profile: NetworkProfile? = nil, rules: [ShapingRule] = []) {
        self.state = Locked(State(profile: profile, rules: rules))
    }

    /// Sets the profile for every request that no rule matches (the whole app when there are no rules).
    ///
    /// - Parameter profile: The profile, or `nil` to leave those requests unshaped.
    public func setProfile(_ profile: NetworkProfile?) {
        state.withLock { $0.profile = profile }
    }

    /// Replaces the rules.
    ///
    /// - Parameter rules: The rules, tried in order; the first that matches wins.
    public func setRules(_ rules: [ShapingRule]) {
        state.withLock { $0.rules = rules }
    }

    /// The profile for requests no rule matches.
    public var profile: NetworkProfile? { state.withLock { $0.profile } }

    /// The rules, in the order they are tried.
    public var rules: [ShapingRule] { state.withLock { $0.rules } }

    /// The profile a request gets: that of the first matching rule, else ``profile``.
    ///
    /// - Parameter request: The request.
    /// - Returns: The profile, or `nil` when the request is not shaped.
    /// - Complexity: O(number of rules) matcher evaluations.
    public func profile(for request: URLRequest) -> NetworkProfile? {
        let (profile, rules) = state.withLock { ($0.profile, $0.rules) }
        for rule in rules where rule.matcher.matches(request) {
            return rule.profile
        }
        return profile
    }
}
