import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Redactor {
    /// Redacts a request's URL, header fields and body (`httpBody`, read with its `Content-Type`).
    ///
    /// - Parameter request: The request.
    /// - Returns: The request with secrets replaced, and where.
    /// - Complexity: O(size of the request).
    public func redact(request: URLRequest) -> Redacted<URLRequest> {
        var result = request
        var locations: [RedactionLocation] = []
        if let url = request.url {
            let redacted = redact(url: url)
            if redacted.didRedact {
                result.url = redacted.value
                locations += redacted.locations
            }
        }
        let headers = redact(headers: HeaderFields(request.allHTTPHeaderFields ?? [:]))
        if headers.didRedact {
            for field in headers.value { result.setValue(field.value, forHTTPHeaderField: field.name) }
            locations += headers.locations
        }
        if let body = request.httpBody {
            let redacted = redact(body: body, contentType: request.value(forHTTPHeaderField: "Content-Type"))
            if redacted.didRedact {
                result.httpBody = redacted.value
                locations += redacted.locations
            }
        }
        return Redacted(value: result, locations: locations)
    }

    /// Redacts a captured request: URL, header fields and body.
    ///
    /// - Parameter request: The captured request.
    /// - Returns: The redacted request (a rewritten body keeps its size as sent) and where.
    public func redact(request: CapturedRequest) -> Redacted<CapturedRequest> {
        redaction(of: request).redacted
    }

    /// A request's redaction, with the secrets its transaction is swept of.
    package struct RequestRedaction: Sendable {
        /// The redacted request and where.
        package var redacted: Redacted<CapturedRequest>
        /// The values redaction removed from the request and, when ``Redactor/redactsTokens``, the tokens the
        /// unredacted request holds.
        package var secrets: Set<String>
    }

    /// ``redact(request:)`` with the secrets for the rest of the transaction; a body is searched for tokens
    /// once when redaction left it as it was (the usual case).
    package func redaction(of request: CapturedRequest) -> RequestRedaction {
        var result = request
        let url = redact(url: request.url)
        let headers = redact(headers: request.headers)
        result.url = url.value
        result.headers = headers.value
        var locations = url.locations + headers.locations
        if let body = request.body {
            let redacted = redact(body: body, contentType: request.headers["Content-Type"])
            result.body = redacted.value
            locations += redacted.locations
        }
        locations += removeEchoes(of: EchoPattern(Self.removedValues(from: request, to: result)), from: &result)
        var originalTokens: Set<String> = []
        if redactsTokens {
            let bodyTokens = Self.tokenValues(inBody: request.body?.data)
            originalTokens = Self.tokenValues(url: request.url, headers: request.headers).union(bodyTokens)
            let resultBodyTokens =
                result.body?.data == request.body?.data ? bodyTokens : Self.tokenValues(inBody: result.body?.data)
            let tokens = Self.tokenValues(url: result.url, headers: result.headers).union(resultBodyTokens)
            locations += removeEchoes(of: EchoPattern(tokens), from: &result, kind: .token)
        }
        return RequestRedaction(
            redacted: Redacted(value: result, locations: locations),
            secrets: Self.removedValues(from: request, to: result).union(originalTokens)
        )
    }

    /// Redacts a captured response: header fields, URL and body.
    ///
    /// - Parameter response: The captured response.
    /// - Returns: The redacted response and where.
    public func redact(response: CapturedResponse) -> Redacted<CapturedResponse> {
        redaction(of: response).redacted
    }

    /// ``redact(response:)`` with the tokens the unredacted response holds (when ``redactsTokens``; else
    /// none); a body is searched for tokens once when redaction left it as it was.
    private func redaction(of response: CapturedResponse) -> (redacted: Redacted<CapturedResponse>, tokens: Set<String>)
    {
        var result = response
        let headers = redact(headers: response.headers)
        let url = redact(url: response.url)
        result.headers = headers.value
        result.url = url.value
        var locations = headers.locations + url.locations
        if let body = response.body {
            let redacted = redact(body: body, contentType: response.headers["Content-Type"])
            result.body = redacted.value
            locations += redacted.locations
        }
        var originalTokens: Set<String> = []
        if redactsTokens {
            let bodyTokens = Self.tokenValues(inBody: response.body?.data)
            originalTokens = Self.tokenValues(url: response.url, headers: response.headers).union(bodyTokens)
            let resultBodyTokens =
                result.body?.data == response.body?.data ? bodyTokens : Self.tokenValues(inBody: result.body?.data)
            let tokens = Self.tokenValues(url: result.url, headers: result.headers).union(resultBodyTokens)
            locations += removeEchoes(of: EchoPattern(tokens), from: &result, kind: .token)
        }
        return (Redacted(value: result, locations: locations), originalTokens)
    }

    /// Redacts a whole captured transaction: the request, every redirect hop (URL and headers, `Set-Cookie`
    /// and `Location` among them) and the response.
    ///
    /// The result's ``CapturedTransaction/redactions`` are the transaction's own followed by the new locations, so a
    /// transaction redacted before (by the capture) keeps its record and gains nothing: redacting twice
    /// changes nothing.
    ///
    /// - Parameter transaction: The transaction.
    /// - Returns: The redacted transaction and every location replaced now, each with its
    ///   ``RedactionLocation/part``.
    /// - Complexity: O(size of the transaction).
    public func redact(transaction: CapturedTransaction) -> Redacted<CapturedTransaction> {
        guard isEnabled else { return Redacted(value: transaction) }
        return redact(transaction: transaction, request: redaction(of: transaction.request))
    }

    /// Redacts the transactions of one capture or HAR document together: each as ``redact(transaction:)``, and
    /// then every value redacted in any of them is also replaced wherever it appears in the others (a session
    /// cookie one response set, copied into a later request's URL or a `Location` header).
    ///
    /// - Parameter transactions: The transactions, unredacted, in any order.
    /// - Returns: Each redacted transaction and where, in the same order.
    /// - Complexity: one pass over every transaction, and a second over those holding a value another one
    ///   redacted.
    public func redact(transactions: [CapturedTransaction]) -> [Redacted<CapturedTransaction>] {
        guard isEnabled else { return transactions.map { Redacted(value: $0) } }
        let passes = transactions.map(redactionPass(of:))
        let secrets = DocumentSecrets(passes.reduce(into: Set<String>()) { $0.formUnion($1.secrets) })
        return zip(transactions, passes).map { completing($1, of: $0, sweeping: secrets) }
    }

    /// The values redacted anywhere in one capture or HAR document, ready to be swept from each of its
    /// transactions: the search pattern is built once, not once per transaction (with a cookie per entry, a
    /// pattern per transaction made a document's redaction quadratic).
    package struct DocumentSecrets: Sendable {
        /// The values.
        package let values: Set<String>
        /// Their search pattern; `nil` when none is long enough to look for.
        let forms: EchoPattern?

        /// Prepares `values` for sweeping.
        package init(_ values: Set<String>) {
            self.values = values
            forms = EchoPattern(values)
        }
    }

    /// The first pass of ``redact(transactions:)`` over one transaction: its own redaction and its secrets.
    package struct TransactionRedaction: Sendable {
        /// The request's redaction.
        package var request: RequestRedaction
        /// The transaction redacted on its own.
        package var redacted: Redacted<CapturedTransaction>
        /// The values redacted in it (and, when ``Redactor/redactsTokens``, its tokens).
        package var secrets: Set<String>
    }

    /// ``redact(transaction:)`` with the values it redacted, for ``completing(_:of:sweeping:)``.
    package func redactionPass(of transaction: CapturedTransaction) -> TransactionRedaction {
        let request = redaction(of: transaction.request)
        let once = redact(transaction: transaction, request: request, sweeping: [])
        return TransactionRedaction(request: request, redacted: once.redacted, secrets: once.secrets)
    }

    /// The second pass of ``redact(transactions:)``: the transaction redacted again, also sweeping the values
    /// other transactions redacted (`secrets`, of every transaction of the document), when it may hold any.
    package func completing(
        _ pass: TransactionRedaction,
        of transaction: CapturedTransaction,
        sweeping secrets: DocumentSecrets
    ) -> Redacted<CapturedTransaction> {
        // The transaction's own values are among the document's: as many means the same, nothing else to sweep.
        guard pass.secrets.count < secrets.values.count else { return pass.redacted }
        // What is swept, this transaction's own values and every other's, is the document's: its pattern serves.
        return redact(transaction: transaction, request: pass.request, sweeping: secrets.values, forms: secrets.forms)
            .redacted
    }

    /// ``redact(transaction:)`` with the request's redaction already made (the capture redacts a request once,
    /// then the rest of the transaction at each event).
    ///
    /// - Parameters:
    ///   - transaction: The transaction, unredacted.
    ///   - request: `redaction(of: transaction.request)`.
    /// - Returns: As ``redact(transaction:)``.
    package func redact(transaction: CapturedTransaction, request: RequestRedaction) -> Redacted<CapturedTransaction> {
        redact(transaction: transaction, request: request, sweeping: []).redacted
    }

    /// ``redact(transaction:request:)`` that also replaces `known` (values redacted elsewhere in the same capture
    /// or document) wherever they appear, and returns the values this transaction redacted.
    package func redact(
        transaction: CapturedTransaction,
        request: RequestRedaction,
        sweeping known: Set<String>
    ) -> (redacted: Redacted<CapturedTransaction>, secrets: Set<String>) {
        redact(transaction: transaction, request: request, sweeping: known, forms: nil)
    }

    /// ``redact(transaction:request:sweeping:)`` with the pattern of the values swept (its own and `known`)
    /// already built, or `nil` to build it.
    private func redact(
        transaction: CapturedTransaction,
        request: RequestRedaction,
        sweeping known: Set<String>,
        forms prepared: EchoPattern??
    ) -> (redacted: Redacted<CapturedTransaction>, secrets: Set<String>) {
        var result = transaction
        var locations: [RedactionLocation] = []
        let responseTokens = redactParts(of: transaction, request: request, into: &result, locations: &locations)
        let own = secretsFound(in: transaction, redacted: result, request: request, responseTokens: responseTokens)
        // One pattern for every place swept: building it is the costly part with many secrets. A prepared one is the
        // document's, whose values hold this transaction's own.
        let forms = prepared ?? EchoPattern(own.union(known))
        sweepEchoes(of: forms, from: &result, locations: &locations)
        locations += removeSecrets(forms, fromNotesOf: &result)
        result.redactions += locations.filter { !transaction.redactions.contains($0) }
        return (Redacted(value: result, locations: locations), own)
    }

    /// Appends `found` to `locations`, each marked as being in `part` of the transaction.
    private static func add(
        _ found: [RedactionLocation],
        part: RedactionLocation.Part,
        to locations: inout [RedactionLocation]
    ) {
        locations += found.map { location in
            var location = location
            location.part = part
            return location
        }
    }

    /// The first step of ``redact(transaction:request:sweeping:)``: the request's redaction put in, each redirect
    /// hop's URL and headers and the response redacted by name and shape, each place added to `locations`.
    /// - Returns: The tokens the unredacted response holds (when ``redactsTokens``; else none).
    private func redactParts(
        of transaction: CapturedTransaction,
        request: RequestRedaction,
        into result: inout CapturedTransaction,
        locations: inout [RedactionLocation]
    ) -> Set<String> {
        result.request = request.redacted.value
        Self.add(request.redacted.locations, part: .request, to: &locations)
        for (index, hop) in transaction.redirects.enumerated() {
            let url = redact(url: hop.url)
            let headers = redact(headers: hop.headers)
            result.redirects[index].url = url.value
            result.redirects[index].headers = headers.value
            Self.add(url.locations + headers.locations, part: .redirect(index + 1), to: &locations)
        }
        var responseTokens: Set<String> = []
        if let response = transaction.response {
            let redacted = redaction(of: response)
            result.response = redacted.redacted.value
            responseTokens = redacted.tokens
            Self.add(redacted.redacted.locations, part: .response, to: &locations)
        }
        return responseTokens
    }

    /// The secrets redacted anywhere in the transaction, to find again elsewhere (a server echoing the request's
    /// Authorization or password in its body, a token repeated in another header): the request's, its redirect
    /// hops' and the response's.
    private func secretsFound(
        in transaction: CapturedTransaction,
        redacted result: CapturedTransaction,
        request: RequestRedaction,
        responseTokens: Set<String>
    ) -> Set<String> {
        var secrets = request.secrets
        for (index, hop) in transaction.redirects.enumerated() {
            secrets.formUnion(
                Self.removedHeaderValues(original: hop.headers, redacted: result.redirects[index].headers)
            )
            if redactsTokens { secrets.formUnion(Self.tokenValues(url: hop.url, headers: hop.headers, body: nil)) }
        }
        if let response = transaction.response, let redacted = result.response {
            secrets.formUnion(Self.removedHeaderValues(original: response.headers, redacted: redacted.headers))
            secrets.formUnion(
                Self.removedBodyValues(original: response.body?.data ?? Data(), redacted: redacted.body?.data ?? Data())
            )
            secrets.formUnion(responseTokens)
        }
        return secrets
    }

    /// The last step of ``redact(transaction:request:sweeping:)``: copies of the secrets (`forms`) replaced in the
    /// response, the request and the redirect hops, each place added to `locations`.
    private func sweepEchoes(
        of forms: EchoPattern?,
        from result: inout CapturedTransaction,
        locations: inout [RedactionLocation]
    ) {
        if var redacted = result.response {
            Self.add(removeEchoes(of: forms, from: &redacted), part: .response, to: &locations)
            result.response = redacted
        }
        // A secret the response, a hop or another transaction revealed (a cookie it set, a token in its body) that
        // the request carried under another name (`/response-headers?Set-Cookie=sid%3D…`). Replay still matches: a
        // cassette's recorded query value with the placeholder stands for any text. The whole pattern serves: the
        // request's own secrets are gone from it already, so only the revealed ones can still be found.
        Self.add(removeEchoes(of: forms, from: &result.request), part: .request, to: &locations)
        for index in result.redirects.indices {
            var headers = result.redirects[index].headers
            var found = removeEchoes(of: forms, from: &headers)
            result.redirects[index].headers = headers
            if let swept = Self.removingEchoes(of: forms, from: result.redirects[index].url) {
                result.redirects[index].url = swept
                found.append(RedactionLocation(kind: .echo, name: "url"))
            }
            Self.add(found, part: .redirect(index + 1), to: &locations)
        }
    }

    /// Replaces secret query items and copies of `secrets` in what handlers wrote about a transaction:
    /// annotation values and findings (their location, message and details), which may quote a URL or a header.
    private func removeSecrets(
        _ forms: EchoPattern?,
        fromNotesOf transaction: inout CapturedTransaction
    )
        -> [RedactionLocation]
    {
        var locations: [RedactionLocation] = []
        func swept(_ text: String, name: String) -> String {
            let query = redactQuery(in: text)
            let echoes = Self.removingEchoes(of: forms, from: query.value)
            if query.didRedact || echoes != nil { locations.append(RedactionLocation(kind: .echo, name: name)) }
            return echoes ?? query.value
        }
        for key in transaction.annotations.keys.sorted() {
            guard let value = transaction.annotations[key] else { continue }
            transaction.annotations[key] = swept(value, name: "annotation \(key)")
        }
        for index in transaction.findings.indices {
            var finding = transaction.findings[index]
            let name = "finding \(finding.rule)"
            finding.location = finding.location.map { swept($0, name: name) }
            finding.message = swept(finding.message, name: name)
            for key in finding.details.keys.sorted() {
                guard let value = finding.details[key] else { continue }
                finding.details[key] = swept(value, name: name)
            }
            transaction.findings[index] = finding
        }
        return locations
    }

    /// The secret values a request's redaction removed (URL, header fields, body).
    private static func removedValues(from original: CapturedRequest, to redacted: CapturedRequest) -> Set<String> {
        removedTokens(original: original.url.absoluteString, redacted: redacted.url.absoluteString)
            .union(removedHeaderValues(original: original.headers, redacted: redacted.headers))
            .union(removedBodyValues(original: original.body?.data ?? Data(), redacted: redacted.body?.data ?? Data()))
    }

    /// Replaces copies of `secrets` in a request's URL, body and header values; each place is reported as
    /// `kind` (``RedactionLocation/Kind/echo`` or ``RedactionLocation/Kind/token``).
    private func removeEchoes(
        of forms: EchoPattern?,
        from request: inout CapturedRequest,
        kind: RedactionLocation.Kind = .echo
    ) -> [RedactionLocation] {
        guard let forms else { return [] }
        var locations: [RedactionLocation] = []
        if let swept = Self.removingEchoes(of: forms, from: request.url) {
            request.url = swept
            locations.append(RedactionLocation(kind: kind, name: "url"))
        }
        locations += removeEchoes(of: forms, from: &request.headers, kind: kind)
        if let body = request.body, let swept = Self.removingEchoes(of: forms, from: body.data) {
            request.body = body.replacingData(with: swept)
            locations.append(RedactionLocation(kind: kind, name: "body"))
        }
        return locations
    }

    /// Replaces copies of `secrets` in a response's URL, body and header values; each place is reported as
    /// `kind`.
    private func removeEchoes(
        of forms: EchoPattern?,
        from response: inout CapturedResponse,
        kind: RedactionLocation.Kind = .echo
    ) -> [RedactionLocation] {
        guard let forms else { return [] }
        var locations: [RedactionLocation] = []
        if let swept = Self.removingEchoes(of: forms, from: response.url) {
            response.url = swept
            locations.append(RedactionLocation(kind: kind, name: "url"))
        }
        locations += removeEchoes(of: forms, from: &response.headers, kind: kind)
        if let body = response.body, let swept = Self.removingEchoes(of: forms, from: body.data) {
            response.body = body.replacingData(with: swept)
            locations.append(RedactionLocation(kind: kind, name: "body"))
        }
        return locations
    }

    /// Replaces copies of `secrets` in header values; each field is reported as `kind`.
    private func removeEchoes(
        of forms: EchoPattern?,
        from headers: inout HeaderFields,
        kind: RedactionLocation.Kind = .echo
    ) -> [RedactionLocation] {
        guard let forms else { return [] }
        var locations: [RedactionLocation] = []
        var fields = Array(headers)
        for index in fields.indices {
            guard let swept = Self.removingEchoes(of: forms, from: fields[index].value) else { continue }
            fields[index].value = swept
            locations.append(RedactionLocation(kind: kind, name: fields[index].name))
        }
        if !locations.isEmpty { headers = HeaderFields(fields) }
        return locations
    }

    /// Redacts a captured body; a rewritten body keeps the size and truncation of the body as sent or received.
    private func redact(body: CapturedBody, contentType: String?) -> Redacted<CapturedBody> {
        let redacted = redact(body: body.data, contentType: contentType)
        guard redacted.didRedact else { return Redacted(value: body) }
        return Redacted(value: body.replacingData(with: redacted.value), locations: redacted.locations)
    }
}
