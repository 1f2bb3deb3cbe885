import Foundation
import NetTapCore
import NetTapHAR
import Testing

@Suite("Exporting HAR 1.2")
struct HARExportTests {
    private func exported() throws -> (document: HARDocument, json: [String: Any]) {
        let document = HARDocument(transactions: SampleTransactions.all)
        let object = try JSONSerialization.jsonObject(with: try document.encoded())
        return (document, try #require(object as? [String: Any]))
    }

    private func entries(_ json: [String: Any]) throws -> [[String: Any]] {
        let log = try #require(json["log"] as? [String: Any])
        return try #require(log["entries"] as? [[String: Any]])
    }

    @Test("The log names NetTap, version 1.2, and writes an empty pages list")
    func logFields() throws {
        let (_, json) = try exported()
        let log = try #require(json["log"] as? [String: Any])
        #expect(log["version"] as? String == "1.2")
        let creator = try #require(log["creator"] as? [String: Any])
        #expect(creator["name"] as? String == "NetTap")
        #expect(creator["version"] as? String == HARCreator.netTapVersion)
        #expect((log["pages"] as? [Any])?.isEmpty == true)
        #expect(try entries(json).count == SampleTransactions.all.count)
    }

    @Test("Requests carry the query in URL order, cookies from Cookie, and text bodies")
    func requests() throws {
        let (document, _) = try exported()
        let get = document.log.entries[0].request
        #expect(get.url == "http://127.0.0.1:8080/search?q=caf%C3%A9%20au%20lait&empty=&flag&q=2")
        #expect(
            get.queryString.map { "\($0.name)=\($0.value)" } == ["q=café au lait", "empty=", "flag=", "q=2"]
        )
        #expect(get.cookies.map(\.name) == ["session", "theme"])
        #expect(get.cookies.map(\.value) == ["abc123", "dark"])
        #expect(get.bodySize == 0)
        #expect(get.postData == nil)

        let post = document.log.entries[1].request
        #expect(post.postData?.mimeType == "application/json")
        #expect(post.postData?.text == #"{"name":"it's \"quoted\"\nline two"}"#)
        #expect(post.postData?.encoding == nil)
        #expect(post.bodySize == post.postData?.text?.utf8.count)
    }

    @Test("Binary bodies are base64: content.encoding for responses, _encoding and a comment for postData")
    func binaryBodies() throws {
        let (document, json) = try exported()
        let entry = document.log.entries[2]
        #expect(entry.response.content.encoding == "base64")
        #expect(entry.response.content.decodedData() == SampleTransactions.binary)
        #expect(entry.response.content.size == SampleTransactions.binary.count)
        #expect(entry.response.content.mimeType == "image/png")
        let postData = try #require(entry.request.postData)
        #expect(postData.encoding == "base64")
        #expect(Data(base64Encoded: postData.text ?? "") == SampleTransactions.binary)
        #expect(postData.comment?.contains("base64") == true)
        let rawPostData = try #require((try entries(json))[2]["request"] as? [String: Any])["postData"]
        #expect((rawPostData as? [String: Any])?["_encoding"] as? String == "base64")
    }

    @Test("Responses carry status text, Set-Cookie cookies, redirectURL, a failure and a truncation note")
    func responses() throws {
        let (document, _) = try exported()
        let ok = document.log.entries[0].response
        #expect(ok.status == 200)
        #expect(ok.statusText == HTTPURLResponseStatusText.ok)
        #expect(ok.content.mimeType == "application/json; charset=utf-8")
        #expect(ok.content.text == #"{"results":["café","thé"]}"#)
        #expect(ok.cookies.map(\.name) == ["seen", "lang"])
        #expect(ok.cookies.map(\.httpOnly) == [true, false])
        #expect(ok.cookies.map(\.secure) == [false, true])

        #expect(document.log.entries[1].response.redirectURL == "")  // 201 with Location is no redirect
        #expect(document.log.entries[6].response.redirectURL == "http://127.0.0.1:8080/elsewhere")

        let failed = document.log.entries[4]
        #expect(failed.response.status == 0)
        #expect(failed.response.comment?.contains("The request timed out.") == true)
        #expect(failed.comment?.contains("state failed") == true)
        #expect(failed.time == 60_000.5)

        let truncated = document.log.entries[5].response.content
        #expect(truncated.size == 1_000)
        #expect(document.log.entries[5].response.bodySize == 5_000)
        #expect(truncated.text?.utf8.count == 1_000)
        #expect(truncated.comment == "body truncated: kept the first 1000 of 5000 bytes")
    }

    @Test("Timings: blocked until sent, wait until first byte, receive until the end; time is their sum")
    func timings() throws {
        let (document, _) = try exported()
        let entry = document.log.entries[0]
        #expect(entry.timings.blocked == 1.25)
        #expect(entry.timings.dns == -1)
        #expect(entry.timings.connect == -1)
        #expect(entry.timings.ssl == -1)
        #expect(entry.timings.send == 0)
        #expect(entry.timings.wait == 19.25)
        #expect(entry.timings.receive == 11.25)
        #expect(entry.time == 31.75)
        #expect(entry.startedDateTime.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
        for entry in document.log.entries {
            #expect(entry.time == entry.timings.total)
        }
    }

    @Test("Output is pretty, key-sorted and stable across a re-import")
    func stableOutput() throws {
        let data = try HARDocument(transactions: SampleTransactions.all).encoded()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"log\" : {\n    \"creator\""))
        let again = try HARDocument.decode(data, source: "export.har").encoded()
        #expect(again == data)
    }

    @Test(
        "A rich export passes the independent checker strictly",
        .enabled(if: HARCheck.isAvailable, "har-check not set up: run ../shared/tools/har-check/setup.sh")
    )
    func independentChecker() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nettap-har-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("export.har")
        try HARDocument(transactions: SampleTransactions.all).write(to: file)

        // Deliberate deviations: the failed request has no response (status 0, empty httpVersion), as
        // browsers write failed requests. A truncated body is strict: content.size is the size of the text kept.
        let allowed = ["status-zero", "http-version-empty"]
        let strict = try HARCheck.run(["--strict"] + allowed.flatMap { ["--allow", $0] } + [file.path])
        #expect(strict.status == 0, "\(strict.output)")

        // Without allowances, exactly those findings, at exactly those places.
        let report = folder.appendingPathComponent("report.json")
        _ = try HARCheck.run(["--strict", "--json", report.path, file.path])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        let files = try #require(json["files"] as? [[String: Any]])
        let findings = try #require(files.first?["findings"] as? [[String: Any]])
        let found = Set(findings.map { "\($0["rule"] ?? "") \($0["path"] ?? "")" })
        #expect(
            found == [
                "status-zero $.log.entries[4].response.status",
                "http-version-empty $.log.entries[4].response.httpVersion",
            ]
        )
    }
}

/// Foundation's reason phrase for 200 on this platform (`OK` on Linux, `no error` on Apple platforms).
enum HTTPURLResponseStatusText {
    static var ok: String {
        #if canImport(FoundationNetworking)
        "OK"
        #else
        "no error"
        #endif
    }
}
