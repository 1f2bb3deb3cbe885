import Foundation
import Testing

@testable import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Redirect rules (RFC 9110 §15.4)")
struct RedirectRulesTests {
    private func post(_ method: String = "POST") -> URLRequest {
        var request = URLRequest(url: URL(string: "http://127.0.0.1/start")!)
        request.httpMethod = method
        request.httpBody = Data("hello-body".utf8)
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        request.setValue("a=1", forHTTPHeaderField: "Cookie")
        return request
    }

    private func suggested(from request: URLRequest) -> URLRequest {
        var next = request
        next.url = URL(string: "http://127.0.0.1/next")!
        return next
    }

    @Test("307 and 308 keep the method and the body", arguments: [307, 308])
    func keepBody(status: Int) {
        let previous = post()
        var suggestion = suggested(from: previous)
        suggestion.httpBody = nil
        let next = ForwardingExchange.nextHop(from: previous, suggested: suggestion, statusCode: status)
        #expect(next.httpMethod == "POST")
        #expect(next.httpBody == Data("hello-body".utf8))
        #expect(next.value(forHTTPHeaderField: "Cookie") == nil)
    }

    @Test("301 and 302 turn POST into GET without a body", arguments: [301, 302])
    func postBecomesGet(status: Int) {
        let previous = post()
        let next = ForwardingExchange.nextHop(from: previous, suggested: suggested(from: previous), statusCode: status)
        #expect(next.httpMethod == "GET")
        #expect(next.httpBody == nil)
        #expect(next.value(forHTTPHeaderField: "Content-Type") == nil)
    }

    @Test("301 keeps PUT with its body")
    func putKept() {
        let previous = post("PUT")
        let next = ForwardingExchange.nextHop(from: previous, suggested: suggested(from: previous), statusCode: 301)
        #expect(next.httpMethod == "PUT")
        #expect(next.httpBody == Data("hello-body".utf8))
    }

    @Test("303 turns everything but HEAD into GET", arguments: ["POST", "PUT", "DELETE", "HEAD"])
    func seeOther(method: String) {
        let previous = post(method)
        let next = ForwardingExchange.nextHop(from: previous, suggested: suggested(from: previous), statusCode: 303)
        #expect(next.httpMethod == (method == "HEAD" ? "HEAD" : "GET"))
        #expect(next.httpBody == nil)
    }
}
