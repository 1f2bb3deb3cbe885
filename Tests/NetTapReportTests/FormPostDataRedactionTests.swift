import Foundation
import NetTapCore
import NetTapHAR
import NetTapReport
import Testing

/// A HAR whose form POST says `application/x-www-form-urlencoded` only in `postData.mimeType` (no
/// `Content-Type` header) must not show its password in the HTML report, body or cURL command.
@Suite("HTML report: form bodies of imported HARs")
struct FormPostDataRedactionTests {
    @Test("a form password in postData without a Content-Type header is redacted in the body and the cURL")
    func formWithoutHeader() throws {
        let har = #"""
            {"log":{"version":"1.2","creator":{"name":"test","version":"1"},"entries":[{
              "startedDateTime":"2026-11-30T10:00:00.000Z","time":12,
              "request":{"method":"POST","url":"https://api.example.com/login","httpVersion":"HTTP/1.1",
                "cookies":[],"headers":[],"queryString":[],"headersSize":-1,"bodySize":41,
                "postData":{"mimeType":"application/x-www-form-urlencoded",
                  "text":"user=ann&password=FORMPASS111&otp=123456"}},
              "response":{"status":200,"statusText":"OK","httpVersion":"HTTP/1.1","cookies":[],"headers":[],
                "content":{"size":0,"mimeType":"text/plain"},"redirectURL":"","headersSize":-1,"bodySize":0},
              "cache":{},"timings":{"send":1,"wait":10,"receive":1}}]}}
            """#
        let document = try HARDocument.decode(Data(har.utf8), source: "form.har")
        let html = HTMLReport(transactions: document.transactions(), title: "form.har").render()
        #expect(!html.contains("FORMPASS111"))
        #expect(!html.contains("123456"))
        #expect(html.contains("password=%5Bredacted%5D"))
    }
}
