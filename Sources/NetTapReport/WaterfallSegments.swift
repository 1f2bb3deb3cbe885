import Foundation
import NetTapCore

/// The coloured parts of one waterfall bar, in milliseconds from the transaction's start.
///
/// Without wire phases a bar has three parts, as NetTap's own milestones give them: until sent (`queue`),
/// waiting for the first byte (`wait`), receiving (`receive`). With `CapturedTransaction.wire.phases` the part after
/// sending is split as the transport timed it: `ph-dns`, `ph-connect` (TCP, without TLS), `ph-ssl`, `ph-send`,
/// `ph-wait`, `ph-receive`, each one starting where the one before ended and cut at the transaction's end.
struct WaterfallSegments {
    /// One part of a bar.
    struct Segment {
        /// The CSS class: `queue`, `wait`, `receive` or `ph-<phase>`.
        var kind: String
        /// Milliseconds from the start.
        var from: Double
        /// Milliseconds from the start.
        var to: Double
        /// The phase and its milliseconds (`ssl 2.8 ms`), for phase parts.
        var title: String?
    }

    /// The parts, in order.
    var segments: [Segment]
    /// The phases as text (`dns 0.3 ms, connect 3.5 ms, …`), empty without phases.
    var summary: String

    /// The parts of a transaction's bar.
    ///
    /// - Parameters:
    ///   - transaction: The transaction.
    ///   - sent: Milliseconds until the request was sent.
    ///   - firstByte: Milliseconds until the first byte (between `sent` and `end`).
    ///   - end: Milliseconds until the end.
    init(_ transaction: CapturedTransaction, sent: Double, firstByte: Double, end: Double) {
        let queue = Segment(kind: "queue", from: 0, to: sent)
        guard let phases = transaction.wire?.phases else {
            segments = [
                queue, Segment(kind: "wait", from: sent, to: firstByte),
                Segment(kind: "receive", from: firstByte, to: end),
            ]
            summary = ""
            return
        }
        segments = [queue]
        var position = sent
        var texts: [String] = []
        for (name, milliseconds) in Self.spans(of: phases) {
            let text = "\(name) \(ReportFormat.milliseconds(milliseconds))"
            let to = min(end, position + milliseconds)
            segments.append(Segment(kind: "ph-\(name)", from: position, to: max(position, to), title: text))
            position = max(position, to)
            texts.append(text)
        }
        summary = texts.joined(separator: ", ")
    }

    /// The phases drawn, in order, those that happened (≥ 0) only; `connect` without the TLS time, which HAR
    /// counts inside it.
    static func spans(of phases: WirePhases) -> [(String, Double)] {
        let tcp = phases.connect >= 0 && phases.ssl >= 0 ? max(0, phases.connect - phases.ssl) : phases.connect
        let all = [
            ("dns", phases.dns), ("connect", tcp), ("ssl", phases.ssl), ("send", phases.send), ("wait", phases.wait),
            ("receive", phases.receive),
        ]
        return all.filter { $0.1 >= 0 && $0.1.isFinite }
    }

    /// The legend of the phase colours.
    static let legend =
        "<span id=\"waterfall-phases\">· wire phases: <span class=\"key ph-dns\"></span>DNS "
        + "<span class=\"key ph-connect\"></span>connect <span class=\"key ph-ssl\"></span>TLS "
        + "<span class=\"key ph-send\"></span>send <span class=\"key ph-wait\"></span>wait "
        + "<span class=\"key ph-receive\"></span>receive</span>"
}
