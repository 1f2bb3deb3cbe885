import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Chrome DevTools Protocol `Network` domain events of a transaction (the definitions are in the protocol's
/// `browser_protocol.json`): `requestWillBeSent` (once per redirect hop, with `redirectResponse`, then for the
/// final request), `responseReceived`, `dataReceived`, and `loadingFinished` or `loadingFailed`.
///
/// Times are seconds since 1970 (both `timestamp` and `wallTime`: the frontend only needs them consistent); the
/// `timing` object comes from the transport's phases when it measured them. `initiator.url` says who answered
/// (`nettap:network`, `nettap:mock`, …), with `type` `parser`: the one type whose URL the Network panel's
/// Initiator column shows (for `other` it shows only "Other"). The transaction is shown as captured: redacted
/// with the capture's redactor.
package enum NetworkEvents {
    /// One CDP event: its method and params.
    package struct Event: @unchecked Sendable {
        /// The event name, such as `Network.requestWillBeSent`.
        package var method: String
        /// The params object.
        package var params: [String: Any]

        /// The message text: `{"method":…,"params":{…}}`.
        package var json: String { DevToolsEndpoint.encode(["method": method, "params": params], sortsKeys: false) }
    }

    /// The events for a transaction event: the request (and its redirects) when it starts, the response when it
    /// arrives, the body and the end when it finishes.
    package static func events(for event: TransactionEvent) -> [Event] {
        switch event {
        case .started(let transaction): [requestWillBeSent(transaction)]
        case .responseReceived(let transaction): redirects(of: transaction) + [responseReceived(transaction)]
        case .finished(let transaction): finished(transaction)
        }
    }

    /// Every event of a finished transaction, in order (for replaying a capture log or a file).
    package static func replay(_ transaction: CapturedTransaction) -> [Event] {
        var events = [requestWillBeSent(transaction)] + redirects(of: transaction)
        if transaction.response != nil { events.append(responseReceived(transaction)) }
        if transaction.state != .pending, transaction.state != .receiving { events += finished(transaction) }
        return events
    }

    /// `Network.requestWillBeSent`; `initiator.url` is `nettap:` and who answered, or `nettap:pending` when
    /// `isAnswered` is `false` (a request shown before its answer: nobody has answered yet).
    static func requestWillBeSent(_ transaction: CapturedTransaction, isAnswered: Bool = true) -> Event {
        let request = transaction.request
        var params = base(transaction, at: transaction.timings.startDate)
        params["documentURL"] = request.url.absoluteString
        params["request"] = requestObject(
            method: request.method,
            url: request.url,
            headers: request.headers,
            body: request.body
        )
        params["wallTime"] = transaction.timings.startDate.timeIntervalSince1970
        params["initiator"] = ["type": "parser", "url": "nettap:\(isAnswered ? transaction.answeredBy : "pending")"]
        params["redirectHasExtraInfo"] = false
        params["type"] = "Fetch"
        return Event(method: "Network.requestWillBeSent", params: params)
    }

    /// For each redirect hop: the next request, with the hop's response as `redirectResponse`.
    static func redirects(of transaction: CapturedTransaction) -> [Event] {
        transaction.redirects.enumerated().map { index, hop in
            let next =
                index + 1 < transaction.redirects.count
                ? transaction.redirects[index + 1].url : (transaction.response?.url ?? hop.url)
            let nextMethod =
                index + 1 < transaction.redirects.count
                ? transaction.redirects[index + 1].method : transaction.request.method
            let moment = transaction.timings.startDate.addingTimeInterval(hop.elapsedMilliseconds / 1000)
            var params = base(transaction, at: moment)
            params["documentURL"] = next.absoluteString
            params["request"] = requestObject(
                method: nextMethod,
                url: next,
                headers: transaction.request.headers,
                body: nil
            )
            params["wallTime"] = moment.timeIntervalSince1970
            params["initiator"] = ["type": "parser", "url": "nettap:\(hop.answeredBy)"]
            params["redirectHasExtraInfo"] = false
            params["type"] = "Fetch"
            params["redirectResponse"] = responseObject(
                url: hop.url,
                status: hop.statusCode,
                headers: hop.headers,
                transaction: transaction,
                isFinal: false
            )
            return Event(method: "Network.requestWillBeSent", params: params)
        }
    }

    static func responseReceived(_ transaction: CapturedTransaction) -> Event {
        guard let response = transaction.response else {
            return Event(method: "Network.responseReceived", params: [:])
        }
        var params = base(transaction, at: moment(transaction, transaction.timings.firstByte))
        params["type"] = resourceType(of: response)
        params["hasExtraInfo"] = false
        params["response"] = responseObject(
            url: response.url,
            status: response.statusCode,
            headers: response.headers,
            transaction: transaction,
            isFinal: true
        )
        return Event(method: "Network.responseReceived", params: params)
    }

    static func finished(_ transaction: CapturedTransaction) -> [Event] {
        let end = moment(transaction, transaction.timings.end).timeIntervalSince1970
        let id = transaction.id.uuidString
        let length = transaction.response?.body?.totalByteCount ?? 0
        if transaction.state == .completed, transaction.response != nil {
            var events: [Event] = []
            if length > 0 {
                events.append(
                    Event(
                        method: "Network.dataReceived",
                        params: [
                            "requestId": id, "timestamp": end, "dataLength": length, "encodedDataLength": length,
                        ]
                    )
                )
            }
            events.append(
                Event(
                    method: "Network.loadingFinished",
                    params: [
                        "requestId": id, "timestamp": end, "encodedDataLength": length,
                    ]
                )
            )
            return events
        }
        let cancelled = transaction.state == .cancelled
        var params: [String: Any] = [
            "requestId": id, "timestamp": end, "type": "Fetch",
            "errorText": ChromeNetError.text(for: transaction.error, cancelled: cancelled), "canceled": cancelled,
        ]
        if transaction.annotations[InspectorControlHandler.blockedAnnotation] != nil {
            // DevTools' request blocking, as Chrome reports its own: the reason is "inspector".
            params["errorText"] = "net::ERR_BLOCKED_BY_CLIENT"
            params["blockedReason"] = "inspector"
        }
        return [Event(method: "Network.loadingFailed", params: params)]
    }

    private static func base(_ transaction: CapturedTransaction, at date: Date) -> [String: Any] {
        [
            "requestId": transaction.id.uuidString, "loaderId": transaction.id.uuidString,
            "timestamp": date.timeIntervalSince1970,
        ]
    }

    private static func moment(_ transaction: CapturedTransaction, _ milliseconds: Double?) -> Date {
        transaction.timings.startDate.addingTimeInterval(max(0, milliseconds ?? 0) / 1000)
    }

    private static func requestObject(
        method: String,
        url: URL,
        headers: HeaderFields,
        body: CapturedBody?
    ) -> [String: Any] {
        var object: [String: Any] = [
            "url": url.absoluteString, "method": method, "headers": headerObject(headers),
            "initialPriority": "High", "referrerPolicy": "strict-origin-when-cross-origin",
        ]
        if let body, !body.data.isEmpty {
            object["hasPostData"] = true
            if let text = String(data: body.data, encoding: .utf8) { object["postData"] = text }
        }
        return object
    }

    /// Header fields as CDP's `Headers` object: one key per name, repeated fields joined by a line feed.
    static func headerObject(_ headers: HeaderFields) -> [String: String] {
        var object: [String: String] = [:]
        for field in headers {
            if let existing = object[field.name] {
                object[field.name] = existing + "\n" + field.value
            } else {
                object[field.name] = field.value
            }
        }
        return object
    }
}
