import Foundation
import NetTapCore
import NetTapHAR

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The replayable entries of a loaded cassette (responses, and recorded network failures), found by request, each
/// played once in recorded order.
///
/// After that the last matching one repeats, or, with repeats off, none does. Counts how often each entry
/// played.
///
/// Thread safety: every member may be used from any thread.
final class CassetteIndex: Sendable {
    struct Recorded: Sendable {
        /// The entry's position in `log.entries`.
        var index: Int
        var entry: HAREntry
        /// The entry's request, redacted.
        var request: CapturedRequest
        /// The same request, parsed for matching.
        var prepared: CassetteMatching.Prepared
        /// The replayed response's head, built once (its body is replaced on every replay).
        var head: HandlerResponse
        /// The replayed response's decoded body.
        var body: Data
        /// The network failure a status-0 entry recorded, replayed instead of a response; `nil` for a response.
        var failure: URLError.Code?
        /// The message the recording kept with its failure (`_netTap.error.message`), if any.
        var failureMessage: String?

        /// The response to answer with, for a request to `url`.
        func response(url: URL) -> HandlerResponse {
            var response = head
            response.url = url
            response.body = .data(body)
            return response
        }
    }

    /// What ``take(_:matching:allowRepeats:)`` found for a request.
    enum Lookup: Sendable {
        /// The entry to replay.
        case entry(Recorded)
        /// Every matching entry was played already and repeats are off: the matching entries, in recorded order.
        case exhausted([Recorded])
        /// No entry matches.
        case none
    }

    let recorded: [Recorded]
    private let byKey: [String: [Int]]
    /// How many times each entry (by position in ``recorded``) was replayed.
    private let playCounts: Locked<[Int]>

    /// Indexes the entries with a response (status > 0) and those that recorded a network failure a cassette can
    /// give again (``HAREntry/recordedNetworkFailure``), their requests redacted with `redactor`.
    init(entries: [HAREntry], redactor: Redactor) {
        var recorded: [Recorded] = []
        var byKey: [String: [Int]] = [:]
        for (index, entry) in entries.enumerated() {
            let failure = entry.recordedNetworkFailure
            guard entry.response.status > 0 || failure != nil else { continue }
            let request = redactor.redact(request: entry.request.capturedRequest()).value
            let prepared = CassetteMatching.Prepared(request)
            var head = failure == nil ? entry.response.replayResponse(url: request.url) : HandlerResponse(statusCode: 0)
            head.body = .empty
            byKey[prepared.key, default: []].append(recorded.count)
            recorded.append(
                Recorded(
                    index: index,
                    entry: entry,
                    request: request,
                    prepared: prepared,
                    head: head,
                    body: failure == nil ? entry.response.replayBody : Data(),
                    failure: failure,
                    failureMessage: failure == nil ? nil : entry.netTap?.error?.message
                )
            )
        }
        self.recorded = recorded
        self.byKey = byKey
        playCounts = Locked(Array(repeating: 0, count: recorded.count))
    }

    /// The first matching entry not replayed yet, and counts the play.
    ///
    /// Once every matching entry was played: the last of them again when `allowRepeats`, else
    /// ``Lookup/exhausted(_:)``.
    ///
    /// - Complexity: O(entries with the request's method, origin and path).
    func take(_ request: CapturedRequest, matching: CassetteMatching, allowRepeats: Bool) -> Lookup {
        let prepared = CassetteMatching.Prepared(request)
        let candidates = (byKey[prepared.key] ?? []).filter {
            matching.differences(between: prepared, and: recorded[$0].prepared).isEmpty
        }
        guard let last = candidates.last else { return .none }
        let chosen = playCounts.withLock { counts -> Int? in
            guard let next = candidates.first(where: { counts[$0] == 0 }) ?? (allowRepeats ? last : nil) else {
                return nil
            }
            counts[next] += 1
            return next
        }
        guard let chosen else { return .exhausted(candidates.map { recorded[$0] }) }
        return .entry(recorded[chosen])
    }

    /// The entries never replayed, in recorded order.
    var unplayed: [Recorded] {
        let counts = playCounts.current
        return recorded.indices.filter { counts[$0] == 0 }.map { recorded[$0] }
    }

    /// The entry closest to `request` and why it differs, for an error message.
    ///
    /// - Complexity: O(entries).
    func closest(to request: CapturedRequest, matching: CassetteMatching) -> (Recorded, [String])? {
        var best: (Recorded, [String], Int)?
        let prepared = CassetteMatching.Prepared(request)
        for candidate in recorded {
            let reasons = matching.differences(between: prepared, and: candidate.prepared)
            let distance = CassetteMatching.distance(reasons)
            if best.map({ distance < $0.2 }) ?? true {
                best = (candidate, reasons, distance)
            }
        }
        return best.map { ($0.0, $0.1) }
    }
}
