import Foundation
import Testing

@testable import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Query and header matchers")
struct QueryHeaderMatcherTests {
    @Test("query items match in any order, nil means present with any value")
    func anyOrder() {
        let matcher = RequestMatcher.query(["page": "2", "q": nil])
        #expect(matcher.matches(request("http://a/?q=swift&sort=asc&page=2")))
        #expect(matcher.matches(request("http://a/?page=2&q")))
        #expect(matcher.explain(request("http://a/?page=3&q=x")) == .missed(#"query "page" was "3", expected "2""#))
        #expect(
            matcher.explain(request("http://a/?page=2&sort=asc"))
                == .missed(#"query had no "q", query was "page=2&sort=asc""#)
        )
        #expect(matcher.explain(request("http://a/")) == .missed(#"query had no "page", the request had no query"#))
        #expect(matcher.specificity == 6)
    }

    @Test("repeated names are a multiset")
    func multiset() {
        let matcher = RequestMatcher.query(items: [
            URLQueryItem(name: "a", value: "1"), URLQueryItem(name: "a", value: "2"),
        ])
        #expect(matcher.matches(request("http://a/?a=2&b=0&a=1")))
        #expect(matcher.explain(request("http://a/?a=1")) == .missed(#"query "a" was "1", expected "1", "2""#))
        #expect(!matcher.matches(request("http://a/?a=1&a=1")))
        let anyTwo = RequestMatcher.query(items: [
            URLQueryItem(name: "a", value: nil), URLQueryItem(name: "a", value: "1"),
        ])
        #expect(anyTwo.matches(request("http://a/?a=1&a=9")))
        #expect(!anyTwo.matches(request("http://a/?a=1")))
    }

    @Test("exactly rejects other items and scores 2 more")
    func exactly() {
        let matcher = RequestMatcher.query(["page": "2"], exactly: true)
        #expect(matcher.matches(request("http://a/?page=2")))
        #expect(matcher.explain(request("http://a/?page=2&x=1")) == .missed(#"query had unexpected "x=1""#))
        #expect(
            RequestMatcher.query(items: [URLQueryItem(name: "a", value: "1")], exactly: true)
                .explain(request("http://a/?a=1&a=2")) == .missed(#"query had unexpected "a=2""#)
        )
        #expect(matcher.specificity == 5)
        #expect(
            RequestMatcher.query([:], exactly: true).explain(request("http://a/?z"))
                == .missed(#"query had unexpected "z""#)
        )
    }

    @Test("query values are percent-decoded and + also counts as a space")
    func decoding() {
        #expect(RequestMatcher.query(["q": "a b"]).matches(request("http://a/?q=a%20b")))
        #expect(RequestMatcher.query(["q": "a b"]).matches(request("http://a/?q=a+b")))
        #expect(RequestMatcher.query(["q": "a+b"]).matches(request("http://a/?q=a+b")))
        #expect(RequestMatcher.query(["q": "a+b"]).matches(request("http://a/?q=a%2Bb")))
    }

    @Test("header names are case-insensitive, values exact")
    func headers() {
        let accept = RequestMatcher.header("accept", "application/json")
        #expect(accept.matches(request("http://a/", headers: ["Accept": "application/json"])))
        #expect(
            accept.explain(request("http://a/", headers: ["ACCEPT": "text/html"]))
                == .missed(#"header "accept" was "text/html", expected "application/json""#)
        )
        #expect(accept.explain(request("http://a/")) == .missed(#"request had no header "accept""#))
        #expect(RequestMatcher.header("X-Token").matches(request("http://a/", headers: ["x-token": ""])))
        #expect(
            !RequestMatcher.header("Accept", "Application/JSON").matches(
                request("http://a/", headers: ["Accept": "application/json"])
            )
        )
        #expect(accept.specificity == 3)
    }

    @Test("headerContains finds a substring")
    func headerContains() {
        let agent = RequestMatcher.headerContains("User-Agent", "Mozilla")
        #expect(agent.matches(request("http://a/", headers: ["user-agent": "Mozilla/5.0 (X11)"])))
        #expect(
            agent.explain(request("http://a/", headers: ["User-Agent": "curl/8.5"]))
                == .missed(#"header "User-Agent" was "curl/8.5", expected it to contain "Mozilla""#)
        )
        #expect(agent.specificity == 3)
    }
}
