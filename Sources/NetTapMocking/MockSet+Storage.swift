import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension MockSet {
    /// Everything a mock set holds, behind its one lock.
    struct Storage {
        var base: [Entry] = []
        var scenarioNames: [String] = []
        var scenarioEntries: [String: [Entry]] = [:]
        var activeScenario: String?
        var nextOrder = 0
        var hits: [Int: Int] = [:]
        var selected: [Int: String] = [:]
        var unmatched: [URLRequest] = []
        /// The state machines' current states; a machine not here is in its initial state.
        var machineStates: [String: String] = [:]
        /// The states machines start in (and return to on a reset) when not ``StubState/started``.
        var initialStates: [String: String] = [:]
        /// The generator of `{{randomId}}`, and the seed it started from.
        var random: TemplateRandom
        var randomSeed: UInt64
        /// Whether the seed was set (``MockSet/randomSeed``) rather than drawn.
        var isSeedSet = false
        /// The date `{{now}}` renders, when fixed.
        var templateDate: Date?

        init(randomSeed: UInt64) {
            self.randomSeed = randomSeed
            random = TemplateRandom(seed: randomSeed)
        }

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

        /// Adds a scenario's name when new, then its stubs.
        mutating func insert(_ scenario: Scenario) {
            if scenarioEntries[scenario.name] == nil {
                scenarioNames.append(scenario.name)
                scenarioEntries[scenario.name] = []
            }
            for stub in scenario.stubs { insert(stub, scenario: scenario.name) }
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

        /// The active scenario's stubs (none when no scenario is active).
        var activeScenarioEntries: [Entry] {
            activeScenario.flatMap { scenarioEntries[$0] } ?? []
        }

        /// The layers a request is answered from, in order: the active scenario's stubs, then the base stubs.
        var layers: [[Entry]] {
            [activeScenarioEntries, base]
        }

        var activeEntries: [Entry] {
            base + activeScenarioEntries
        }

        var allEntries: [Entry] {
            base + scenarioNames.flatMap { scenarioEntries[$0] ?? [] }
        }

        // MARK: State machines

        /// A machine's current state.
        func state(of machine: String) -> String {
            machineStates[machine] ?? initialStates[machine] ?? StubState.started
        }

        /// The machines the stubs name (in every scenario) or that have a state set, by name.
        var machineNames: [String] {
            var names = Set(machineStates.keys).union(initialStates.keys)
            for entry in allEntries { if let machine = entry.stub.state?.machine { names.insert(machine) } }
            return names.sorted()
        }

        /// The states a machine's stubs require or move to, with its initial and current state.
        func knownStates(of machine: String) -> Set<String> {
            var known: Set<String> = [initialStates[machine] ?? StubState.started, state(of: machine)]
            for entry in allEntries {
                guard let stubState = entry.stub.state, stubState.machine == machine else { continue }
                if let requires = stubState.requires { known.insert(requires) }
                if let moveTo = stubState.moveTo { known.insert(moveTo) }
            }
            return known
        }

        /// Whether an entry's stub applies in the machines' current states.
        func isEligible(_ entry: Entry) -> Bool {
            guard let state = entry.stub.state, let requires = state.requires else { return true }
            return self.state(of: state.machine) == requires
        }

        /// The winner among entries whose matchers matched: eligible in the current states, the most specific,
        /// then one that needs a state, then the newest.
        func winner(among matched: [Entry]) -> Entry? {
            var best: Entry?
            for entry in matched where isEligible(entry) {
                guard let current = best else {
                    best = entry
                    continue
                }
                if Self.ranks(entry, before: current) { best = entry }
            }
            return best
        }

        private static func ranks(_ entry: Entry, before current: Entry) -> Bool {
            let specificity = entry.stub.matcher.specificity
            let currentSpecificity = current.stub.matcher.specificity
            if specificity != currentSpecificity { return specificity > currentSpecificity }
            let needsState = entry.stub.state?.requires != nil
            let currentNeedsState = current.stub.state?.requires != nil
            if needsState != currentNeedsState { return needsState }
            return entry.order > current.order
        }

        /// Picks the winner of the first layer that has one, counts its hit and moves its machine, all under the
        /// lock the caller holds, so a transition is atomic with the match that made it.
        ///
        /// - Parameters:
        ///   - scenarioMatches: The active scenario's entries whose matchers matched the request.
        ///   - baseMatches: The base entries whose matchers matched, asked when no scenario entry is eligible.
        /// - Returns: The resolution, or `nil` when no entry is eligible.
        mutating func commit(_ scenarioMatches: [Entry], _ baseMatches: [Entry]) -> Resolution? {
            guard let best = winner(among: scenarioMatches) ?? winner(among: baseMatches) else { return nil }
            let hit = hits[best.order, default: 0]
            // A stub replaced or removed while its matcher ran still answers this request (it started before
            // the change), but no counter is kept for it.
            if contains(best) { hits[best.order] = hit + 1 }
            guard let chosen = best.stub.response(forHit: hit, selected: selected[best.order]) else { return nil }
            var transition: Resolution.Transition?
            if let state = best.stub.state {
                let from = self.state(of: state.machine)
                let to = state.moveTo ?? from
                machineStates[state.machine] = to
                transition = Resolution.Transition(machine: state.machine, from: from, to: to)
            }
            let isTemplated = chosen.response.isTemplated
            return Resolution(
                stubName: best.stub.name,
                scenario: best.scenario,
                response: chosen.response,
                alternative: chosen.alternative,
                sequenceIndex: chosen.step,
                transition: transition,
                randomId: chosen.response.usesRandomId ? random.uuid() : nil,
                templateDate: isTemplated ? templateDate : nil
            )
        }
    }
}
