import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ReplayHandler {
    /// The most refusals ``refusals`` keeps: 1,000; older ones are dropped first.
    package static let refusalLimit = 1_000

    /// Why this handler refused requests (no entry matched, or every matching entry was played with repeats
    /// off), oldest first: the text of each `URLError`, the newest ``refusalLimit`` of them.
    package var refusals: [String] { refusalLog.current }

    /// Answers a request the cassette cannot serve: names the handler as the one that answered, annotates why,
    /// keeps the reason for ``refusals``, and returns the error to throw.
    ///
    /// - Returns: `URLError(.resourceUnavailable)` with `explanation` as its description and the failing URL.
    func refuse(_ request: URLRequest, explanation: String, context: TransactionContext) -> URLError {
        context.answer(by: name)
        context.annotate(Self.unmatchedAnnotation, explanation)
        refusalLog.withLock { log in
            log.append(explanation)
            if log.count > Self.refusalLimit { log.removeFirst(log.count - Self.refusalLimit) }
        }
        return SimulatedFailure.error(.resourceUnavailable, url: request.url, description: explanation)
    }

    /// Why no entry answers a request: the cassette, the request, the mode and the closest entry with what
    /// differed.
    func explainUnmatched(_ request: CapturedRequest) -> String {
        var message =
            "cassette \(fileURL.lastPathComponent): no recorded entry matches \(request.method) "
            + "\(request.url.absoluteString) (record mode \(mode)"
        if !fileExisted { message += "; the file does not exist" }
        message += ")"
        if let (closest, reasons) = index.closest(to: request, matching: matching) {
            message +=
                "; closest is entry \(closest.index), \(closest.request.method) "
                + "\(closest.request.url.absoluteString): " + reasons.joined(separator: "; ")
        } else {
            message += "; the cassette has no replayable entries"
        }
        return message
    }

    /// Why a request whose matching entries were all played gets none with ``allowPlaybackRepeats`` off.
    func explainExhausted(_ request: CapturedRequest, played: [CassetteIndex.Recorded]) -> String {
        let numbers = played.map { String($0.index) }
        let entries =
            numbers.count == 1
            ? "entry \(numbers[0]), played already"
            : "entries \(numbers.dropLast().joined(separator: ", ")) and \(numbers[numbers.count - 1]), each played already"
        return
            "cassette \(fileURL.lastPathComponent): \(request.method) \(request.url.absoluteString) matches only "
            + "\(entries), and playback repeats are off (allowPlaybackRepeats false, record mode \(mode))"
    }
}
