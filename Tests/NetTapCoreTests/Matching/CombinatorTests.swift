import Foundation
import Testing

@testable import NetTapCore

@Suite("Combining matchers")
struct CombinatorTests {
    @Test("&& explains the first failing part and adds specificity")
    func and() {
        let matcher = RequestMatcher.method("POST") && .pathGlob("/users/*") && .header("Accept")
        #expect(matcher.specificity == 1 + 11 + 3)
        #expect(matcher.explain(request("http://a/users/1")) == .missed("method was GET, expected POST"))
        #expect(
            matcher.explain(request("http://a/users/1", method: "POST"))
                == .missed(#"request had no header "Accept""#)
        )
    }

    @Test("|| gives both reasons and the lower specificity; ! scores 0")
    func orNot() {
        let matcher = RequestMatcher.path("/a") || .pathPrefix("/b")
        #expect(matcher.specificity == 5)
        #expect(
            matcher.explain(request("http://h/c"))
                == .missed(#"path was "/c", expected "/a"; and path was "/c", expected a path under "/b""#)
        )
        let negated = !RequestMatcher.method("GET")
        #expect(negated.specificity == 0)
        #expect(negated.explain(request("http://h/")) == .missed("request matched method == GET"))
    }

    @Test("configuration merges && parts, and writes allOf, anyOf and not")
    func configuration() {
        let merged = RequestMatcher.method("post") && .path("/login") && .header("A", "1") && .header("B", nil)
        #expect(merged.configuration == ["method": "POST", "path": "/login", "headers": ["A": "1", "B": nil]])
        let collide = RequestMatcher.pathPrefix("/a") && .pathPrefix("/a/b") && .method("GET")
        #expect(collide.configuration == ["allOf": [["pathPrefix": "/a"], ["pathPrefix": "/a/b"]], "method": "GET"])
        let either = RequestMatcher.host("a") || .host("b") || .host("c")
        #expect(either.configuration == ["anyOf": [["host": "a"], ["host": "b"], ["host": "c"]]])
        #expect((!RequestMatcher.method("GET")).configuration == ["not": ["method": "GET"]])
        let closure = RequestMatcher(description: "custom", specificity: 1) { _ in .matched }
        #expect(closure.configuration == nil)
        #expect((closure && .method("GET")).configuration == nil)
        #expect((RequestMatcher.any && .method("GET")).configuration == ["method": "GET"])
        #expect(RequestMatcher.path("/files/*").configuration == ["pathExactly": "/files/*"])
        #expect(RequestMatcher.pathGlob("/users").configuration == ["pathGlob": "/users"])
    }
}
