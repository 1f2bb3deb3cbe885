import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The text that explains why no stub answered a request: the request, the active scenario, and the
/// closest stub with the reason its matcher gave.
///
/// "Closest" is a heuristic over the matcher descriptions: the stub whose description shares the most words
/// with the request's method, host, path segments and query (ties: the more specific, then the newest).
struct UnmatchedExplanation {
    let request: URLRequest
    let candidates: [MockSet.Entry]
    let activeScenario: String?

    private var target: String {
        "\((request.httpMethod ?? "GET").uppercased()) \(request.url?.absoluteString ?? "<no URL>")"
    }

    private var scenario: String {
        activeScenario.map { "scenario \"\($0)\" active" } ?? "no scenario active"
    }

    /// The line for a request that `entry`'s stub answers: nothing is unmatched.
    func answered(by entry: MockSet.Entry) -> String {
        let place = entry.scenario.map { " in scenario \"\($0)\"" } ?? ""
        return "stub \"\(entry.stub.name)\"\(place) [\(entry.stub.matcher.description)] answers \(target) "
            + "(\(scenario)); nothing is unmatched"
    }

    var text: String {
        let answerable = candidates.filter(\.stub.canAnswer)
        guard !answerable.isEmpty else {
            return "no stub matched \(target) (\(scenario); no stubs to match)"
        }
        let words = Self.words(of: request)
        let closest = answerable.max { lhs, rhs in
            let lhsScore = Self.words(in: lhs.stub.matcher.description).intersection(words).count
            let rhsScore = Self.words(in: rhs.stub.matcher.description).intersection(words).count
            if lhsScore != rhsScore { return lhsScore < rhsScore }
            if lhs.stub.matcher.specificity != rhs.stub.matcher.specificity {
                return lhs.stub.matcher.specificity < rhs.stub.matcher.specificity
            }
            return lhs.order < rhs.order
        }
        guard let closest else { return "no stub matched \(target) (\(scenario))" }
        let place = closest.scenario.map { " in scenario \"\($0)\"" } ?? ""
        let reason = closest.stub.matcher.explain(request).description
        let count = answerable.count == 1 ? "1 stub" : "\(answerable.count) stubs"
        return
            "no stub matched \(target) (\(scenario), \(count) tried); closest: stub \"\(closest.stub.name)\"\(place) "
            + "[\(closest.stub.matcher.description)]: \(reason)"
    }

    private static func words(of request: URLRequest) -> Set<String> {
        var text = request.httpMethod ?? "GET"
        if let url = request.url {
            text += " \(url.scheme ?? "") \(url.host ?? "") \(RequestMatcher.path(of: url)) \(url.query ?? "")"
        }
        return words(in: text)
    }

    private static func words(in text: String) -> Set<String> {
        Set(
            text.lowercased()
                .split { !($0.isLetter || $0.isNumber) }
                .map(String.init)
        )
    }
}
