import Foundation
import Testing

@testable import NetTapCore

@Suite("Model types print readably")
struct ModelDescriptionTests {
    @Test("headers print as a dictionary literal, in order with repetitions and escapes")
    func headers() {
        let headers: HeaderFields = ["Accept": "*/*", "Set-Cookie": "a=1", "X-Quote": #"say "hi""#]
        var repeated = headers
        repeated.add(name: "Set-Cookie", value: "b=2")
        #expect("\(headers)" == #"["Accept": "*/*", "Set-Cookie": "a=1", "X-Quote": "say \"hi\""]"#)
        #expect(String(describing: repeated).hasSuffix(#""Set-Cookie": "b=2"]"#))
        #expect("\(HeaderFields())" == "[:]")
        #expect("\(HeaderFields.Field(name: "Content-Type", value: "text/plain"))" == "Content-Type: text/plain")
    }

    @Test("a transaction prints as one line: request, outcome, who answered and how long")
    func transaction() throws {
        let url = try #require(URL(string: "https://api.example.com/v1/cart"))
        var transaction = CapturedTransaction(
            request: CapturedRequest(
                method: "POST",
                url: url,
                headers: [:],
                body: CapturedBody(data: Data(count: 1_500))
            ),
            timings: Timings(startDate: Date(), end: 12.34),
            state: .completed
        )
        transaction.response = CapturedResponse(statusCode: 200, headers: ["A": "b"], url: url)
        transaction.answeredBy = "mock"
        #expect("\(transaction)" == "POST https://api.example.com/v1/cart (1,500 bytes) → 200 (mock, 12.3 ms)")
        transaction.state = .failed
        transaction.error = TransactionError(URLError(.notConnectedToInternet))
        #expect("\(transaction)".contains("→ failed: "), "\(transaction)")
        #expect("\(CapturedBody(data: Data(count: 10), totalByteCount: 2_048))" == "2,048 bytes (10 kept)")
        #expect(!"\(transaction)".contains("NetTapCore."))
    }

    @Test("an interceptor, its capture log, a context and a redactor print as one short line each")
    func runtimeTypes() {
        let interceptor = NetTapInterceptor()
        #expect("\(interceptor.captureLog)" == "CaptureLog(0 of 1000 kept)")
        #expect("\(Redactor.disabled)" == "Redactor(off)")
        let redactor = "\(Redactor.default)"
        #expect(redactor.hasPrefix("Redactor(on: ") && redactor.hasSuffix("exceptions, tokens)"), "\(redactor)")
        #expect("\(interceptor)".count < 200, "\(interceptor)")
        #expect("\(interceptor)".contains("handlers []"))
        let context = TransactionContext()
        context.answer(by: "mock")
        #expect("\(context)".contains("answered by mock, 0 annotations, 0 findings, 0 redirects"))
    }

    @Test("a handler's response prints its status, version and headers")
    func response() {
        let response = HandlerResponse(statusCode: 404, headers: ["Content-Type": "text/plain"])
        #expect("\(response)" == #"404 HTTP/1.1, ["Content-Type": "text/plain"]"#)
    }
}
