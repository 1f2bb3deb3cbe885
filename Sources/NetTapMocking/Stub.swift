import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A named canned answer for the requests a matcher selects.
///
/// A stub answers with one response, with one of several named alternatives (switchable at runtime through
/// ``MockSet/select(alternative:for:in:)``), or with a sequence of responses, one per hit.
///
/// ```swift
/// let profile = Stub("profile", matching: .method("GET") && .path("/me"), response: .json(["name": "Ada"]))
/// let login = Stub(
///     "login",
///     matching: .method("POST") && .path("/login"),
///     alternatives: ["ok": .json(["token": "t"]), "locked": .status(423)]
/// )
/// let poll = Stub("poll", matching: .path("/job"), sequence: [.status(202), .status(202), .json(["done": true])])
/// ```
public struct Stub: Sendable {
    /// One named response among a stub's alternatives.
    public struct Alternative: Sendable {
        /// The alternative's name, for example `locked`.
        public var name: String
        /// The response it gives.
        public var response: StubResponse

        /// Creates an alternative.
        ///
        /// - Parameters:
        ///   - name: The name, unique within the stub.
        ///   - response: The response.
        public init(_ name: String, _ response: StubResponse) {
            self.name = name
            self.response = response
        }
    }

    /// What a sequence does after its last response.
    public enum SequenceEnd: String, Sendable, Hashable, CaseIterable {
        /// The last response answers every later hit.
        case repeatLast
        /// The sequence starts again from the first response.
        case cycle
    }

    /// The responses a stub gives.
    public enum Responses: Sendable {
        /// The same response for every hit.
        case single(StubResponse)
        /// Named alternatives; the active one answers. `active` names the one active at first.
        case alternatives([Alternative], active: String)
        /// One response per hit, in order; then as `afterEnd` says.
        case sequence([StubResponse], afterEnd: SequenceEnd)
    }

    /// The stub's name, shown in the `stub` annotation and in explanations.
    public var name: String
    /// Which requests the stub answers.
    public var matcher: RequestMatcher
    /// The responses.
    public var responses: Responses
    /// The stub's place in a state machine: the state it needs and the state it moves to; `nil` when it has none.
    public var state: StubState?

    /// Creates a stub with one response.
    ///
    /// - Parameters:
    ///   - name: The name; unique within its scenario (or among the base stubs).
    ///   - matcher: Which requests it answers.
    ///   - response: The response.
    public init(_ name: String, matching matcher: RequestMatcher, response: StubResponse) {
        self.init(name, matching: matcher, responses: .single(response))
    }

    /// Creates a stub with named alternatives, one active at a time.
    ///
    /// - Parameters:
    ///   - name: The name.
    ///   - matcher: Which requests it answers.
    ///   - alternatives: The alternatives in order; a stub without any never matches.
    ///   - active: The alternative active at first; the first one when `nil` or unknown.
    public init(_ name: String, matching matcher: RequestMatcher, alternatives: [Alternative], active: String? = nil) {
        let names = alternatives.map(\.name)
        let chosen = active.flatMap { names.contains($0) ? $0 : nil } ?? names.first ?? ""
        self.init(name, matching: matcher, responses: .alternatives(alternatives, active: chosen))
    }

    /// Creates a stub with named alternatives written as a literal.
    ///
    /// - Parameters:
    ///   - name: The name.
    ///   - matcher: Which requests it answers.
    ///   - alternatives: Names and responses in order.
    ///   - active: The alternative active at first; the first one when `nil` or unknown.
    public init(
        _ name: String,
        matching matcher: RequestMatcher,
        alternatives: KeyValuePairs<String, StubResponse>,
        active: String? = nil
    ) {
        self.init(
            name,
            matching: matcher,
            alternatives: alternatives.map { Alternative($0.key, $0.value) },
            active: active
        )
    }

    /// Creates a stub that answers with one response per hit, in order.
    ///
    /// - Parameters:
    ///   - name: The name.
    ///   - matcher: Which requests it answers.
    ///   - sequence: The responses; a stub with none never matches.
    ///   - afterEnd: What happens after the last one; ``SequenceEnd/repeatLast`` by default.
    public init(
        _ name: String,
        matching matcher: RequestMatcher,
        sequence: [StubResponse],
        afterEnd: SequenceEnd = .repeatLast
    ) {
        self.init(name, matching: matcher, responses: .sequence(sequence, afterEnd: afterEnd))
    }

    /// Creates a stub from its parts.
    ///
    /// - Parameters:
    ///   - name: The name.
    ///   - matcher: Which requests it answers.
    ///   - responses: The responses.
    public init(_ name: String, matching matcher: RequestMatcher, responses: Responses) {
        self.name = name
        self.matcher = matcher
        self.responses = responses
        self.state = nil
    }

    /// The names of the alternatives, in order; empty for other stubs.
    public var alternativeNames: [String] {
        if case .alternatives(let alternatives, _) = responses { return alternatives.map(\.name) }
        return []
    }

    /// Whether the stub has a response to give at all (a stub with no alternatives or an empty sequence
    /// never matches).
    var canAnswer: Bool {
        switch responses {
        case .single: true
        case .alternatives(let alternatives, _): !alternatives.isEmpty
        case .sequence(let responses, _): !responses.isEmpty
        }
    }

    /// The response for the hit numbered `hit` (0 for the first), with the active alternative `selected`.
    func response(forHit hit: Int, selected: String?) -> (response: StubResponse, alternative: String?, step: Int?)? {
        switch responses {
        case .single(let response):
            return (response, nil, nil)
        case .alternatives(let alternatives, let active):
            let name = selected ?? active
            guard let chosen = alternatives.first(where: { $0.name == name }) ?? alternatives.first else { return nil }
            return (chosen.response, chosen.name, nil)
        case .sequence(let responses, let afterEnd):
            guard !responses.isEmpty else { return nil }
            let index = afterEnd == .cycle ? hit % responses.count : min(hit, responses.count - 1)
            return (responses[index], nil, index)
        }
    }
}
