import Foundation
import Testing

@testable import NetTapCore

@Suite("Host patterns and the allow/deny precedence")
struct HostScopeTests {
    @Test("an exact pattern matches the host case-insensitively, and nothing else")
    func exact() throws {
        let pattern = try HostPattern("API.example.com")
        #expect(pattern.matches(host: "api.example.com"))
        #expect(pattern.matches(host: "Api.Example.COM."))
        #expect(!pattern.matches(host: "v2.api.example.com"))
        #expect(!pattern.matches(host: "example.com"))
        #expect(pattern.description == "api.example.com")
    }

    @Test("*.example.com matches subdomains at any depth but not example.com itself")
    func wildcard() throws {
        let pattern = try HostPattern("*.example.com")
        #expect(pattern.matches(host: "api.example.com"))
        #expect(pattern.matches(host: "a.b.example.com"))
        #expect(!pattern.matches(host: "example.com"))
        #expect(!pattern.matches(host: "badexample.com"))
        #expect(pattern == (try HostPattern.subdomains(of: "example.com")))
    }

    @Test("a regular expression must match the whole host, case-insensitively")
    func regex() throws {
        let pattern = try HostPattern(#"regex:api[0-9]+\.example\.com"#)
        #expect(pattern.matches(host: "api12.example.com"))
        #expect(pattern.matches(host: "API1.example.com"))
        #expect(!pattern.matches(host: "api.example.com"))
        #expect(!pattern.matches(host: "xapi1.example.com.evil"))
        #expect(pattern.description == #"regex:api[0-9]+\.example\.com"#)
    }

    @Test("IP literals match as hosts, with or without IPv6 brackets")
    func ipLiterals() throws {
        #expect(try HostPattern("127.0.0.1").matches(host: "127.0.0.1"))
        #expect(try !HostPattern("127.0.0.1").matches(host: "localhost"))
        #expect(try HostPattern("::1").matches(host: "[::1]"))
        #expect(try HostPattern("[::1]").matches(host: "::1"))
    }

    @Test(
        "a pattern that cannot be read names the pattern and the fault",
        arguments: [
            ("regex:^(api", #"invalid regular expression "^(api": missing ")" to close "(" at character 2"#),
            ("regex:a)(b", #"invalid regular expression "a)(b": unmatched ")" at character 2"#),
            ("regex:", #"invalid regular expression "": the pattern is empty"#),
            (
                "example.com:8080",
                #"invalid host pattern "example.com:8080": a host pattern names a host only; the port is not compared (write it without ":port")"#
            ),
            (
                "api.*.com",
                #"invalid host pattern "api.*.com": "*" is allowed only as a leading "*." (subdomains); use "regex:" for more"#
            ),
            ("", #"invalid host pattern "": the host is empty"#),
            (
                "a..b",
                #"invalid host pattern "a..b": a host name has no empty label (nothing between two dots, or a leading dot)"#
            ),
            (
                "*..example.com",
                #"invalid host pattern "*..example.com": a host name has no empty label (nothing between two dots, or a leading dot)"#
            ),
            (
                "https://example.com",
                #"invalid host pattern "https://example.com": a host pattern names a host only, without scheme or path"#
            ),
        ]
    )
    func invalid(text: String, message: String) {
        #expect {
            _ = try HostPattern(text)
        } throws: { error in
            (error as? MatcherError)?.description == message
        }
    }

    /// The precedence table of `HostScope`, row by row.
    @Test(
        "deny wins over allow, and an empty allow list allows every host",
        arguments: [
            ([String](), [String](), "a.example.com", true),
            ([], ["a.example.com"], "a.example.com", false),
            ([], ["a.example.com"], "b.example.com", true),
            (["*.example.com"], [], "a.example.com", true),
            (["*.example.com"], [], "example.org", false),
            (["*.example.com"], ["a.example.com"], "a.example.com", false),
            (["*.example.com"], ["a.example.com"], "b.example.com", true),
            (["regex:.*"], ["regex:.*"], "anything", false),
        ]
    )
    func precedence(allow: [String], deny: [String], host: String, included: Bool) throws {
        let scope = try HostScope.parsing(allowHosts: allow, denyHosts: deny)
        #expect(scope.includes(host: host) == included)
    }

    @Test("a URL is judged by its host alone: scheme, port and path do not matter")
    func urlHostOnly() throws {
        let scope = try HostScope.parsing(denyHosts: ["localhost", "::1"])
        #expect(!scope.includes(URL(string: "http://localhost:8080/x?y=1")))
        #expect(!scope.includes(URL(string: "https://LOCALHOST/")))
        #expect(!scope.includes(URL(string: "http://[::1]:8080/")))
        #expect(scope.includes(URL(string: "http://127.0.0.1:8080/x")))
        #expect(try HostScope.parsing(allowHosts: ["a.example"]).includes(nil) == false)
        #expect(HostScope.everyHost.includes(nil))
    }
}

@Suite("The scope section of nettap.json")
struct HostScopeConfigurationTests {
    private func scope(_ json: String) throws -> HostScope {
        let root = try ConfigNode(parsing: Data(json.utf8), source: "nettap.json")
        return try HostScope(configuration: try root.requiredChild("scope"))
    }

    @Test("reads allow and deny lists of strings, with regex: for regular expressions")
    func reads() throws {
        let scope = try scope(
            #"{"scope": {"allowHosts": ["*.example.com", "regex:^api[0-9]+\\.example\\.net$"], "denyHosts": ["auth.example.com"]}}"#
        )
        #expect(scope.allowHosts == [try .subdomains(of: "example.com"), try .regex(#"^api[0-9]+\.example\.net$"#)])
        #expect(scope.denyHosts == [try .exact("auth.example.com")])
        #expect(scope.includes(host: "api7.example.net"))
        #expect(!scope.includes(host: "auth.example.com"))
    }

    @Test(
        "errors name the file and the JSON path",
        arguments: [
            (
                #"{"scope": {"denyHosts": ["ok.example", "regex:^(api"]}}"#,
                #"nettap.json: $.scope.denyHosts[1]: invalid regular expression "^(api": missing ")" to close "(" at character 2"#
            ),
            (
                #"{"scope": {"allowHosts": [42]}}"#,
                "nettap.json: $.scope.allowHosts[0]: expected a string, found a number"
            ),
            (
                #"{"scope": {"denyHosts": "a.example"}}"#,
                "nettap.json: $.scope.denyHosts: expected an array, found a string"
            ),
        ]
    )
    func errors(json: String, message: String) {
        #expect {
            _ = try scope(json)
        } throws: { error in
            (error as? ConfigurationError)?.description == message
        }
    }

    @Test("an unknown key is named with a suggestion")
    func unknownKey() {
        #expect {
            _ = try scope(#"{"scope": {"denyHost": []}}"#)
        } throws: { error in
            let text = (error as? ConfigurationError)?.description ?? ""
            return text.hasPrefix("nettap.json: $.scope.denyHost: unknown key \"denyHost\"")
                && text.contains("denyHosts")
        }
    }

    @Test("load(contentsOf:) reads the scope section of a file")
    func load() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nettap-scope-\(UUID().uuidString).json"
        )
        try Data(#"{"scope": {"denyHosts": ["*.tracker.example"]}, "shaping": {}}"#.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let scope = try HostScope.load(contentsOf: url)
        #expect(scope.denyHosts == [try .subdomains(of: "tracker.example")])
    }
}
