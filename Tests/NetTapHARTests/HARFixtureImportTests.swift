import Foundation
import NetTapCore
import NetTapHAR
import Testing

@Suite("Importing real HAR exports")
struct HARFixtureImportTests {
    @Test("Chrome: a 304, a blocked status-0 entry, a base64 image and vendor fields")
    func chrome() throws {
        let document = try Fixture.load("chrome.har")
        let log = document.log
        #expect(log.creator == HARCreator(name: "WebInspector", version: "537.36"))
        #expect(log.pages.map(\.id) == ["page_1"])
        #expect(log.pages.first?.pageTimings.onLoad == 447.70199997583404)
        #expect(log.entries.count == 3)

        let notModified = log.entries[0]
        #expect(notModified.request.url == "https://mitmproxy.org/")
        #expect(notModified.response.status == 304)
        #expect(notModified.serverIPAddress == "108.138.246.80")
        #expect(notModified.customFields["_resourceType"] == .string("document"))
        #expect(notModified.timings.customFields["_blocked_queueing"] == .number(3.293000045232475))
        #expect(notModified.response.content.decodedData()?.count == 23_866)

        let blocked = log.entries[1]
        #expect(blocked.response.status == 0)
        let failed = blocked.transaction()
        #expect(failed.response == nil)
        #expect(failed.state == .failed)
        #expect(failed.error?.message == "net::ERR_INTERNET_DISCONNECTED")

        let image = log.entries[2]
        #expect(image.pageref == "page_2")  // names no page: accepted
        #expect(image.request.cookies.count == 21)
        #expect(image.request.cookies[1].httpOnly == true)
        #expect(image.response.content.encoding == "base64")
        let png = try #require(image.transaction().response?.body)
        #expect(png.data.count == 7_108)
        #expect(png.totalByteCount == 7_108)
        #expect(png.data.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))

        let reexported = try HARDocument.decode(try document.encoded(), source: "again.har")
        #expect(reexported.log.entries.map(\.pageref) == ["page_1", "page_1", nil])
        #expect(reexported.log.entries[0].customFields == notModified.customFields)
    }

    @Test("Charles: no pages, a null redirectURL, an empty query item, timings without blocked")
    func charles() throws {
        let document = try Fixture.load("charles.har")
        #expect(document.log.creator.name == "Charles Proxy")
        #expect(document.log.pages.isEmpty)
        let entry = try #require(document.log.entries.first)
        #expect(document.log.entries.count == 1)
        #expect(entry.request.url == "https://mitmproxy.org/?=")
        #expect(entry.request.queryString == [HARQueryParameter(name: "", value: "")])
        #expect(entry.response.redirectURL == "")
        #expect(entry.response.customFields["_charlesStatus"] == .string("COMPLETE"))
        #expect(entry.timings.blocked == -1)
        #expect(entry.timings.dns == 43)

        let transaction = entry.transaction()
        #expect(transaction.response?.statusCode == 200)
        #expect(transaction.response?.body?.data.count == 23_866)
        #expect(transaction.response?.body?.isTruncated == false)
        // 17:37:42.482 at UTC−7 is 00:37:42.482 the next day in UTC.
        #expect(transaction.timings.startDate == Date(timeIntervalSince1970: 1_680_136_662.482))
        #expect(transaction.timings.end == 107)
    }

    @Test("Insomnia: a minimal plain-http entry with an empty postData")
    func insomnia() throws {
        let document = try Fixture.load("insomnia.har")
        let entry = try #require(document.log.entries.first)
        #expect(document.log.entries.count == 1)
        #expect(entry.comment == "mitmproxy")
        let transaction = entry.transaction()
        #expect(transaction.request.method == "GET")
        #expect(transaction.request.url.absoluteString == "http://mitm.it/")
        #expect(transaction.request.body?.data.isEmpty == true)
        #expect(transaction.response?.headers["content-length"] == "250")
        let html = String(decoding: transaction.response?.body?.data ?? Data(), as: UTF8.self)
        #expect(html.contains("traffic is not passing through mitmproxy"))
        #expect(transaction.timings.end == 70.402)
    }

