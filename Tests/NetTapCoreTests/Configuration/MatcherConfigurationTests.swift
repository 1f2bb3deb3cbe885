import Foundation
import Testing

@testable import NetTapCore

@Suite("Matchers from configuration")
struct MatcherConfigurationTests {
    private func matcher(_ json: String) throws -> RequestMatcher {
        try RequestMatcher(configuration: try ConfigNode(parsing: Data(json.utf8), source: "nettap.json"))
    }

    private let requests = [
        request("https://api.example.com/api/users/1/posts?page=2&q=x", method: "POST"),
        request("https://api.example.com/api/users/1/posts?page=3", headers: ["Accept": "application/json"]),
        request("http://localhost:1000/api/v2/x", method: "PUT", body: #"{"user":{"id":42},"b":1}"#),
        request(
            "http://localhost:1000/login",
            method: "POST",
            headers: ["User-Agent": "Mozilla/5"],
            body: "user=Jo+Ann"
        ),
        request("https://example.com/", body: "text"),
    ]

    @Test("every key builds its matcher, combined with &&")
    func keys() throws {
        let login = try matcher(
            #"{"method":"POST","path":"/login","form":{"user":"Jo Ann"},"headerContains":{"User-Agent":"Moz"}}"#
        )
        #expect(requests.map(login.matches) == [false, false, false, true, false])
        #expect(login.specificity == 1 + 20 + 3 + 3)
        let api = try matcher(#"{"url":"https://*.example.com/api/**","query":{"page":"2","q":null}}"#)
        #expect(requests.map(api.matches) == [true, false, false, false, false])
        let json = try matcher(#"{"jsonContains":{"user":{"id":42}},"port":1000,"pathRegex":"^/api/v[0-9]+/"}"#)
        #expect(requests.map(json.matches) == [false, false, true, false, false])
        let either = try matcher(#"{"anyOf":[{"body":"text"},{"headers":{"accept":"application/json"}}]}"#)
        #expect(requests.map(either.matches) == [false, true, false, false, true])
        let not = try matcher(#"{"not":{"scheme":"https"},"allOf":[{"host":"localhost"}]}"#)
        #expect(requests.map(not.matches) == [false, false, true, true, false])
        #expect(try matcher("{}").specificity == 0)
        #expect(try matcher(#"{"query":{},"queryExactly":true}"#).matches(request("http://a/")))
        #expect(try !matcher(#"{"queryExactly":true}"#).matches(request("http://a/?x")))
    }

    @Test("config → matcher → configuration → matcher keeps behaviour and specificity")
    func roundTrip() throws {
        let configurations = [
            #"{"url":"http://localhost:1000/api/**","method":"PUT","json":{"b":1,"user":{"id":42}}}"#,
            #"{"path":"/api/users/*/posts","query":{"page":["2"],"q":null},"queryExactly":true}"#,
            #"{"anyOf":[{"body":"text"},{"headers":{"Accept":"application/json"}}],"not":{"pathPrefix":"/x"}}"#,
            #"{"host":"*.example.com","pathGlob":"/api","bodyBase64":"dGV4dA==","headerContains":{"a":"b"}}"#,
        ]
        for json in configurations {
            let first = try matcher(json)
            let written = try #require(first.configuration)
            let second = try RequestMatcher(configuration: ConfigNode(value: written))
            #expect(requests.map(first.matches) == requests.map(second.matches))
            #expect(first.specificity == second.specificity)
        }
        let built =
            try RequestMatcher.url("https://*.example.com/api/**") && .query(["page": "2"]) && .header("Accept")
            && .jsonBodyContains(["user": ["id": 42]]) && (.method("GET") || !.formFields(["a": "b"]))
            && .body(Data([0xFF])) && .pathGlob("/api") && .path("/a/*")
        let written = try #require(built.configuration)
        let rebuilt = try RequestMatcher(configuration: ConfigNode(value: written))
        #expect(rebuilt.specificity == built.specificity)
        #expect(requests.map(rebuilt.matches) == requests.map(built.matches))
        #expect(rebuilt.configuration == written)
    }

    @Test("every error names the file and the JSON path")
    func errors() throws {
        let cases: [(String, String)] = [
            (#"{"pathRgex":"x"}"#, #"nettap.json: $.pathRgex: unknown key "pathRgex"; did you mean "pathRegex"?"#),
            (#"{"method":1}"#, "nettap.json: $.method: expected a string, found a number"),
            (
                #"{"anyOf":[{"method":"GET"},{"pathRegex":"(a"}]}"#,
                #"nettap.json: $.anyOf[1].pathRegex: invalid regular expression "(a": missing ")" to close "(" at character 1"#
            ),
            (
                #"{"url":"example.com"}"#,
                #"nettap.json: $.url: invalid URL pattern "example.com": missing scheme; write "https://example.com" or "*://example.com""#
            ),
            (#"{"port":0}"#, "nettap.json: $.port: port 0 is outside 1…65535"),
            (#"{"path":"users"}"#, #"nettap.json: $.path: a path must start with "/", found "users""#),
            (#"{"headers":{"A":1}}"#, "nettap.json: $.headers.A: expected a string, found a number"),
            (#"{"query":{"a":[1]}}"#, "nettap.json: $.query.a[0]: expected a string, found a number"),
            (#"{"anyOf":[]}"#, "nettap.json: $.anyOf: expected at least one matcher; an empty anyOf matches nothing"),
            (#"{"not":{"hots":"a"}}"#, #"nettap.json: $.not.hots: unknown key "hots"; did you mean "host"?"#),
            (
                #"{"host":"a.*.com"}"#,
                #"nettap.json: $.host: expected a host name or "*." followed by one, found "a.*.com""#
            ),
            (#"["method"]"#, "nettap.json: $: expected an object, found an array"),
        ]
        for (json, text) in cases {
            let error = try #require(throws: ConfigurationError.self) { try matcher(json) }
            #expect(error.description == text)
        }
        let syntax = try #require(throws: ConfigurationError.self) { try matcher("{\n\"method\": GET}") }
        #expect(syntax.description.hasPrefix("nettap.json:2:"))
    }
}
