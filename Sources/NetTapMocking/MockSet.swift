import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The stubs a ``MockHandler`` answers from: base stubs that are always active, plus named scenarios of which
/// one at a time is active, switchable while the app runs.
///
/// The active scenario's stubs come first, then the base stubs; within the first of them with a matching stub,
/// the most specific one wins (`RequestMatcher.specificity`), and a tie goes to the stub added last. Adding a
/// stub under a name already used in the same place replaces it. What a mock set keeps per request is bounded:
/// ``unmatchedRequests`` holds the newest ``unmatchedRequestLimit`` requests.
///
/// ```swift
/// let mocks = MockSet(
///     stubs: [Stub("config", matching: .path("/config"), response: .json(["theme": "dark"]))],
///     scenarios: [Scenario("server down", stubs: [Stub("all", matching: .any, response: .status(503))])]
/// )
/// interceptor.handlers = [MockHandler(mocks: mocks)]
/// try mocks.activate(scenario: "server down")          // the next request sees it
/// ```
///
/// Thread safety: every member may be used from any thread while requests are in flight; a change is seen by
/// every request that starts after it returns. Counting a hit is atomic, so concurrent requests to a sequence
/// stub each get their own step.
///
/// The precedence rule in full is in the “Mocks and mock files” article of the NetTap documentation.
public final class MockSet: Sendable {
    /// The most unmatched requests ``unmatchedRequests`` keeps: 1,000; older ones are dropped first.
    public static let unmatchedRequestLimit = 1_000

    struct Entry: Sendable {
        var stub: Stub
        var scenario: String?
        var order: Int
    }

    /// What one request got: the stub, where it came from, and the response chosen for this hit.
    struct Resolution: Sendable {
        var stub: Stub
        var scenario: String?
        var response: StubResponse
        var alternative: String?
        var sequenceIndex: Int?
    }

    private struct State {
        var base: [Entry] = []
        var scenarioNames: [String] = []
        var scenarioEntries: [String: [Entry]] = [:]
        var activeScenario: String?
        var nextOrder = 0
        var hits: [Int: Int] = [:]
        var selected: [Int: String] = [:]
        var unmatched: [URLRequest] = []

        mutating func insert(_ stub: Stub, scenario: String?) {
            let entry = Entry(stub: stub, scenario: scenario, order: nextOrder)
            nextOrder += 1
            if let scenario {
                if scenarioEntries[scenario] == nil { scenarioNames.append(scenario) }
                remove(named: stub.name, scenario: scenario)
                scenarioEntries[scenario, default: []].append(entry)
            } else {
                remove(named: stub.name, scenario: nil)
                base.append(entry)
            }
        }

        /// Removes the entries of a name from a scenario (`nil`: the base stubs), with their hit counts and
        /// selected alternatives.
        /// - Returns: Whether an entry was removed.
        @discardableResult
        mutating func remove(named name: String, scenario: String?) -> Bool {
            let layer = scenario.map { scenarioEntries[$0] ?? [] } ?? base
            let removed = layer.filter { $0.stub.name == name }
            guard !removed.isEmpty else { return false }
            if let scenario {
                scenarioEntries[scenario]?.removeAll { $0.stub.name == name }
            } else {
                base.removeAll { $0.stub.name == name }
            }
            for entry in removed {
                hits[entry.order] = nil
                selected[entry.order] = nil
            }
            return true
        }

        /// Whether an entry is still in the set (it may have been replaced or removed since it was chosen).
        func contains(_ entry: Entry) -> Bool {
            let layer = entry.scenario.map { scenarioEntries[$0] ?? [] } ?? base
            return layer.contains { $0.order == entry.order }
        }

        var activeEntries: [Entry] {
            base + (activeScenario.flatMap { scenarioEntries[$0] } ?? [])
        }

        var allEntries: [Entry] {
            base + scenarioNames.flatMap { scenarioEntries[$0] ?? [] }
        }
    }

    private let state = Locked(State())

    /// Creates a mock set with no scenario active.
    ///
    /// - Parameters:
    ///   - stubs: The base stubs, always active.
    ///   - scenarios: The scenarios; activate one with ``activate(scenario:)``.
    public init(stubs: [Stub] = [], scenarios: [Scenario] = []) {
        state.withLock { state in
            for stub in stubs { state.insert(stub, scenario: nil) }
            for scenario in scenarios {
                if state.scenarioEntries[scenario.name] == nil {
                    state.scenarioNames.append(scenario.name)
                    state.scenarioEntries[scenario.name] = []
                }
                for stub in scenario.stubs { state.insert(stub, scenario: scenario.name) }
            }
        }
    }

    // MARK: - Contents

    /// The base stubs, oldest first.
    public var stubs: [Stub] {
        state.withLock { $0.base.map(\.stub) }
    }

