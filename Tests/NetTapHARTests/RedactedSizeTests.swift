import Foundation
import NetTapCore
import NetTapHAR
import Testing

/// Sizes are the sizes of what was sent and received, whatever redaction replaced: a secret of any length
/// changes the text written, never the byte counts.
@Suite("Redacted bodies keep their sizes: capture, HAR bodySize, NetTap's record and the round trip")
struct RedactedSizeTests {
    private func transaction(secret: String) throws -> CapturedTransaction {
        let url = try #require(URL(string: "https://api.example/login"))
        let request = Data(#"{"user":"ann","password":"\#(secret)"}"#.utf8)
        let response = Data("user=ann&token=\(secret)&next=%2Fhome".utf8)
        return CapturedTransaction(
            request: CapturedRequest(
                method: "POST",
                url: url,
                headers: ["Content-Type": "application/json"],
                body: CapturedBody(data: request)
            ),
            response: CapturedResponse(
                statusCode: 200,
                headers: ["Content-Type": "application/x-www-form-urlencoded"],
                url: url,
                body: CapturedBody(data: response)
            ),
            timings: Timings(startDate: Date(timeIntervalSince1970: 1_700_000_000)),
            state: .completed
        )
    }

    @Test("secrets of 1 to 40 characters: sizes kept, nothing called truncated, the HAR says both sizes")
    func everyLength() throws {
        for length in 1...40 {
            let secret = String(repeating: "k", count: length - 1) + "9"
            let original = try transaction(secret: secret)
            let redacted = Redactor.default.redact(transaction: original).value
            let requestBody = try #require(redacted.request.body)
            let responseBody = try #require(redacted.response?.body)
            #expect(!String(decoding: requestBody.data, as: UTF8.self).contains(#""\#(secret)""#), "\(length)")
            #expect(requestBody.totalByteCount == original.request.body?.totalByteCount, "\(length)")
            #expect(responseBody.totalByteCount == original.response?.body?.totalByteCount, "\(length)")
            #expect(!requestBody.isTruncated && !responseBody.isTruncated, "\(length)")

            let entry = try #require(HAREntry.entries(for: redacted).last)
            #expect(Int64(entry.request.bodySize) == original.request.body?.totalByteCount, "\(length)")
            #expect(Int64(entry.response.bodySize) == original.response?.body?.totalByteCount, "\(length)")
            #expect(entry.response.content.size == responseBody.data.count, "text and content.size agree (strict HAR)")
            let received = original.response?.body?.totalByteCount ?? 0
            // A redacted copy of another size names the size received (a same-size copy needs no note).
            let note = "body redacted: the text is the redacted copy of the \(received) bytes received"
            #expect(entry.response.content.comment == (Int64(responseBody.data.count) == received ? nil : note))
            // A reader without NetTap's own record (the file re-saved by another tool) gets the same sizes.
            var foreign = entry
            foreign.netTap = nil
            let foreignData = try HARDocument(log: HARLog(entries: [foreign])).encoded()
            let foreignBack = try #require(try HARDocument.decode(foreignData, source: "f.har").transactions().first)
            #expect(foreignBack.response?.body?.totalByteCount == original.response?.body?.totalByteCount)

            let data = try HARDocument(log: HARLog(entries: [entry])).encoded()
            let back = try #require(try HARDocument.decode(data, source: "sizes.har").transactions().first)
            #expect(back.request.body?.totalByteCount == original.request.body?.totalByteCount, "\(length)")
            #expect(back.response?.body?.totalByteCount == original.response?.body?.totalByteCount, "\(length)")
            #expect(back.request.body?.isTruncated == false && back.response?.body?.isTruncated == false)
        }
    }

    @Test("a body the capture limit cut stays truncated, with its full size, through redaction and HAR")
    func truncatedStaysTruncated() throws {
        let url = try #require(URL(string: "https://api.example/big"))
        let kept = Data(#"{"password":"hunter2-long","pad":"aaaa"#.utf8)
        let body = CapturedBody(data: kept, totalByteCount: 10_000)
        let transaction = CapturedTransaction(
            request: CapturedRequest(method: "GET", url: url, headers: [:]),
            response: CapturedResponse(
                statusCode: 200,
                headers: ["Content-Type": "application/json"],
                url: url,
                body: body
            ),
            timings: Timings(startDate: Date(timeIntervalSince1970: 1_700_000_000)),
            state: .completed
        )
        let redacted = Redactor.default.redact(transaction: transaction).value
        #expect(redacted.response?.body?.totalByteCount == 10_000)
        #expect(redacted.response?.body?.isTruncated == true)
        let data = try HARDocument(transactions: [redacted], redactor: .disabled).encoded()
        let back = try #require(try HARDocument.decode(data, source: "cut.har").transactions().first)
        #expect(back.response?.body?.totalByteCount == 10_000)
        #expect(back.response?.body?.isTruncated == true)
    }
}
