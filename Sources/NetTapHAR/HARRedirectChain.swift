import Foundation
import NetTapCore

/// The requests and time segments of a transaction that followed redirects: one segment per hop, then the final
/// request.
///
/// Segment `k < N` (N hops) is the request that hop `k` answered with its 3xx; segment `N` is the request that got
/// the final response (or failed). Requests after the first are rebuilt with the rules NetTap's forwarding
/// transport follows (RFC 9110 §15.4): 301 and 302 turn POST into GET, 303 turns anything but HEAD into GET,
/// 307 and 308 keep the method; the body goes along only while the method stays the same, is not GET or HEAD,
/// and no 303 came in between; when it is dropped, so are `Content-Type` and `Content-Length`. The other request
/// headers are the transaction's: the `Cookie` value NetTap re-read from cookie storage on later hops is not
/// recorded, so the first one is shown.
struct HARRedirectChain {
    /// The request of each segment: the hops' (method and URL as recorded), then the final one.
    let requests: [CapturedRequest]
    /// Milliseconds from the transaction start to the start of each segment.
    let startOffsets: [Double]
    /// Each hop's `Location`, resolved against the hop's URL; `nil` when the hop had no usable `Location`.
    let targets: [URL?]

    init(transaction: CapturedTransaction) {
        let hops = transaction.redirects
        let targets = hops.map { hop in
            hop.headers["Location"].flatMap { URL(string: $0, relativeTo: hop.url)?.absoluteURL }
        }
        var requests: [CapturedRequest] = []
        var current = transaction.request
        for (index, hop) in hops.enumerated() {
            if index > 0 {
                current = Self.next(
                    after: current,
                    status: hops[index - 1].statusCode,
                    method: hop.method,
                    url: hop.url
                )
            } else {
                current.method = hop.method
                current.url = hop.url
            }
            requests.append(current)
        }
        if let last = hops.last {
            let method = Self.method(after: current.method, status: last.statusCode)
            let url = transaction.response?.url ?? targets.last.flatMap { $0 } ?? last.url
            requests.append(Self.next(after: current, status: last.statusCode, method: method, url: url))
        } else {
            requests.append(current)
        }
        self.requests = requests
        self.startOffsets = [0] + hops.map(\.elapsedMilliseconds)
        self.targets = targets
    }

    /// The final request: what the last hop led to, or the transaction's request when there were no hops.
    var finalRequest: CapturedRequest { requests[requests.count - 1] }

    /// The milestones of segment `index`, relative to its own start.
    ///
    /// A hop's request goes out at its start (the first one after the pipeline's `requestSent`) and its 3xx
    /// arrives at the hop's `elapsedMilliseconds`; its body was never read, so it ends there too. The final
    /// segment ends at the transaction's first byte and end.
    func milestones(ofSegment index: Int, in transaction: CapturedTransaction) -> Timings {
        let offset = startOffsets[index]
        let start = transaction.timings.startDate.addingTimeInterval(offset / 1000)
        let sent = index == 0 ? transaction.timings.requestSent : nil
        guard index < transaction.redirects.count else {
            return Timings(
                startDate: start,
                requestSent: sent,
                firstByte: transaction.timings.firstByte.map { max(0, $0 - offset) },
                end: transaction.timings.end.map { max(0, $0 - offset) }
            )
        }
        let arrived = max(0, transaction.redirects[index].elapsedMilliseconds - offset)
        return Timings(startDate: start, requestSent: sent, firstByte: arrived, end: arrived)
    }

    /// The method after a redirect with `status` (RFC 9110 §15.4.2–15.4.9).
    static func method(after method: String, status: Int) -> String {
        switch status {
        case 301, 302: method == "POST" ? "GET" : method
        case 303: method == "HEAD" ? "HEAD" : "GET"
        default: method
        }
    }

    /// The request after a redirect: the new method and URL, the body only when it goes along.
    private static func next(after previous: CapturedRequest, status: Int, method: String, url: URL) -> CapturedRequest
    {
        var next = previous
        next.method = method
        next.url = url
        let keepsBody = method == previous.method && status != 303 && method != "GET" && method != "HEAD"
        if !keepsBody {
            next.body = nil
            next.headers.remove(name: "Content-Type")
            next.headers.remove(name: "Content-Length")
        }
        return next
    }
}
