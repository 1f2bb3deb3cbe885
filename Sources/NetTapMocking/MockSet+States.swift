import Foundation
import NetTapCore

extension MockSet {
    /// Every state machine the stubs name (in the base stubs and every scenario), with its current state.
    ///
    /// A machine starts in ``StubState/started`` unless the configuration's `states` gives another state.
    public var states: [String: String] {
        storage.withLock { storage in
            Dictionary(uniqueKeysWithValues: storage.machineNames.map { ($0, storage.state(of: $0)) })
        }
    }

    /// A state machine's current state.
    ///
    /// - Parameter machine: The machine's name.
    /// - Returns: Its state: ``StubState/started`` (or its configured initial state) until a stub moves it or
    ///   ``setState(_:of:)`` sets it; the same for a name no stub uses.
    public func state(of machine: String) -> String {
        storage.withLock { $0.state(of: machine) }
    }

    /// Puts a state machine in a state, for every request that starts from now on.
    ///
    /// - Parameters:
    ///   - state: The state; stubs that require it apply from now on. Any text, except a near miss of a state the
    ///     machine's stubs know (a typo).
    ///   - machine: The machine's name.
    /// - Throws: ``MockingError/unknownStateMachine(_:available:)`` when no stub names the machine;
    ///   ``MockingError/unknownState(_:machine:available:)`` when no stub of the machine requires or moves to
    ///   `state` and it is a near miss of a state one does (as a mocks file's `requires` is checked).
    public func setState(_ state: String, of machine: String) throws {
        try storage.withLock { storage in
            let names = storage.machineNames
            guard names.contains(machine) else {
                throw MockingError.unknownStateMachine(machine, available: names)
            }
            let known = storage.knownStates(of: machine)
            if !known.contains(state), ConfigNode.suggestion(for: state, among: known) != nil {
                throw MockingError.unknownState(state, machine: machine, available: known.sorted())
            }
            storage.machineStates[machine] = state
        }
    }

    /// Puts every state machine back in its initial state (``StubState/started`` unless configured otherwise).
    ///
    /// `withNetTap` needs no reset: each test gets a mock set of its own, its machines in their initial states.
    public func resetStates() {
        storage.withLock { $0.machineStates = [:] }
    }

    /// The states machines start in and return to on ``resetStates()``, where not ``StubState/started``; setting
    /// it also puts those machines in them now.
    public var initialStates: [String: String] {
        get { storage.withLock { $0.initialStates } }
        set {
            storage.withLock { storage in
                storage.initialStates = newValue
                for machine in newValue.keys { storage.machineStates[machine] = nil }
            }
        }
    }

    // MARK: - Templates

    /// The seed of the generator behind `{{randomId}}`: a random one at first; setting it starts the sequence
    /// again, so the same seed gives the same ids in the same order (for repeatable tests).
    public var randomSeed: UInt64 {
        get { storage.withLock { $0.randomSeed } }
        set {
            storage.withLock { storage in
                storage.randomSeed = newValue
                storage.isSeedSet = true
                storage.random = TemplateRandom(seed: newValue)
            }
        }
    }

    /// The date `{{now}}` renders; `nil` (the default) for each request's start.
    public var templateDate: Date? {
        get { storage.withLock { $0.templateDate } }
        set { storage.withLock { $0.templateDate = newValue } }
    }

    /// What a templated answer draws on: the id and date its resolution took under the lock, with the match.
    static func templateEnvironment(_ resolution: Resolution, startDate: Date) -> TemplateEnvironment {
        TemplateEnvironment(randomId: resolution.randomId ?? "", now: resolution.templateDate ?? startDate)
    }
}
