import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension MockSet {
    /// Picks the answering stub for a request, counts the hit and moves its state machine.
    ///
    /// Matchers run outside the lock (they may parse a body); the choice among the stubs that matched, the hit
    /// and the state machine's move happen together under it, so concurrent requests never both take a
    /// transition that only one may take. The base stubs are only tested when no stub of the active scenario
    /// answers.
    /// - Complexity: O(number of active stubs) matcher evaluations, outside the lock.
    func resolve(_ request: URLRequest) -> Resolution? {
        let (scenario, base) = storage.withLock { ($0.activeScenarioEntries, $0.base) }
        let scenarioMatches = Self.matching(scenario, request)
        if !scenarioMatches.isEmpty, let resolution = storage.withLock({ $0.commit(scenarioMatches, []) }) {
            return resolution
        }
        let baseMatches = Self.matching(base, request)
        guard !scenarioMatches.isEmpty || !baseMatches.isEmpty else { return nil }
        // The scenario's stubs are asked again: a state may have changed while the base stubs' matchers ran.
        return storage.withLock { $0.commit(scenarioMatches, baseMatches) }
    }

    /// The entries of a layer that can answer and whose matchers match.
    private static func matching(_ entries: [Entry], _ request: URLRequest) -> [Entry] {
        entries.filter { $0.stub.canAnswer && $0.stub.matcher.matches(request) }
    }

    /// Keeps an unmatched request, dropping the oldest beyond ``unmatchedRequestLimit``.
    func recordUnmatched(_ request: URLRequest) {
        storage.withLock { storage in
            storage.unmatched.append(request)
            let excess = storage.unmatched.count - Self.unmatchedRequestLimit
            if excess > 0 { storage.unmatched.removeFirst(excess) }
        }
    }

    /// Explains why no stub answers a request: the request, the active scenario, and the nearest miss with the
    /// reason it missed; for a request a stub does answer, which stub that is.
    ///
    /// The nearest miss is the stub whose matcher is the smallest edit distance away from the request, part by
    /// part (method, host, path, query, headers, body, GraphQL operation; a state the stub needs counts as one
    /// more part), ties going to the more specific stub, then the newest (see “Mocks and mock files”).
    /// - Parameter request: The request, usually one of ``unmatchedRequests``.
    /// - Returns: One line, for example `no stub matched GET https://api.example.com/v1/carts (…); closest: stub
    ///   "cart" [method == GET && path == /v1/cart]: path was "/v1/carts", expected "/v1/cart"`, or for a request
    ///   that matches, `stub "cart" [method == GET && path == /v1/cart] answers GET https://…/v1/cart (…)`.
    ///   Nothing is counted: no hit count (sequence position) or state changes.
    /// - Complexity: O(number of active stubs) matcher evaluations and distances.
    public func explainUnmatched(_ request: URLRequest) -> String {
        let (candidates, active, layers) = storage.withLock { ($0.activeEntries, $0.activeScenario, $0.layers) }
        let matched = layers.map { Self.matching($0, request) }
        let (winner, states) = storage.withLock { storage in
            var winner: Entry?
            for layer in matched where winner == nil { winner = storage.winner(among: layer) }
            let machines = Set(candidates.compactMap(\.stub.state?.machine))
            return (winner, Dictionary(uniqueKeysWithValues: machines.map { ($0, storage.state(of: $0)) }))
        }
        let explanation = UnmatchedExplanation(
            request: request,
            candidates: candidates,
            activeScenario: active,
            states: states
        )
        if let winner { return explanation.answered(by: winner) }
        return explanation.text
    }
}
