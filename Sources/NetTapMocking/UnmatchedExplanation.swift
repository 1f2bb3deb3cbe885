import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The text that explains why no stub answered a request: the request, the active scenario, and the nearest miss
/// with the reason it missed.
///
/// The nearest miss is the stub with the smallest near-miss distance (`RequestMatcher.distance(to:)`: the weighted,
/// normalized edit distances of the parts that differ: method, host, path, query, headers, body, GraphQL
/// operation), plus, for a stub that needs a state its machine is not in, the normalized edit distance between the
/// two states; ties go to the more specific stub, then the newest.
struct UnmatchedExplanation {
    let request: URLRequest
    let candidates: [MockSet.Entry]
    let activeScenario: String?
    /// The current state of every machine the candidates name.
    let states: [String: String]

    private var target: String {
        "\((request.httpMethod ?? "GET").uppercased()) \(request.url?.absoluteString ?? "<no URL>")"
    }

    private var scenario: String {
        activeScenario.map { "scenario \"\($0)\" active" } ?? "no scenario active"
    }

    /// The line for a request that `entry`'s stub answers: nothing is unmatched.
    func answered(by entry: MockSet.Entry) -> String {
        "\(Self.name(of: entry)) [\(entry.stub.matcher.description)] answers \(target) (\(scenario)); "
            + "nothing is unmatched"
    }

    var text: String {
        let answerable = candidates.filter(\.stub.canAnswer)
        guard !answerable.isEmpty else {
            return "no stub matched \(target) (\(scenario); no stubs to match)"
        }
        let ranked = answerable.map { (entry: $0, distance: distance(of: $0)) }
        let closest = ranked.min { lhs, rhs in
            if lhs.distance != rhs.distance { return lhs.distance < rhs.distance }
            let lhsSpecificity = lhs.entry.stub.matcher.specificity
            let rhsSpecificity = rhs.entry.stub.matcher.specificity
            if lhsSpecificity != rhsSpecificity { return lhsSpecificity > rhsSpecificity }
            return lhs.entry.order > rhs.entry.order
        }
        guard let closest = closest?.entry else { return "no stub matched \(target) (\(scenario))" }
        let count = answerable.count == 1 ? "1 stub" : "\(answerable.count) stubs"
        return "no stub matched \(target) (\(scenario), \(count) tried); closest: \(Self.name(of: closest)) "
            + "[\(closest.stub.matcher.description)]: \(reason(of: closest))"
    }

    /// How far a stub is from answering: its matcher's distance plus, when it needs another state, the states'
    /// normalized edit distance (weight 1, like a header).
    private func distance(of entry: MockSet.Entry) -> Double {
        var distance = entry.stub.matcher.distance(to: request)
        if let missing = missingState(of: entry) { distance += MatchDistance.text(missing.current, missing.required) }
        return distance
    }

    /// The state a stub needs and its machine's current state, when they differ.
    private func missingState(of entry: MockSet.Entry) -> (machine: String, current: String, required: String)? {
        guard let state = entry.stub.state, let required = state.requires else { return nil }
        let current = states[state.machine] ?? StubState.started
        return current == required ? nil : (state.machine, current, required)
    }

    /// Why the stub missed: its matcher's reason, or the state it needs.
    private func reason(of entry: MockSet.Entry) -> String {
        let result = entry.stub.matcher.explain(request)
        let state = missingState(of: entry).map { missing in
            "state machine \"\(missing.machine)\" was in \"\(missing.current)\", the stub needs \"\(missing.required)\""
        }
        switch (result, state) {
        case (.missed(let reason), let state?): return "\(reason); and \(state)"
        case (.missed(let reason), nil): return reason
        case (.matched, let state?): return "matched, but \(state)"
        case (.matched, nil): return "matched"
        }
    }

    /// `stub "cart"`, with ` in scenario "…"` for a scenario's stub.
    private static func name(of entry: MockSet.Entry) -> String {
        "stub \"\(entry.stub.name)\"" + (entry.scenario.map { " in scenario \"\($0)\"" } ?? "")
    }
}
