import Foundation
import NetTapCore
import NetTapHAR
import Testing

@Suite("HAR export and redaction")
struct HARRedactionTests {
    private func transaction() throws -> CapturedTransaction {
        CapturedTransaction(
            request: CapturedRequest(
                method: "POST",
                url: try #require(URL(string: "http://127.0.0.1:8080/login?token=s3cr3t-query&page=1")),
                headers: ["Authorization": "Bearer s3cr3t-bearer", "Content-Type": "application/json"],
                body: CapturedBody(data: Data(#"{"password":"s3cr3t-password","user":"ann"}"#.utf8))
            ),
            response: CapturedResponse(
                statusCode: 200,
                headers: ["Content-Type": "text/plain", "Set-Cookie": "sid=s3cr3t-cookie; Path=/"],
                url: try #require(URL(string: "http://127.0.0.1:8080/login?token=s3cr3t-query&page=1")),
                body: CapturedBody(data: Data("hello".utf8))
            ),
            timings: Timings(startDate: Date(timeIntervalSince1970: 1_700_000_000)),
            state: .completed
        )
    }

    @Test("an export redacts by default, says \"redaction\": \"on\", and records where in _netTap and the comment")
    func redactedExport() throws {
        let data = try HARDocument(transactions: [try transaction()]).encoded()
        let text = String(decoding: data, as: UTF8.self)
        #expect(!text.contains("s3cr3t"))
        let document = try HARDocument.decode(data, source: "export.har")
        #expect(document.log.creator.comment == #"{"redaction": "on"}"#)
        #expect(document.log.creator.isRedacted == true)
        let entry = try #require(document.log.entries.first)
        #expect(
            entry.comment
                == "NetTap: redacted: request query token, request header Authorization, request json $.password, "
                + "response cookie sid in Set-Cookie, response query token"
        )
        #expect(entry.netTap?.redactions?.first == RedactionLocation(part: .request, kind: .query, name: "token"))
        let back = try #require(document.transactions().first)
        #expect(
            back.redactions.map(\.description) == [
                "request query token", "request header Authorization", "request json $.password",
                "response cookie sid in Set-Cookie", "response query token",
            ]
        )
        #expect(back.request.headers["Authorization"] == "Bearer [redacted]")
    }

    @Test("exporting an already redacted transaction changes nothing and doubles nothing")
    func noDoubleRedaction() throws {
        let redacted = Redactor.default.redact(transaction: try transaction()).value
        let once = HARDocument(transactions: [redacted])
        let imported = try HARDocument.decode(try once.encoded(), source: "once.har").transactions()
        #expect(imported == [redacted])
        let again = HARDocument(transactions: imported)
        #expect(try again.encoded() == (try once.encoded()))
        #expect(imported.first?.redactions.count == redacted.redactions.count)
    }

    @Test("Redactor.disabled exports the secrets and says \"redaction\": \"off\"")
    func unredactedExport() throws {
        let document = HARDocument(transactions: [try transaction()], redactor: .disabled)
        let text = String(decoding: try document.encoded(), as: UTF8.self)
        #expect(text.contains("Bearer s3cr3t-bearer"))
        #expect(document.log.creator.comment == #"{"redaction": "off"}"#)
        #expect(document.log.creator.isRedacted == false)
        #expect(document.log.entries.first?.netTap?.redactions == nil)
    }

    @Test("the creator's redaction record: other comment text kept, off stays off, other tools' files say nothing")
    func creatorRecord() {
        let custom = HARCreator(name: "App", version: "1", comment: "nightly build")
        #expect(custom.recordingRedaction(true).comment == #"nightly build {"redaction": "on"}"#)
        #expect(custom.recordingRedaction(true).isRedacted == true)
        let off = HARCreator.netTap.recordingRedaction(false)
        #expect(off.recordingRedaction(true).comment == #"{"redaction": "off"}"#)
        #expect(HARCreator.netTap.recordingRedaction(true).recordingRedaction(false).isRedacted == false)
        #expect(HARCreator(name: "x", version: "1", comment: #"{"redaction":"on"}"#).isRedacted == true)
        #expect(HARCreator(name: "Chrome", version: "120").isRedacted == nil)
        #expect(HARCreator(name: "Chrome", version: "120", comment: "hello").isRedacted == nil)
    }
}
