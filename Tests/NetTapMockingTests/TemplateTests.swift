import Foundation
import NetTapCore
import NetTapMocking
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Response templates: placeholders, escaping, missing values, the seed, Content-Length")
struct TemplateTests {
    /// One templated stub answering every request.
    private func answer(
        _ response: StubResponse,
        to request: URLRequest,
        seed: UInt64 = 7
    ) async throws -> PipelineHarness.Result {
        let mocks = MockSet(stubs: [Stub("t", matching: .any, response: try response.templated())])
        mocks.randomSeed = seed
        mocks.templateDate = Date(timeIntervalSince1970: 1_750_000_000.25)
        return try await harness(mocks).send(request)
    }

    private func sent(
        _ path: String,
        method: String = "GET",
        headers: [String: String] = [:],
        body: String? = nil
    ) -> URLRequest {
        var made = request(path, method: method)
        for (name, value) in headers { made.setValue(value, forHTTPHeaderField: name) }
        made.httpBody = body.map { Data($0.utf8) }
        return made
    }

    @Test("each request placeholder renders what the request has")
    func placeholders() async throws {
        let template = """
            {{request.method}} {{request.url}} {{request.scheme}} {{request.host}} {{request.port}} \
            {{request.path}} {{request.path.0}} {{request.path.[2]}} {{request.pathSegments.1}} \
            {{request.query.q}} {{request.query.tag.1}} {{request.query.[a.b]}} {{request.header.x-id}} \
            {{request.headers.X-Id}} {{request.body.$.user.name}} {{jsonPath request.body '$.items[1]'}} \
            {{request.body.$['odd key']}}
            """
        let result = try await answer(
            .text(template),
            to: sent(
                "/v1/users/42?q=red+shoes&tag=a&tag=b&a.b=dot",
                method: "post",
                headers: ["X-Id": "abc"],
                body: #"{"user":{"name":"Ada"},"items":[1,2],"odd key":true}"#
            )
        )
        #expect(
            result.text
                == "POST https://api.example.com/v1/users/42?q=red+shoes&tag=a&tag=b&a.b=dot https api.example.com 443 "
                + "/v1/users/42 v1 42 users red shoes b dot abc abc Ada 2 true"
        )
        let body = try await answer(.text("<{{request.body}}>"), to: sent("/", method: "POST", body: "raw text"))
        #expect(body.text == "<raw text>")
    }

    @Test("a missing value renders empty, or its default")
    func missingValues() async throws {
        let result = try await answer(
            .text(
                "[{{request.query.page}}][{{request.query.page default=\"1\"}}][{{request.path.9}}]"
                    + "[{{request.header.X-None default='none'}}][{{request.body.$.a}}]"
            ),
            to: sent("/a", body: #"{"a":null}"#)
        )
        #expect(result.text == "[][1][][none][]")
    }

    @Test("a JSON body escapes values inside strings and leaves them as they are outside")
    func jsonEscaping() async throws {
        let result = try await answer(
            .text(
                #"{"name":"{{request.query.name}}","id":{{request.query.id}},"raw":"{{{request.query.name}}}"}"#,
                headers: ["Content-Type": "application/json"]
            ),
            to: sent("/?name=%22quoted%22%5Cslash%0Aline&id=42")
        )
        #expect(result.text == #"{"name":"\"quoted\"\\slash\nline","id":42,"raw":""quoted"\slash"# + "\nline\"}")
        let parsed = try await answer(
            .text(#"{"name":"{{request.query.name}}"}"#, headers: ["Content-Type": "application/problem+json"]),
            to: sent("/?name=%22a%22")
        )
        #expect(try JSONValue(data: parsed.body) == ["name": "\"a\""])
    }

    @Test("HTML and XML bodies escape markup; plain text does not")
    func markupEscaping() async throws {
        let html = try await answer(
            .text("<p>{{request.query.q}}</p>{{{request.query.q}}}", headers: ["Content-Type": "text/html"]),
            to: sent("/?q=%3Cb%3E%26%27")
        )
        #expect(html.text == "<p>&lt;b&gt;&amp;&#39;</p><b>&'")
        let plain = try await answer(.text("{{request.query.q}}"), to: sent("/?q=%3Cb%3E"))
        #expect(plain.text == "<b>")
    }

    @Test("a json body renders string leaves; a string that is exactly one body field keeps the field's type")
    func jsonBody() async throws {
        let result = try await answer(
            .json([
                "id": "{{request.body.$.id}}", "label": "item {{request.body.$.id}}", "tags": ["{{request.path.0}}"],
                "user": "{{request.body.$.user}}", "missing": "{{request.body.$.nope}}", "literal": 3,
            ]),
            to: sent("/shop", method: "POST", body: #"{"id":42,"user":{"name":"Ada"}}"#)
        )
        #expect(
            try JSONValue(data: result.body) == [
                "id": 42, "label": "item 42", "tags": ["shop"], "user": ["name": "Ada"], "missing": "", "literal": 3,
            ]
        )
    }

    @Test("randomId is one id per answer, seeded: the same seed gives the same ids in the same order")
    func seededRandomId() async throws {
        let response = StubResponse.text("{{randomId}} {{randomId}}", headers: ["Location": "/items/{{randomId}}"])
        func ids(seed: UInt64) async throws -> [String] {
            let mocks = MockSet(stubs: [Stub("t", matching: .any, response: try response.templated())])
            mocks.randomSeed = seed
            let pipeline = harness(mocks)
            var ids: [String] = []
            for _ in 0..<3 {
                let result = try await pipeline.send(request("/"))
                let parts = result.text.split(separator: " ").map(String.init)
                #expect(parts[0] == parts[1])
                #expect(result.response.headers["Location"] == "/items/\(parts[0])")
                ids.append(parts[0])
            }
            return ids
        }
        let first = try await ids(seed: 42)
        #expect(try await ids(seed: 42) == first)
        #expect(try await ids(seed: 43) != first)
        #expect(Set(first).count == 3)
        #expect(first.allSatisfy { UUID(uuidString: $0) != nil && $0 == $0.lowercased() && Array($0)[14] == "4" })
    }

    @Test("now renders the request's date in ISO 8601, or as epoch milliseconds or unix seconds")
    func now() async throws {
        let result = try await answer(
            .text("{{now}} {{now format=\"epoch\"}} {{now format='unix'}}"),
            to: sent("/")
        )
        #expect(result.text == "2025-06-15T15:06:40Z 1750000000250 1750000000")
        let mocks = MockSet(stubs: [Stub("t", matching: .any, response: try StubResponse.text("{{now}}").templated())])
        let live = try await harness(mocks).send(request("/"))
        #expect(live.text.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil)
    }

    @Test("the answer's Content-Length is the rendered body's, replacing a given one")
    func contentLength() async throws {
        let result = try await answer(
            .text("hello {{request.query.name}}", headers: ["Content-Length": "11"]),
            to: sent("/?name=Grace%20Hopper")
        )
        #expect(result.text == "hello Grace Hopper")
        #expect(result.response.headers["Content-Length"] == "18")
    }

    @Test("a stub that is not templated answers {{ literally, and \\{{ writes {{ in a template")
    func optIn() async throws {
        let mocks = MockSet(stubs: [Stub("plain", matching: .any, response: .text("{{request.path}}"))])
        #expect(try await harness(mocks).send(request("/x")).text == "{{request.path}}")
        let escaped = try await answer(.text(#"\{{request.path}} {{request.path}}"#), to: sent("/x"))
        #expect(escaped.text == "{{request.path}} /x")
    }

    @Test("header values and the status render; a status that is not one answers 500 and says why")
    func statusAndHeaders() async throws {
        let response = try StubResponse.text("x", headers: ["X-Echo": "{{request.header.X-In}}"])
            .templated(status: "{{request.query.status default=\"200\"}}")
        let mocks = MockSet(stubs: [Stub("t", matching: .any, response: response)])
        let pipeline = harness(mocks)
        #expect(try await pipeline.send(request("/?status=418")).statusCode == 418)
        #expect(try await pipeline.send(request("/")).statusCode == 200)
        let bad = try await pipeline.send(request("/?status=teapot"))
        #expect(bad.statusCode == 500)
        #expect(bad.annotations["template"] == #"status rendered "teapot", not a status from 100 to 999; answered 500"#)
        var split = request("/")
        split.setValue("a\r\nInjected: yes", forHTTPHeaderField: "X-In")
        let echoed = try await pipeline.send(split)
        #expect(echoed.response.headers["X-Echo"]?.contains("\n") == false)
        #expect(echoed.response.headers["Injected"] == nil)
    }

    @Test(
        "a template that cannot be compiled fails when the stub is made, naming the placeholder",
        arguments: [
            (
                "{{request.paht.1}}",
                #"at character 1: unknown placeholder "request.paht.1"; did you mean "request.path.1"?"#
            ),
            ("a {{request.query}}", #"at character 3: unknown placeholder "request.query"; expected one of"#),
            ("{{request.path.x}}", #"expected an index from 0 in "request.path.x", found "x""#),
            ("{{now format=\"week\"}}", #"unknown format "week""#),
            ("{{request.path default}}", "arguments are written name=\"value\""),
            ("{{request.method colour=\"red\"}}", #"unknown argument "colour""#),
            ("x {{request.path", #"at character 3: "{{" is not closed"#),
            ("{{}}", "empty placeholder"),
            ("{{request.body.$.a[x]}}", #"expected an index from 0 or a quoted name in "[x]""#),
            ("{{jsonPath request.body}}", "expected jsonPath request.body '$.field'"),
            ("{{randomID}}", #"did you mean "randomId"?"#),
        ]
    )
    func compileErrors(template: String, expected: String) {
        let error = #expect(throws: TemplateError.self) { try StubResponse.text(template).templated() }
        #expect(error?.description.contains(expected) == true, "\(error?.description ?? "no error")")
    }

    @Test(
        "an error in a json body names the JSON path of its string; failures and dynamic answers are left as they are"
    )
    func jsonErrorsAndOtherKinds() throws {
        let error = #expect(throws: TemplateError.self) {
            try StubResponse.json(["user": ["name": "{{request.nope}}"]]).templated()
        }
        #expect(error?.message.hasPrefix("at .user.name: unknown placeholder") == true)
        #expect(try !StubResponse.failure(.timedOut).templated().isTemplated)
        #expect(try !StubResponse.dynamic { _ in .status(200) }.templated().isTemplated)
        #expect(try StubResponse.text("{{now}}").templated().isTemplated)
    }
}
