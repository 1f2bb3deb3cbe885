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
/// A mock set also runs state machines (``StubState``): a stub with a state applies only while its machine is in
/// the state it requires, and answering moves the machine on; read and change them with ``state(of:)``,
/// ``setState(_:of:)`` and ``resetStates()``. Templated stubs draw `{{randomId}}` from the mock set's seeded
/// generator (``randomSeed``).
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
/// stub each get their own step, and so is a state machine's move with the match that made it: of concurrent
/// requests, one finds the machine in a state and moves it, the others see the new state.
///
/// The precedence rule in full is in the “Mocks and mock files” article of the NetTap documentation.
public final class MockSet: Sendable {
    /// The most unmatched requests ``unmatchedRequests`` keeps: 1,000; older ones are dropped first.
    public static let unmatchedRequestLimit = 1_000

    /// A stub as the set holds it: its scenario and the order it was added in.
    ///
    /// A class: matching hands entries around per request, and a reference copies with one retain where the stub's
    /// fields would take one each.
    final class Entry: Sendable {
        let stub: Stub
        let scenario: String?
        let order: Int

        init(stub: Stub, scenario: String?, order: Int) {
            self.stub = stub
            self.scenario = scenario
            self.order = order
        }
    }

    /// What one request got: the stub, where it came from, the response chosen for this hit, and the state
    /// machine step it took.
    struct Resolution: Sendable {
        /// A machine's state before and after the stub answered (the same when it did not move).
        struct Transition: Sendable, Equatable {
            var machine: String
            var from: String
            var to: String
        }

        var stubName: String
        var scenario: String?
        var response: StubResponse
        var alternative: String?
        var sequenceIndex: Int?
        var transition: Transition?
        /// The `{{randomId}}` of a templated answer that has one, drawn with the match (one lock for both).
        var randomId: String?
        /// ``templateDate`` when set, read with the match.
        var templateDate: Date?
    }

    let storage = Locked(Storage(randomSeed: UInt64.random(in: 0...UInt64.max)))

    /// Creates a mock set with no scenario active.
    ///
    /// - Parameters:
    ///   - stubs: The base stubs, always active.
    ///   - scenarios: The scenarios; activate one with ``activate(scenario:)``.
    public init(stubs: [Stub] = [], scenarios: [Scenario] = []) {
        storage.withLock { storage in
            for stub in stubs { storage.insert(stub, scenario: nil) }
            for scenario in scenarios { storage.insert(scenario) }
        }
    }

    // MARK: - Contents

    /// The base stubs, oldest first.
    public var stubs: [Stub] {
        storage.withLock { $0.base.map(\.stub) }
    }

    /// The scenarios with their stubs (oldest first), in the order they were added.
    public var scenarios: [Scenario] {
        storage.withLock { storage in
            storage.scenarioNames.map { Scenario($0, stubs: (storage.scenarioEntries[$0] ?? []).map(\.stub)) }
        }
    }

    /// The name of the active scenario, or `nil` when only the base stubs answer.
    public var activeScenario: String? {
        storage.withLock { $0.activeScenario }
    }

    /// Makes a scenario active (or none), for every request that starts from now on.
    ///
    /// - Parameter name: The scenario's name; `nil` leaves only the base stubs active.
    /// - Throws: ``MockingError/unknownScenario(_:available:)`` when no scenario has that name.
    public func activate(scenario name: String?) throws {
        try storage.withLock { storage in
            if let name, storage.scenarioEntries[name] == nil {
                throw MockingError.unknownScenario(name, available: storage.scenarioNames)
            }
            storage.activeScenario = name
        }
    }

    /// Adds a base stub (always active), replacing a base stub of the same name.
    ///
    /// - Parameter stub: The stub.
    public func add(_ stub: Stub) {
        storage.withLock { $0.insert(stub, scenario: nil) }
    }

    /// Adds a stub to a scenario, creating the scenario when needed; replaces a stub of the same name there.
    ///
    /// - Parameters:
    ///   - stub: The stub.
    ///   - scenario: The scenario's name.
    public func add(_ stub: Stub, toScenario scenario: String) {
        storage.withLock { $0.insert(stub, scenario: scenario) }
    }

    /// Adds a scenario; its stubs are added to a scenario of the same name when there is one.
    ///
    /// - Parameter scenario: The scenario.
    public func add(_ scenario: Scenario) {
        storage.withLock { $0.insert(scenario) }
    }

    /// Removes a stub.
    ///
    /// - Parameters:
    ///   - name: The stub's name.
    ///   - scenario: The scenario it is in; `nil` for a base stub.
    /// - Returns: Whether a stub was removed.
    @discardableResult
    public func removeStub(named name: String, fromScenario scenario: String? = nil) -> Bool {
        storage.withLock { $0.remove(named: name, scenario: scenario) }
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
        try storage.withLock { storage in
            let entries = storage.allEntries.filter {
                $0.stub.name == stub && (scenario == nil || $0.scenario == scenario)
            }
            guard !entries.isEmpty else {
                let names = storage.allEntries.filter { scenario == nil || $0.scenario == scenario }.map(\.stub.name)
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
            for entry in having { storage.selected[entry.order] = alternative }
        }
    }

    /// The name of a stub's active alternative.
    ///
    /// - Parameters:
    ///   - stub: The stub's name.
    ///   - scenario: The scenario it is in; `nil` looks at the base stubs, then every scenario.
    /// - Returns: The active alternative, or `nil` when there is no such stub with alternatives.
    public func activeAlternative(for stub: String, in scenario: String? = nil) -> String? {
        storage.withLock { storage in
            let entry = storage.allEntries.first {
                $0.stub.name == stub && (scenario == nil || $0.scenario == scenario)
                    && !$0.stub.alternativeNames.isEmpty
            }
            guard let entry, case .alternatives(_, let active) = entry.stub.responses else { return nil }
            return storage.selected[entry.order] ?? active
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
        storage.withLock { storage in
            storage.allEntries
                .filter { $0.stub.name == stub && (scenario == nil || $0.scenario == scenario) }
                .reduce(0) { $0 + storage.hits[$1.order, default: 0] }
        }
    }

    /// Every stub (base stubs first, then each scenario's in order) with the requests it answered since it was
    /// added or counters were reset: what a test checks for stubs never used.
    ///
    /// - Complexity: O(number of stubs).
    package var stubHits: [(stub: Stub, scenario: String?, hits: Int)] {
        storage.withLock { storage in
            storage.allEntries.map { ($0.stub, $0.scenario, storage.hits[$0.order, default: 0]) }
        }
    }

    /// Sets every hit count to zero, which also starts every sequence stub again from its first response.
    public func resetCounters() {
        storage.withLock { $0.hits = [:] }
    }

    /// The requests no stub matched, oldest first (whatever the handler's unmatched policy): the newest
    /// ``unmatchedRequestLimit`` of them.
    public var unmatchedRequests: [URLRequest] {
        storage.withLock { $0.unmatched }
    }

    /// Forgets the unmatched requests.
    public func removeUnmatchedRequests() {
        storage.withLock { $0.unmatched = [] }
    }
}
