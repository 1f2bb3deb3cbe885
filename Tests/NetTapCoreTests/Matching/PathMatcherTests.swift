import Foundation
import Testing

@testable import NetTapCore

@Suite("Path globs, regular expressions and URL patterns")
struct PathMatcherTests {
    @Test("* stands for exactly one segment")
    func oneSegment() {
        let glob = RequestMatcher.pathGlob("/users/*/posts")
        #expect(glob.matches(request("http://a/users/42/posts")))
        #expect(!glob.matches(request("http://a/users/posts")))
        #expect(!glob.matches(request("http://a/users/1/2/posts")))
        #expect(
            glob.explain(request("http://a/users/posts"))
                == .missed("path was \"/users/posts\", expected a path matching \"/users/*/posts\"")
        )
        #expect(glob.specificity == 12)
        #expect(glob.description == "path matches /users/*/posts")
    }

    @Test("** stands for any number of segments, zero included")
    func anySegments() {
        let glob = RequestMatcher.pathGlob("/api/**")
        #expect(glob.matches(request("http://a/api")))
        #expect(glob.matches(request("http://a/api/")))
        #expect(glob.matches(request("http://a/api/v1/users/3")))
        #expect(!glob.matches(request("http://a/apiary")))
        let middle = RequestMatcher.pathGlob("/**/posts")
        #expect(middle.matches(request("http://a/posts")))
        #expect(middle.matches(request("http://a/x/y/posts")))
        #expect(!middle.matches(request("http://a/x/posts/1")))
        #expect(RequestMatcher.pathGlob("/**").specificity == 10)
    }

    @Test("a trailing slash does not matter, and * inside a segment is literal")
    func trailingSlashAndLiteralStar() {
        #expect(RequestMatcher.pathGlob("/users/*/posts").matches(request("http://a/users/1/posts/")))
        #expect(RequestMatcher.pathGlob("/users/").matches(request("http://a/users")))
        #expect(RequestMatcher.pathGlob("/a*b").matches(request("http://a/a*b")))
        #expect(!RequestMatcher.pathGlob("/a*b").matches(request("http://a/axb")))
        #expect(RequestMatcher.pathGlob("/").matches(request("http://a")))
    }

    @Test("percent-encoded segments are decoded one by one")
    func percentEncoded() {
        #expect(RequestMatcher.pathGlob("/files/a b").matches(request("http://a/files/a%20b")))
        #expect(RequestMatcher.pathGlob("/files/a%20b").matches(request("http://a/files/a%20b")))
        // An encoded slash stays inside its segment, so * covers it.
        #expect(RequestMatcher.pathGlob("/files/*").matches(request("http://a/files/a%2Fb")))
        #expect(!RequestMatcher.pathGlob("/files/*/*").matches(request("http://a/files/a%2Fb")))
    }

    @Test("a regular expression searches the decoded path with the user's anchors")
    func regex() throws {
        let versioned = try RequestMatcher.pathRegex("^/v[0-9]+/")
        #expect(versioned.matches(request("http://a/v2/users")))
        #expect(
            versioned.explain(request("http://a/x/v2/"))
                == .missed("path was \"/x/v2/\", expected a match for /^/v[0-9]+//")
        )
        #expect(try RequestMatcher.pathRegex("users").matches(request("http://a/api/users/1")))
        #expect(try RequestMatcher.pathRegex("a b$").matches(request("http://a/x/a%20b")))
        #expect(versioned.specificity == 8)
    }

    @Test("a bad regular expression throws a MatcherError naming the pattern and the place")
    func badRegex() throws {
        let unclosed = try #require(throws: MatcherError.self) { try RequestMatcher.pathRegex("^/users/(") }
        #expect(
            unclosed.description == #"invalid regular expression "^/users/(": missing ")" to close "(" at character 9"#
        )
        #expect(unclosed.offset == 8)
        #expect(unclosed.kind == .regularExpression)
        let nothing = try #require(throws: MatcherError.self) { try RequestMatcher.pathRegex("*a") }
        #expect(nothing.message == #""*" has nothing to repeat at character 1"#)
        let unmatched = try #require(throws: MatcherError.self) { try RequestMatcher.pathRegex("a)") }
        #expect(unmatched.message == #"unmatched ")" at character 2"#)
        let bracket = try #require(throws: MatcherError.self) { try RequestMatcher.pathRegex("[a-") }
        #expect(bracket.message == #"missing "]" to close "[" at character 1"#)
    }

    @Test("a URL pattern is scheme, host, port and path glob")
    func urlPattern() throws {
        let pattern = try RequestMatcher.url("https://*.example.com/users/*/posts")
        #expect(pattern.matches(request("https://api.example.com/users/1/posts")))
        #expect(
            pattern.explain(request("http://api.example.com/users/1/posts"))
                == .missed(#"scheme was "http", expected "https""#)
        )
        #expect(!pattern.matches(request("https://example.com/users/1/posts")))
        #expect(pattern.specificity == 1 + 5 + 12)
        let local = try RequestMatcher.url("http://localhost:1000/api/**")
        #expect(local.matches(request("http://localhost:1000/api")))
        #expect(local.explain(request("http://localhost:1001/api")) == .missed("port was 1001, expected 1000"))
        let anyPath = try RequestMatcher.url("https://example.com")
        #expect(anyPath.matches(request("https://example.com/a/b?c")))
        #expect(anyPath.specificity == 11)
        #expect(try RequestMatcher.url("*://*/**").specificity == 0)
        #expect(try RequestMatcher.url("https://example.com:443/").matches(request("https://example.com/")))
    }

    @Test("a bad URL pattern names the pattern and the fault")
    func badURLPattern() throws {
        let cases: [(String, String)] = [
            (
                "example.com/api",
                #"invalid URL pattern "example.com/api": missing scheme; write "https://example.com/api" or "*://example.com/api""#
            ),
            ("https:///api", #"invalid URL pattern "https:///api": missing host; write "*" for any host"#),
            (
                "https://a.*.com/",
                #"invalid URL pattern "https://a.*.com/": "*" in a host must be the whole host or a leading "*.""#
            ),
            (
                "http://a:99999/",
                #"invalid URL pattern "http://a:99999/": invalid port "99999"; expected 1…65535 or "*""#
            ),
            (
                "http://a/x?y=1",
                #"invalid URL pattern "http://a/x?y=1": a query or fragment cannot be part of a URL pattern; match queries with "query""#
            ),
        ]
        for (pattern, text) in cases {
            let error = try #require(throws: MatcherError.self) { try RequestMatcher.url(pattern) }
            #expect(error.description == text)
        }
    }
}
