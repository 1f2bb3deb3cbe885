import Foundation
import NetTapCore
import NetTapRewrite
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("The rewrite section of nettap.json: every rule kind, and errors naming the file and the JSON path")
struct RewriteConfigurationTests {
    private static func rules(_ json: String) throws -> RewriteRules {
        try RewriteRules(configuration: ConfigNode(parsing: Data(json.utf8), source: "nettap.json"))
    }

    @Test("reads every kind of rule, in the order they apply")
    func readsEveryKind() throws {
        let rules = try Self.rules(
            """
            {
              "mapRemote": [
                {"from": "https://api.example.com/v1", "to": "http://127.0.0.1:8080/staging/v1"},
                {"from": "https://*.cdn.example.com", "to": "http://127.0.0.1:9000", "preserveHost": true,
                 "match": {"method": "GET"}}
              ],
              "requestHeaders": [{"set": {"X-Debug": "1"}, "remove": ["Authorization"], "add": {"Via": "nettap"}}],
              "responseHeaders": [{"remove": ["Server"], "match": {"host": "api.example.com"}}],
              "responseBody": [
                {"replace": "prod", "with": "staging"},
                {"jsonPath": "$.user.name", "value": "Test"},
                {"jsonPath": "$.flags.beta", "value": null},
                {"jsonPath": "$.ads", "remove": true, "match": {"path": "/home"}}
              ],
              "bodyBufferLimit": "2 MiB"
            }
            """
        )
        #expect(rules.bodyBufferLimit == 2 * 1024 * 1024)
        #expect(rules.mapRemote.count == 2)
        #expect(rules.mapRemote[1].preservesHostHeader)
        #expect(
            rules.lines() == [
                "map remote https://api.example.com/v1 → http://127.0.0.1:8080/staging/v1",
                "map remote https://*.cdn.example.com → http://127.0.0.1:9000 if method == GET",
                "request header remove Authorization", "request header set X-Debug: 1",
                "request header add Via: nettap", "response header remove Server if host == api.example.com",
                #"response body replace "prod" with "staging""#, #"response body set $.user.name to "Test""#,
                "response body set $.flags.beta to null", "response body remove $.ads if path == /home",
            ]
        )
        let secret = try Self.rules(
            #"{"requestHeaders": [{"set": {"Authorization": "Bearer s3cr3t"}}], "#
                + #""responseBody": [{"jsonPath": "$.user.token", "value": "t0k3n"}]}"#
        )
        #expect(
            secret.lines() == [
                "request header set Authorization: [redacted]", "response body set $.user.token to [redacted]",
            ]
        )
        #expect(rules.responseBody[2].operation == .jsonValue(path: "$.flags.beta", value: .null))
    }

    @Test(
        "a bad rule is reported at its own JSON path with the file's name",
        arguments: [
            (
                #"{"mapRemote": [{"from": "api.example.com", "to": "http://x"}]}"#, "$.mapRemote[0].from",
                "missing scheme"
            ),
            (#"{"mapRemote": [{"from": "https://a.com", "to": "https://*.b.com"}]}"#, "$.mapRemote[0].to", "wildcard"),
            (#"{"mapRemote": [{"from": "https://a.com"}]}"#, "$.mapRemote[0]", #"missing required key "to""#),
            (
                #"{"mapRemote": [{"from": "https://a.com", "to": "http://b", "match": {"pathRgex": "x"}}]}"#,
                "$.mapRemote[0].match.pathRgex", #"did you mean "pathRegex""#
            ),
            (
                #"{"requestHeaders": [{"set": {"X Debug": "1"}}]}"#, #"$.requestHeaders[0].set["X Debug"]"#,
                "invalid header name"
            ),
            (#"{"responseHeaders": [{"remove": [7]}]}"#, "$.responseHeaders[0].remove[0]", "expected a string"),
            (#"{"responseHeaders": [{"match": {}}]}"#, "$.responseHeaders[0]", "a header rule needs"),
            (
                #"{"responseBody": [{"jsonPath": "user.name", "value": 1}]}"#, "$.responseBody[0].jsonPath",
                "invalid JSON path"
            ),
            (#"{"responseBody": [{"jsonPath": "$.a"}]}"#, "$.responseBody[0]", #"needs "value""#),
            (#"{"responseBody": [{"jsonPath": "$.a", "value": 1, "remove": true}]}"#, "$.responseBody[0]", "not both"),
            (#"{"responseBody": [{"replace": "", "with": "x"}]}"#, "$.responseBody[0].replace", "empty"),
            (#"{"responseBody": [{"replace": "a"}]}"#, "$.responseBody[0]", #"missing required key "with""#),
            (#"{"responseBody": [{"with": "a"}]}"#, "$.responseBody[0]", "a body rule needs"),
            (#"{"responseBody": [{"replace": "a", "with": "b", "jsonPath": "$"}]}"#, "$.responseBody[0]", "not both"),
            (#"{"mapRemotes": []}"#, "$.mapRemotes", #"did you mean "mapRemote""#),
            (#"{"bodyBufferLimit": "lots"}"#, "$.bodyBufferLimit", "invalid size"),
        ]
    )
    func badRule(json: String, path: String, message: String) {
        #expect {
            _ = try Self.rules(json)
        } throws: { error in
            guard let failure = error as? ConfigurationError else { return false }
            return failure.source == "nettap.json" && failure.path == path && failure.message.contains(message)
        }
    }
}
