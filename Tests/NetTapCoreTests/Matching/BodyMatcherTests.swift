import Foundation
import Testing

@testable import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Body, JSON and form matchers")
struct BodyMatcherTests {
    @Test("an exact body compares bytes")
    func exactBody() {
        let matcher = RequestMatcher.body("hello")
        #expect(matcher.matches(request("http://a/", method: "POST", body: "hello")))
        #expect(matcher.explain(request("http://a/", body: "hellp")) == .missed(#"body was "hellp", expected "hello""#))
        #expect(matcher.explain(request("http://a/")) == .missed("request had no body, expected 5 bytes"))
        let long = String(repeating: "x", count: 50)
        #expect(
            RequestMatcher.body(long).explain(request("http://a/", body: long + "y"))
                == .missed("body was 51 bytes, expected 50 bytes, first difference at byte 50")
        )
        #expect(RequestMatcher.body(Data([0xFF, 0x00])).matches(request("http://a/").withBody(Data([0xFF, 0x00]))))
        #expect(matcher.specificity == 6)
    }

    @Test("JSON equality ignores key order and treats 1 and 1.0 alike")
    func jsonEquality() {
        let matcher = RequestMatcher.jsonBody(["user": ["id": 1, "name": "a"], "ok": true])
        #expect(matcher.matches(request("http://a/", body: #"{"ok":true,"user":{"name":"a","id":1.0}}"#)))
        #expect(
            matcher.explain(request("http://a/", body: #"{"ok":true,"user":{"name":"a","id":41}}"#))
                == .missed("$.user.id was 41, expected 1")
        )
        #expect(
            matcher.explain(request("http://a/", body: #"{"ok":true,"user":{"name":"a","id":1,"x":0}}"#))
                == .missed(#"$.user had unexpected member "x""#)
        )
        #expect(
            matcher.explain(request("http://a/", body: #"{"user":{"name":"a","id":1}}"#))
                == .missed("$.ok was missing, expected true")
        )
        #expect(matcher.specificity == 6)
    }

    @Test("a body that is not JSON misses with the parser's reason")
    func notJSON() {
        let matcher = RequestMatcher.jsonBody(["a": 1])
        #expect(
            matcher.explain(request("http://a/", body: "hello"))
                == .missed(#"body is not JSON at line 1, column 1: unexpected "hello" where a JSON value should start"#)
        )
        #expect(matcher.explain(request("http://a/")) == .missed("request had no body, expected JSON"))
        #expect(
            RequestMatcher.jsonBody([1, 2]).explain(request("http://a/", body: "[1,2,3]"))
                == .missed("$ had 3 elements, expected 2")
        )
    }

    @Test("JSON containment allows extra members at any depth")
    func jsonSubset() {
        let matcher = RequestMatcher.jsonBodyContains(["user": ["id": 42, "tags": [["k": "a"]]]])
        #expect(
            matcher.matches(
                request("http://a/", body: #"{"user":{"id":42,"name":"n","tags":[{"k":"a","v":1}]},"x":1}"#)
            )
        )
        #expect(
            matcher.explain(request("http://a/", body: #"{"user":{"id":41,"tags":[{"k":"a"}]}}"#))
                == .missed("$.user.id was 41, expected 42")
        )
        #expect(
            matcher.explain(request("http://a/", body: #"{"user":{"id":42,"tags":[{"k":"b"}]}}"#))
                == .missed(#"$.user.tags[0].k was "b", expected "a""#)
        )
        #expect(matcher.specificity == 4)
    }

    @Test("form fields decode + and %20 as spaces and allow other fields")
    func form() {
        let matcher = RequestMatcher.formFields(["user": "Jo Ann", "city": "a&b"])
        #expect(matcher.matches(request("http://a/", body: "x=1&user=Jo+Ann&city=a%26b")))
        #expect(matcher.matches(request("http://a/", body: "user=Jo%20Ann&city=a%26b")))
        #expect(
            matcher.explain(request("http://a/", body: "user=Jo&city=a%26b"))
                == .missed(#"form field "user" was "Jo", expected "Jo Ann""#)
        )
        #expect(
            matcher.explain(request("http://a/", body: "user=Jo+Ann&x=%zz"))
                == .missed(#"form had no field "city", fields were user, x"#)
        )
        #expect(matcher.specificity == 6)
    }
}

extension URLRequest {
    fileprivate func withBody(_ data: Data) -> URLRequest {
        var copy = self
        copy.httpBody = data
        return copy
    }
}