    /// The scenarios with their stubs (oldest first), in the order they were added.
    public var scenarios: [Scenario] {
        state.withLock { state in
            state.scenarioNames.map { Scenario($0, stubs: (state.scenarioEntries[$0] ?? []).map(\.stub)) }
        }
    }

    /// The name of the active scenario, or `nil` when only the base stubs answer.
    public var activeScenario: String? {
        state.withLock { $0.activeScenario }
    }

    /// Makes a scenario active (or none), for every request that starts from now on.
    ///
    /// - Parameter name: The scenario's name; `nil` leaves only the base stubs active.
    /// - Throws: ``MockingError/unknownScenario(_:available:)`` when no scenario has that name.
    public func activate(scenario name: String?) throws {
        try state.withLock { state in
            if let name, state.scenarioEntries[name] == nil {
                throw MockingError.unknownScenario(name, available: state.scenarioNames)
            }
            state.activeScenario = name
        }
    }

    /// Adds a base stub (always active), replacing a base stub of the same name.
    ///
    /// - Parameter stub: The stub.
    public func add(_ stub: Stub) {
        state.withLock { $0.insert(stub, scenario: nil) }
    }

    /// Adds a stub to a scenario, creating the scenario when needed; replaces a stub of the same name there.
    ///
    /// - Parameters:
    ///   - stub: The stub.
    ///   - scenario: The scenario's name.
    public func add(_ stub: Stub, toScenario scenario: String) {
        state.withLock { $0.insert(stub, scenario: scenario) }
    }

    /// Adds a scenario; its stubs are added to a scenario of the same name when there is one.
    ///
    /// - Parameter scenario: The scenario.
    public func add(_ scenario: Scenario) {
        state.withLock { state in
            if state.scenarioEntries[scenario.name] == nil {
                state.scenarioNames.append(scenario.name)
                state.scenarioEntries[scenario.name] = []
            }
            for stub in scenario.stubs { state.insert(stub, scenario: scenario.name) }
        }
    }

    /// Removes a stub.
    ///
    /// - Parameters:
    ///   - name: The stub's name.
    ///   - scenario: The scenario it is in; `nil` for a base stub.
    /// - Returns: Whether a stub was removed.
    @discardableResult
    public func removeStub(named name: String, fromScenario scenario: String? = nil) -> Bool {
        state.withLock { $0.remove(named: name, scenario: scenario) }
    }

    // MARK: - Alternatives and counters

    /// Makes an alternative the active one of a stub, for every request that starts from now on.
    ///
    /// - Parameters:
    ///   - alternative: The alternative's name.
    ///   - stub: The stub's name.
    ///   - scenario: The scenario the stub is in; `nil` selects it in every stub of that name (base stubs and
    ///     all scenarios) that has such an alternative.
    /// - Throws: ``MockingError/unknownStub(_:scenario:available:)`` when no stub has that name there,
    ///   ``MockingError/unknownAlternative(_:stub:available:)`` when none of them has the alternative.
    public func select(alternative: String, for stub: String, in scenario: String? = nil) throws {
        try state.withLock { state in
            let entries = state.allEntries.filter {
                $0.stub.name == stub && (scenario == nil || $0.scenario == scenario)
            }
            guard !entries.isEmpty else {
                let names = state.allEntries.filter { scenario == nil || $0.scenario == scenario }.map(\.stub.name)
                throw MockingError.unknownStub(stub, scenario: scenario, available: Array(Set(names)).sorted())
            }
            let having = entries.filter { $0.stub.alternativeNames.contains(alternative) }
            guard !having.isEmpty else {
                throw MockingError.unknownAlternative(
                    alternative,
                    stub: stub,
                    available: entries.flatMap(\.stub.alternativeNames)
                )
            }
            for entry in having { state.selected[entry.order] = alternative }
        }
    }

    /// The name of a stub's active alternative.
    ///
    /// - Parameters:
    ///   - stub: The stub's name.
    ///   - scenario: The scenario it is in; `nil` looks at the base stubs, then every scenario.
    /// - Returns: The active alternative, or `nil` when there is no such stub with alternatives.
    public func activeAlternative(for stub: String, in scenario: String? = nil) -> String? {
        state.withLock { state in
            let entry = state.allEntries.first {
                $0.stub.name == stub && (scenario == nil || $0.scenario == scenario)
                    && !$0.stub.alternativeNames.isEmpty
            }
            guard let entry, case .alternatives(_, let active) = entry.stub.responses else { return nil }
            return state.selected[entry.order] ?? active
        }
    }

