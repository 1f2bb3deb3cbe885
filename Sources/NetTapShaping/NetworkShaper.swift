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
/// Bandwidth is shared: the requests that get the app-wide profile share its download and upload bandwidth, as
/// the requests of a device share its link, and so do the requests of each rule. Four downloads at once on
/// ``NetworkProfile/threeG`` together get 780 kbit/s, taking turns in pieces of at most 50 ms. Setting a profile
/// or the rules starts new links. Latency, jitter and loss apply to each request on its own.
///
/// Thread safety: every member may be used from any thread.
public final class NetworkShaper: Sendable {
    private struct State {
        var profile: NetworkProfile?
        var profileLink = SharedLink()
        var rules: [ShapingRule] = []
        var ruleLinks: [SharedLink] = []
    }

    private let state: Locked<State>

    /// Creates a shaper.
    ///
    /// - Parameters:
    ///   - profile: The profile for requests no rule matches, or `nil` (default) to leave them alone.
    ///   - rules: The rules, tried in order; the first that matches wins.
    public init(profile: NetworkProfile? = nil, rules: [ShapingRule] = []) {
        self.state = Locked(State(profile: profile, rules: rules, ruleLinks: rules.map { _ in SharedLink() }))
    }

    /// Sets the profile for every request that no rule matches (the whole app when there are no rules).
    ///
    /// - Parameter profile: The profile, or `nil` to leave those requests unshaped.
    public func setProfile(_ profile: NetworkProfile?) {
        state.withLock {
            $0.profile = profile
            $0.profileLink = SharedLink()
        }
    }

    /// Replaces the rules.
    ///
    /// - Parameter rules: The rules, tried in order; the first that matches wins.
    public func setRules(_ rules: [ShapingRule]) {
        state.withLock {
            $0.rules = rules
            $0.ruleLinks = rules.map { _ in SharedLink() }
        }
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
        shaping(for: request)?.profile
    }

    /// The profile a request gets and the link whose bandwidth it shares.
    func shaping(for request: URLRequest) -> (profile: NetworkProfile, link: SharedLink)? {
        let state = state.withLock { $0 }
        for (rule, link) in zip(state.rules, state.ruleLinks) where rule.matcher.matches(request) {
            return (rule.profile, link)
        }
        return state.profile.map { ($0, state.profileLink) }
    }
}
