import Foundation
import NetTapCore

extension HAREntry {
    /// The HAR entries of a transaction: one per redirect hop, then the final request's, as Chrome and Firefox
    /// write redirects.
    ///
    /// A transaction without redirects gives one entry, ``HAREntry/init(transaction:)``. One that followed N
    /// redirects gives N + 1, in order:
    ///
    /// ```
    /// GET /old     302  redirectURL http://host/middle   _netTap {redirectOf: id, hop: 0}
    /// GET /middle  301  redirectURL http://host/final    _netTap {redirectOf: id, hop: 1}
    /// GET /final   200  the body                         _netTap {id, redirects: [...], ...}
    /// ```
    ///
    /// A hop entry's request has the hop's method and URL and the transaction's request headers; the body only
    /// while it still went along (see ``HAREntry/init(transaction:)`` for the RFC 9110 §15.4 rules). Its response
    /// has the hop's status, reason phrase and headers, `redirectURL` the absolute `Location`, and empty content
    /// (`size` 0, `text` `""`, `bodySize` −1: NetTap does not read a redirect's body). It starts where the
    /// previous hop ended (the first at the transaction's start) and its timings end at the hop's
    /// `elapsedMilliseconds`, so the entries' times add up to the transaction's duration. Its `_netTap` record
    /// only names the transaction and the hop; the final entry keeps the full record, redirects included, so
    /// ``HARDocument/transactions()`` folds the hop entries back into one transaction.
    ///
    /// - Parameter transaction: The transaction.
    /// - Returns: The hop entries, then the final entry.
    public static func entries(for transaction: CapturedTransaction) -> [HAREntry] {
        let chain = HARRedirectChain(transaction: transaction)
        let hops = transaction.redirects.indices.map { hopEntry(transaction, index: $0, chain: chain) }
        return hops + [HAREntry(transaction: transaction, chain: chain)]
    }

    /// Whether this is a redirect hop entry NetTap wrote: its `_netTap` record has `redirectOf`.
    public var isRedirectHop: Bool { netTap?.redirectOf != nil }

    private static func hopEntry(_ transaction: CapturedTransaction, index: Int, chain: HARRedirectChain) -> HAREntry {
        let hop = transaction.redirects[index]
        let httpVersion = transaction.response?.httpVersion ?? "HTTP/1.1"
        var response = HARResponse(
            response: CapturedResponse(
                statusCode: hop.statusCode,
                httpVersion: httpVersion,
                headers: hop.headers,
                url: hop.url
            )
        )
        response.content.text = ""
        response.bodySize = -1
        response.redirectURL = chain.targets[index]?.absoluteString ?? ""
        let segment = chain.milestones(ofSegment: index, in: transaction)
        let timings = HARTimings(milestones: segment)
        var record = HARNetTapRecord()
        record.redirectOf = transaction.id
        record.hop = index
        if hop.answeredBy != CapturedTransaction.answeredByNetwork { record.answeredBy = hop.answeredBy }
        return HAREntry(
            startedDateTime: HARDate.string(from: segment.startDate),
            time: timings.total,
            request: HARRequest(request: chain.requests[index], httpVersion: httpVersion),
            response: response,
            timings: timings,
            comment: "NetTap: redirect \(index + 1) of \(transaction.redirects.count); the final response follows",
            netTap: record
        )
    }
}
