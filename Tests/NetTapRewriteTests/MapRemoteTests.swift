import Foundation
import NetTapCore
import Testing

@testable import NetTapRewrite

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("MapRemote: which URLs a rule takes, where they go and what the app is shown")
struct MapRemoteTests {
    private static func url(_ text: String) throws -> URL {
        try #require(URL(string: text))
    }

    @Test(
        "keeps the rest of the path and the query, at segment boundaries",
        arguments: [
            (
                "https://api.example.com/v1/users?page=2&q=a%20b",
                "http://127.0.0.1:8080/staging/v1/users?page=2&q=a%20b"
            ),
            ("https://api.example.com/v1", "http://127.0.0.1:8080/staging/v1"),
            ("https://api.example.com/v1/", "http://127.0.0.1:8080/staging/v1/"),
            ("https://API.Example.com:443/v1/a%2Fb", "http://127.0.0.1:8080/staging/v1/a%2Fb"),
        ]
    )
    func maps(from original: String, to expected: String) throws {
        let rule = try MapRemote(from: "https://api.example.com/v1", to: "http://127.0.0.1:8080/staging/v1")
        #expect(rule.mappedURL(for: try Self.url(original))?.absoluteString == expected)
    }

    @Test(
        "leaves URLs that are not under the prefix",
        arguments: [
            "https://api.example.com/v1beta/users", "https://api.example.com/v2", "http://api.example.com/v1",
            "https://api.example.com:8443/v1", "https://other.example.com/v1", "https://api.example.com/",
        ]
    )
    func leaves(_ original: String) throws {
        let rule = try MapRemote(from: "https://api.example.com/v1", to: "http://127.0.0.1:8080/staging/v1")
        #expect(rule.mappedURL(for: try Self.url(original)) == nil)
    }

    @Test("a prefix with a trailing slash takes only what is under it; a root prefix takes the whole host")
    func trailingSlashAndRoot() throws {
        let under = try MapRemote(from: "https://api.example.com/v1/", to: "http://localhost:9000/")
        #expect(under.mappedURL(for: try Self.url("https://api.example.com/v1")) == nil)
        #expect(
            under.mappedURL(for: try Self.url("https://api.example.com/v1/users"))?.absoluteString
                == "http://localhost:9000/users"
        )
        let host = try MapRemote(from: "https://api.example.com", to: "http://[::1]:9000/mirror")
        #expect(
            host.mappedURL(for: try Self.url("https://api.example.com/a/b?c=d"))?.absoluteString
                == "http://[::1]:9000/mirror/a/b?c=d"
        )
        // An empty path goes on the wire as "/".
        #expect(
            host.mappedURL(for: try Self.url("https://api.example.com"))?.absoluteString == "http://[::1]:9000/mirror/"
        )
    }

    @Test("a wildcard host takes every subdomain but not the domain itself")
    func wildcardHost() throws {
        let rule = try MapRemote(from: "https://*.example.com", to: "https://staging.example.net")
        #expect(
            rule.mappedURL(for: try Self.url("https://cdn.eu.example.com/app.js"))?.absoluteString
                == "https://staging.example.net/app.js"
        )
        #expect(rule.mappedURL(for: try Self.url("https://example.com/app.js")) == nil)
        #expect(rule.mappedURL(for: try Self.url("https://badexample.com/app.js")) == nil)
    }

    @Test("the app is shown its own URL, also after a redirect on the mapped server; another server shows as itself")
    func presentedURL() throws {
        let rule = try MapRemote(from: "https://api.example.com/v1", to: "http://127.0.0.1:8080/staging/v1")
        let original = try Self.url("https://api.example.com/v1/login?next=1")
        let cases = [
            ("http://127.0.0.1:8080/staging/v1/login?next=1", "https://api.example.com/v1/login?next=1"),
            ("http://127.0.0.1:8080/staging/v1/home", "https://api.example.com/v1/home"),
            ("http://127.0.0.1:8080/elsewhere?x=1", "https://api.example.com/elsewhere?x=1"),
            ("https://auth.example.org/sso", "https://auth.example.org/sso"),
            ("http://127.0.0.1:9999/staging/v1/home", "http://127.0.0.1:9999/staging/v1/home"),
        ]
        for (received, shown) in cases {
            #expect(rule.presentedURL(for: try Self.url(received), requested: original).absoluteString == shown)
        }
    }

    @Test(
        "a prefix that is not one gets an error naming it and what is wrong",
        arguments: [
            ("api.example.com/v1", "missing scheme"),
            ("ftp://api.example.com", "the scheme must be http or https"),
            ("https://api.example.com/v1?x=1", "no query"),
            ("https://api.example.com/#top", "no fragment"),
            ("https://user@api.example.com", "no user name"),
            ("https://api.example.com:0", "the port must be a number from 1 to 65535"),
            ("https://api.example.com:http", "the port must be a number"),
            ("https://", "missing host"),
            ("https://api example.com", "invalid host"),
        ]
    )
    func badPrefix(text: String, message: String) {
        #expect {
            _ = try MapRemote(from: text, to: "http://127.0.0.1:8080")
        } throws: { error in
            let failure = error as? RewriteRuleError
            return failure?.kind == .mapRemoteURL && failure?.input == text
                && (failure?.message.contains(message) ?? false)
        }
    }

    @Test("the target may not be a wildcard")
    func wildcardTarget() {
        #expect(throws: RewriteRuleError.self) {
            _ = try MapRemote(from: "https://api.example.com", to: "https://*.example.net")
        }
    }

    @Test("the matcher narrows which requests under the prefix the rule takes")
    func matcherNarrows() throws {
        let rule = try MapRemote(
            from: "https://api.example.com",
            to: "http://127.0.0.1:8080",
            matching: .method("GET")
        )
        var post = URLRequest(url: try Self.url("https://api.example.com/a"))
        post.httpMethod = "POST"
        #expect(!rule.takes(post))
        #expect(rule.takes(URLRequest(url: try Self.url("https://api.example.com/a"))))
        #expect(rule.label == "https://api.example.com → http://127.0.0.1:8080 if method == GET")
    }
}