    /// How many requests a stub answered since it was added or counters were reset.
    ///
    /// - Parameters:
    ///   - stub: The stub's name.
    ///   - scenario: The scenario it is in; `nil` adds up every stub of that name (base stubs and all
    ///     scenarios).
    /// - Returns: The number of hits.
    public func hitCount(for stub: String, in scenario: String? = nil) -> Int {
        state.withLock { state in
            state.allEntries
                .filter { $0.stub.name == stub && (scenario == nil || $0.scenario == scenario) }
                .reduce(0) { $0 + state.hits[$1.order, default: 0] }
        }
    }

    /// Every stub (base stubs first, then each scenario's in order) with the requests it answered since it was
    /// added or counters were reset: what a test checks for stubs never used.
    ///
    /// - Complexity: O(number of stubs).
    package var stubHits: [(stub: Stub, scenario: String?, hits: Int)] {
        state.withLock { state in
            state.allEntries.map { ($0.stub, $0.scenario, state.hits[$0.order, default: 0]) }
        }
    }

    /// Sets every hit count to zero, which also starts every sequence stub again from its first response.
    public func resetCounters() {
        state.withLock { $0.hits = [:] }
    }

    /// The requests no stub matched, oldest first (whatever the handler's unmatched policy): the newest
    /// ``unmatchedRequestLimit`` of them.
    public var unmatchedRequests: [URLRequest] {
        state.withLock { $0.unmatched }
    }

    /// Forgets the unmatched requests.
    public func removeUnmatchedRequests() {
        state.withLock { $0.unmatched = [] }
    }

    // MARK: - Answering

    /// Picks the answering stub for a request and counts the hit.
    ///
    /// - Complexity: O(number of active stubs) matcher evaluations, outside the lock.
    func resolve(_ request: URLRequest) -> Resolution? {
        let layers = state.withLock { state in
            [state.activeScenario.flatMap { state.scenarioEntries[$0] } ?? [], state.base]
        }
        guard let best = layers.lazy.compactMap({ Self.winner(among: $0, for: request) }).first else { return nil }
        let (hit, selected) = state.withLock { state -> (Int, String?) in
            let hit = state.hits[best.order, default: 0]
            // A stub replaced or removed while its matcher ran still answers this request (it started before
            // the change), but no counter is kept for it.
            if state.contains(best) { state.hits[best.order] = hit + 1 }
            return (hit, state.selected[best.order])
        }
        guard let chosen = best.stub.response(forHit: hit, selected: selected) else { return nil }
        return Resolution(
            stub: best.stub,
            scenario: best.scenario,
            response: chosen.response,
            alternative: chosen.alternative,
            sequenceIndex: chosen.step
        )
    }

    /// The most specific matching entry of one layer, ties to the newest; `nil` when none matches.
    private static func winner(among entries: [Entry], for request: URLRequest) -> Entry? {
        var best: Entry?
        for entry in entries where entry.stub.canAnswer && entry.stub.matcher.matches(request) {
            guard let current = best else {
                best = entry
                continue
            }
            let specificity = entry.stub.matcher.specificity
            let bestSpecificity = current.stub.matcher.specificity
            if specificity > bestSpecificity || (specificity == bestSpecificity && entry.order > current.order) {
                best = entry
            }
        }
        return best
    }

    /// Keeps an unmatched request, dropping the oldest beyond ``unmatchedRequestLimit``.
    func recordUnmatched(_ request: URLRequest) {
        state.withLock { state in
            state.unmatched.append(request)
            let excess = state.unmatched.count - Self.unmatchedRequestLimit
            if excess > 0 { state.unmatched.removeFirst(excess) }
        }
    }

    /// Explains why no stub answers a request: the request, the active scenario, and the closest stub with
    /// the reason its matcher gives; for a request a stub does answer, which stub that is.
    ///
    /// - Parameter request: The request, usually one of ``unmatchedRequests``.
    /// - Returns: One line, for example `no stub matched GET https://api.example.com/carts (…); closest: stub
    ///   "cart" [method == GET && path == /cart]: path was "/carts", expected "/cart"`, or for a request that
    ///   matches, `stub "cart" [method == GET && path == /cart] answers GET https://api.example.com/cart (…)`.
    ///   Nothing is counted: the stub's hit count (sequence position) does not change.
    /// - Complexity: O(number of active stubs) matcher evaluations.
    public func explainUnmatched(_ request: URLRequest) -> String {
        let (candidates, active, layers) = state.withLock { state in
            (
                state.activeEntries, state.activeScenario,
                [state.activeScenario.flatMap { state.scenarioEntries[$0] } ?? [], state.base]
            )
        }
        let explanation = UnmatchedExplanation(request: request, candidates: candidates, activeScenario: active)
        if let winner = layers.lazy.compactMap({ Self.winner(among: $0, for: request) }).first {
            return explanation.answered(by: winner)
        }
        return explanation.text
    }
}
