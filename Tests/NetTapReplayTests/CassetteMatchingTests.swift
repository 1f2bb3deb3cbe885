import Foundation
import NetTapCore
import NetTapReplay
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("CassetteMatching")
struct CassetteMatchingTests {
    private func captured(
        _ url: String,
        method: String = "GET",
        headers: HeaderFields = [:],
        body: String? = nil
    ) throws
        -> CapturedRequest
    {
        CapturedRequest(
            method: method,
            url: try #require(URL(string: url)),
            headers: headers,
            body: body.map { CapturedBody(data: Data($0.utf8)) }
        )
    }

    @Test("by default method and URL count, query in order, headers and body do not")
    func defaults() throws {
        let matching = CassetteMatching.default
        let recorded = try captured("http://H:80/a?x=1&y=2", headers: ["Accept": "a"], body: "one")
        #expect(
            matching.differences(between: try captured("http://h/a?x=1&y=2", method: "get", body: "two"), and: recorded)
                .isEmpty
        )
        #expect(
            matching.differences(between: try captured("http://h/a?y=2&x=1"), and: recorded) == [
                "query y=2&x=1, recorded x=1&y=2"
            ]
        )
        #expect(
            matching.differences(between: try captured("http://h/a?x=1&y=2", method: "POST"), and: recorded) == [
                "method POST, recorded GET"
            ]
        )
        #expect(
            matching.differences(between: try captured("https://h/a?x=1&y=2"), and: recorded) == [
                "origin https://h:443, recorded http://h:80"
            ]
        )
        #expect(
            matching.differences(between: try captured("http://h/b?x=1&y=2"), and: recorded) == ["path /b, recorded /a"]
        )
    }

    @Test("ignoring query order")
    func queryOrder() throws {
        let matching = CassetteMatching(ignoresQueryOrder: true)
        #expect(
            matching.differences(between: try captured("http://h/a?y=2&x=1"), and: try captured("http://h/a?x=1&y=2"))
                .isEmpty
        )
        #expect(
            !matching.differences(between: try captured("http://h/a?y=3&x=1"), and: try captured("http://h/a?x=1&y=2"))
                .isEmpty
        )
    }

    @Test("ignoring chosen query items")
    func ignoredItems() throws {
        let matching = CassetteMatching(ignoredQueryItems: ["_ts"])
        #expect(
            matching.differences(
                between: try captured("http://h/a?x=1&_ts=99"),
                and: try captured("http://h/a?x=1&_ts=1")
            ).isEmpty
        )
        #expect(
            matching.differences(between: try captured("http://h/a?x=1"), and: try captured("http://h/a?_ts=1&x=1"))
                .isEmpty
        )
    }

    @Test("comparing chosen headers")
    func headers() throws {
        let matching = CassetteMatching(headers: ["Accept"])
        let recorded = try captured("http://h/a", headers: ["accept": "application/json", "X-Other": "1"])
        #expect(
            matching.differences(
                between: try captured("http://h/a", headers: ["Accept": "application/json"]),
                and: recorded
            ).isEmpty
        )
        #expect(
            matching.differences(between: try captured("http://h/a", headers: ["Accept": "text/html"]), and: recorded)
                == [#"header Accept "text/html", recorded "application/json""#]
        )
        #expect(
            matching.differences(between: try captured("http://h/a"), and: recorded)
                == [#"header Accept (absent), recorded "application/json""#]
        )
    }

    @Test("bodies: ignored, exact, or JSON-aware with member order free")
    func bodies() throws {
        let recorded = try captured("http://h/a", method: "POST", body: #"{"a":1,"b":[1,2]}"#)
        let reordered = try captured("http://h/a", method: "POST", body: #"{ "b": [1, 2], "a": 1.0 }"#)
        let different = try captured("http://h/a", method: "POST", body: #"{"a":2,"b":[1,2]}"#)
        #expect(CassetteMatching(body: .ignore).differences(between: different, and: recorded).isEmpty)
        #expect(CassetteMatching(body: .exact).differences(between: reordered, and: recorded).count == 1)
        #expect(CassetteMatching(body: .exact).differences(between: recorded, and: recorded).isEmpty)
        #expect(CassetteMatching(body: .json).differences(between: reordered, and: recorded).isEmpty)
        #expect(
            CassetteMatching(body: .json).differences(between: different, and: recorded)
                == [#"JSON body {"a":2,"b":[1,2]}, recorded {"a":1,"b":[1,2]}"#]
        )
        let text = try captured("http://h/a", method: "POST", body: "plain")
        #expect(
            CassetteMatching(body: .json).differences(between: text, and: recorded).first?.contains("not both JSON")
                == true
        )
    }

    @Test("a handler with body matching tells same-URL requests apart by body")
    func handlerUsesOptions() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("bodies.har")
        try await recordCassette(
            at: file,
            [
                try makeRequest(
                    "http://127.0.0.1:9/q",
                    method: "POST",
                    headers: ["Content-Type": "application/json"],
                    body: #"{"n":1}"#
                ),
                try makeRequest(
                    "http://127.0.0.1:9/q",
                    method: "POST",
                    headers: ["Content-Type": "application/json"],
                    body: #"{"n":2}"#
                ),
            ]
        )
        let handler = try ReplayHandler(cassette: file, mode: .none, matching: CassetteMatching(body: .json))
        let harness = PipelineHarness(handlers: [handler])
        let second = try await harness.send(
            try makeRequest(
                "http://127.0.0.1:9/q",
                method: "POST",
                headers: ["Content-Type": "application/json"],
                body: #"{ "n": 2 }"#
            )
        )
        #expect(second.text == "POST /q #2")
        let first = try await harness.send(
            try makeRequest(
                "http://127.0.0.1:9/q",
                method: "POST",
                headers: ["Content-Type": "application/json"],
                body: #"{"n":1}"#
            )
        )
        #expect(first.text == "POST /q #1")
    }
}
