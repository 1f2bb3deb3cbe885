import Foundation
import NetTapCore
import NetTapHAR
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Exporting HAR 1.2")
struct HARExportTests {
    private func exported() throws -> (document: HARDocument, json: [String: Any]) {
        let document = HARDocument(transactions: SampleTransactions.all, redactor: .disabled)
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
        #expect(try entries(json).count == SampleTransactions.Entry.count)
    }

    @Test("Requests carry the query in URL order, cookies from Cookie, and text bodies")
    func requests() throws {
        let (document, _) = try exported()
        let get = document.log.entries[SampleTransactions.Entry.get].request
        #expect(get.url == "http://127.0.0.1:8080/search?q=caf%C3%A9%20au%20lait&empty=&flag&q=2")
        #expect(
            get.queryString.map { "\($0.name)=\($0.value)" } == ["q=café au lait", "empty=", "flag=", "q=2"]
        )
        #expect(get.cookies.map(\.name) == ["session", "theme"])
        #expect(get.cookies.map(\.value) == ["abc123", "dark"])
        #expect(get.bodySize == 0)
        #expect(get.postData == nil)

        let post = document.log.entries[SampleTransactions.Entry.post].request
        #expect(post.postData?.mimeType == "application/json")
        #expect(post.postData?.text == #"{"name":"it's \"quoted\"\nline two"}"#)
        #expect(post.postData?.encoding == nil)
        #expect(post.bodySize == post.postData?.text?.utf8.count)
    }

    @Test("Binary bodies are base64: content.encoding for responses, _encoding and a comment for postData")
    func binaryBodies() throws {
        let (document, json) = try exported()
        let entry = document.log.entries[SampleTransactions.Entry.binaryUpload]
        #expect(entry.response.content.encoding == "base64")
        #expect(entry.response.content.decodedData() == SampleTransactions.binary)
        #expect(entry.response.content.size == SampleTransactions.binary.count)
        #expect(entry.response.content.mimeType == "image/png")
        let postData = try #require(entry.request.postData)
        #expect(postData.encoding == "base64")
        #expect(Data(base64Encoded: postData.text ?? "") == SampleTransactions.binary)
        #expect(postData.comment?.contains("base64") == true)
        let rawPostData = try #require(
            (try entries(json))[SampleTransactions.Entry.binaryUpload]["request"] as? [String: Any]
        )["postData"]
        #expect((rawPostData as? [String: Any])?["_encoding"] as? String == "base64")
    }

    @Test("Responses carry status text, Set-Cookie cookies, redirectURL, a failure and a truncation note")
    func responses() throws {
        let (document, _) = try exported()
        let ok = document.log.entries[SampleTransactions.Entry.get].response
        #expect(ok.status == 200)
        #expect(ok.statusText == HTTPURLResponseStatusText.ok)
        #expect(ok.content.mimeType == "application/json; charset=utf-8")
        #expect(ok.content.text == #"{"results":["café","thé"]}"#)
        #expect(ok.cookies.map(\.name) == ["seen", "lang"])
        #expect(ok.cookies.map(\.httpOnly) == [true, false])
        #expect(ok.cookies.map(\.secure) == [false, true])

        // A 201 with Location is no redirect.
        #expect(document.log.entries[SampleTransactions.Entry.post].response.redirectURL == "")
        #expect(
            document.log.entries[SampleTransactions.Entry.notFollowedRedirect].response.redirectURL
                == "http://127.0.0.1:8080/elsewhere"
        )

        let failed = document.log.entries[SampleTransactions.Entry.failed]
        #expect(failed.response.status == 0)
        #expect(failed.response.comment?.contains("The request timed out.") == true)
        #expect(failed.comment?.contains("state failed") == true)
        #expect(failed.time == 60_000.5)

        let truncated = document.log.entries[SampleTransactions.Entry.truncated].response.content
        #expect(truncated.size == 1_000)
        #expect(document.log.entries[SampleTransactions.Entry.truncated].response.bodySize == 5_000)
        #expect(truncated.text?.utf8.count == 1_000)
        #expect(truncated.comment == "body truncated: kept the first 1000 of 5000 bytes")
    }

    @Test("Timings: blocked until sent, wait until first byte, receive until the end; time is their sum")
    func timings() throws {
        let (document, _) = try exported()
        let entry = document.log.entries[SampleTransactions.Entry.get]
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
        let data = try HARDocument(transactions: SampleTransactions.all, redactor: .disabled).encoded()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"log\" : {\n    \"creator\""))
        let again = try HARDocument.decode(data, source: "export.har").encoded()
        #expect(again == data)
    }

    @Test("A redirected transaction is written as one entry per hop, then the final request's entry")
    func redirectHops() throws {
        let (document, json) = try exported()
        let raw = try entries(json)
        let id = SampleTransactions.redirected.id.uuidString
        let hops = SampleTransactions.Entry.redirectedHops.map { document.log.entries[$0] }
        let final = document.log.entries[SampleTransactions.Entry.redirected]

        #expect(hops.map(\.request.method) == ["GET", "GET"])
        #expect(hops.map(\.request.url) == ["http://127.0.0.1:8080/old", "http://127.0.0.1:8080/middle"])
        #expect(hops.map(\.response.status) == [302, 301])
        #expect(hops.map(\.response.redirectURL) == ["http://127.0.0.1:8080/middle", "http://127.0.0.1:8080/final"])
        #expect(
            hops.map(\.response.statusText) == [302, 301].map { HTTPURLResponse.localizedString(forStatusCode: $0) }
        )
        #expect(hops.allSatisfy { $0.response.content.size == 0 && $0.response.content.text == "" })
        #expect(hops.allSatisfy { $0.response.headers.contains { $0.name == "Location" } })
        #expect(hops.allSatisfy { $0.isRedirectHop })
        #expect(!final.isRedirectHop)
        for (position, index) in SampleTransactions.Entry.redirectedHops.enumerated() {
            let marker = try #require(raw[index]["_netTap"] as? [String: Any])
            #expect(marker.count == 2)
            #expect(marker["redirectOf"] as? String == id)
            #expect(marker["hop"] as? Int == position)
        }

        #expect(final.request.method == "GET")
        #expect(final.request.url == "http://127.0.0.1:8080/final")
        #expect(final.response.status == 200)
        #expect(final.response.content.text == "arrived")
        #expect(final.netTap?.id?.uuidString == id)
        #expect(final.netTap?.redirects?.map(\.status) == [302, 301])
        #expect(final.netTap?.requestURL == "http://127.0.0.1:8080/old")
        #expect(final.netTap?.requestMethod == nil)

        // Each entry starts where the previous one ended; together they take the transaction's duration.
        #expect(hops.map(\.time) == [4.5, 4.75])
        #expect(hops[0].timings.blocked == 1.25)
        #expect(hops[0].timings.wait == 3.25)
        #expect(hops[1].timings.blocked == -1)
        #expect(final.time == 22.5)
        #expect(final.timings.wait == 11.25)
        #expect(final.timings.receive == 11.25)
        let start = SampleTransactions.redirected.timings.startDate
        let expectedStarts = [0, 4.5, 9.25].map { Self.string(start.addingTimeInterval($0 / 1000)) }
        #expect([hops[0], hops[1], final].map(\.startedDateTime) == expectedStarts)
    }

    @Test("Hop requests follow RFC 9110: 307 keeps the POST and its body, 303 makes a GET without either")
    func redirectMethods() throws {
        let (document, _) = try exported()
        let hops = SampleTransactions.Entry.postRedirectedHops.map { document.log.entries[$0] }
        let final = document.log.entries[SampleTransactions.Entry.postRedirected]
        #expect(hops.map(\.request.method) == ["POST", "POST"])
        #expect(hops.map(\.request.url) == ["http://127.0.0.1:8080/form", "http://127.0.0.1:8080/form2"])
        #expect(hops.map { $0.request.postData?.text } == ["name=caf%C3%A9", "name=caf%C3%A9"])
        #expect(hops.map(\.request.bodySize) == [14, 14])
        #expect(
            hops.map { $0.request.headers.map(\.name) }
                == Array(repeating: ["Accept", "Content-Type", "Content-Length"], count: 2)
        )

        #expect(final.request.method == "GET")
        #expect(final.request.url == "http://127.0.0.1:8080/done")
        #expect(final.request.postData == nil)
        #expect(final.request.bodySize == 0)
        #expect(final.request.headers.map(\.name) == ["Accept"])
        #expect(final.netTap?.requestMethod == "POST")
        #expect(final.netTap?.requestURL == "http://127.0.0.1:8080/form")

        // A relative Location is resolved; a failure after a hop is a status-0 entry for the URL it led to.
        let hop = document.log.entries[SampleTransactions.Entry.failedAfterRedirectHops[0]]
        #expect(hop.response.redirectURL == "http://127.0.0.1:8080/a/next?step=2")
        let failed = document.log.entries[SampleTransactions.Entry.failedAfterRedirect]
        #expect(failed.request.url == "http://127.0.0.1:8080/a/next?step=2")
        #expect(failed.response.status == 0)
        #expect(hop.time + failed.time == 30_000.25)
    }

    private static func string(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    @Test(
        "A rich export passes the independent checker strictly",
        .enabled(if: HARCheck.isAvailable, "har-check not set up: run scripts/test (NETTAP_HAR_CHECK_DIR)")
    )
    func independentChecker() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nettap-har-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("export.har")
        try HARDocument(transactions: SampleTransactions.all, redactor: .disabled).write(to: file)

        // Deliberate deviations: the failed requests have no response (status 0, empty httpVersion), as
        // browsers write failed requests. A truncated body is strict: content.size is the size of the text kept.
        // Redirect hop entries are strict too: redirectURL set, empty content of size 0.
        let allowed = ["status-zero", "http-version-empty"]
        let strict = try await HARCheck.run(["--strict"] + allowed.flatMap { ["--allow", $0] } + [file.path])
        #expect(strict.status == 0, "\(strict.output)")

        // Without allowances, exactly those findings, at exactly those places.
        let report = folder.appendingPathComponent("report.json")
        _ = try await HARCheck.run(["--strict", "--json", report.path, file.path])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        let files = try #require(json["files"] as? [[String: Any]])
        let findings = try #require(files.first?["findings"] as? [[String: Any]])
        let found = Set(findings.map { "\($0["rule"] ?? "") \($0["path"] ?? "")" })
        #expect(
            found == [
                "status-zero $.log.entries[6].response.status",
                "http-version-empty $.log.entries[6].response.httpVersion",
                "status-zero $.log.entries[14].response.status",
                "http-version-empty $.log.entries[14].response.httpVersion",
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
