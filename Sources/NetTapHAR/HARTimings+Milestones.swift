import Foundation
import NetTapCore

extension HARTimings {
    /// Creates HAR timings from a transaction's milestones.
    ///
    /// `blocked` is the time spent in the pipeline before the request was sent (`requestSent`), `wait` the
    /// time from sending to the first response byte, `receive` the time from the first byte to the end.
    /// NetTap does not see DNS, connection or TLS phases (−1) nor how long sending took (0, counted in
    /// `wait`). A missing milestone makes its phase −1 (`blocked`) or 0 (the required phases), so the sum
    /// equals the duration whenever the transaction ended.
    ///
    /// - Parameter milestones: Milliseconds since the transaction start.
    public init(milestones: Timings) {
        let sent = milestones.requestSent
        let start = sent ?? 0
        var wait = 0.0
        var receive = 0.0
        if let firstByte = milestones.firstByte {
            wait = max(0, firstByte - start)
            receive = milestones.end.map { max(0, $0 - max(firstByte, start)) } ?? 0
        } else if let end = milestones.end {
            wait = max(0, end - start)
        }
        self.init(blocked: sent.map { max(0, $0) } ?? -1, send: 0, wait: wait, receive: receive)
    }

    /// Milestones derived from the phases, for entries written by other tools.
    ///
    /// The request counts as sent after `blocked`, `dns`, `connect` and `send`; the first byte arrives
    /// `wait` later (only when there was a response); the end is `time`.
    ///
    /// - Parameters:
    ///   - time: The entry's total milliseconds.
    ///   - hasResponse: Whether there was a response (status > 0).
    /// - Returns: Milliseconds since the start.
    func milestones(time: Double, hasResponse: Bool) -> (requestSent: Double, firstByte: Double?, end: Double) {
        let sent = [blocked, dns, connect, send].filter { $0 > 0 }.reduce(0, +)
        let firstByte = hasResponse ? sent + max(0, wait) : nil
        let end = time > 0 ? time : total
        return (sent, firstByte, end)
    }
}