    @Test("Chrome POST: postData text becomes the request body")
    func postData() throws {
        let document = try Fixture.load("postdata.har")
        let entry = try #require(document.log.entries.first)
        #expect(entry.request.postData?.mimeType == "text/plain;charset=UTF-8")
        #expect(entry.connection == "159834")
        let request = entry.transaction().request
        #expect(request.method == "POST")
        #expect(request.url.host == "signal-metrics-collector-beta.s-onetag.com")
        let body = try #require(request.body)
        #expect(body.data.count == 1_310)
        #expect(body.isTruncated == false)
        let json = try #require(try JSONSerialization.jsonObject(with: body.data) as? [String: Any])
        #expect((json["metadata"] as? [String: Any])?["domain"] as? String == "reqbin.com")
    }

    @Test("A UTF-8 byte-order mark before the JSON is skipped")
    func byteOrderMark() throws {
        let raw = try Data(contentsOf: Fixture.url("with-bom.har"))
        #expect(raw.prefix(3) == Data([0xEF, 0xBB, 0xBF]))
        let document = try Fixture.load("with-bom.har")
        #expect(document == (try Fixture.load("postdata.har")))
        #expect(document.log.entries.first?.request.method == "POST")
    }

    @Test("broken.har gives an error naming the file, line and column")
    func broken() throws {
        let error = try #require(throws: HARError.self) { try Fixture.load("broken.har") }
        #expect(error.source == "broken.har")
        #expect(error.line == 5)
        #expect(error.column == 1)
        #expect(error.description.hasPrefix("broken.har:5:1: invalid JSON: "))
        #expect(!error.description.contains("\n"))
    }

    @Test(
        "cookies listed only in the HAR cookies arrays (left out of the headers) become Cookie and Set-Cookie headers"
    )
    func cookiesWithoutHeaders() throws {
        let request = HARRequest(
            method: "GET",
            url: "https://shop.example/",
            cookies: [HARCookie(name: "sid", value: "abc"), HARCookie(name: "theme", value: "dark")]
        )
        #expect(request.capturedRequest().headers["Cookie"] == "sid=abc; theme=dark")
        var withHeader = request
        withHeader.headers = [HARHeader(name: "cookie", value: "sid=abc")]
        #expect(
            withHeader.capturedRequest().headers.values(for: "Cookie") == ["sid=abc", "theme=dark"],
            "the header is kept; the cookie it left out is added, so redaction sees it"
        )
        var complete = request
        complete.headers = [HARHeader(name: "cookie", value: "sid=abc; theme=dark")]
        #expect(complete.capturedRequest().headers.values(for: "Cookie") == ["sid=abc; theme=dark"])

        let response = HARResponse(
            status: 200,
            statusText: "OK",
            httpVersion: "HTTP/1.1",
            cookies: [
                HARCookie(
                    name: "sid",
                    value: "abc",
                    path: "/",
                    domain: "shop.example",
                    expires: "2030-01-02T03:04:05.000Z",
                    httpOnly: true,
                    secure: true
                )
            ],
            content: HARContent(size: 0, mimeType: "text/plain")
        )
        let url = try #require(URL(string: "https://shop.example/"))
        let setCookie = response.capturedResponse(url: url)?.headers.values(for: "Set-Cookie")
        #expect(
            setCookie == [
                "sid=abc; Path=/; Domain=shop.example; Expires=Wed, 02 Jan 2030 03:04:05 GMT; HttpOnly; Secure"
            ]
        )
        // Read back as HAR cookies, the attributes survive.
        let cookies = HARCookie.responseCookies(
            in: HeaderFields([HeaderFields.Field(name: "Set-Cookie", value: setCookie?.first ?? "")]),
            url: url
        )
        #expect(cookies.first?.expires == "2030-01-02T03:04:05.000Z")
        #expect(cookies.first?.httpOnly == true)
    }
}
