import EcosystemStandIn
import Foundation
import NetTap
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An app that imports NetTap beside the ecosystem's names.
///
/// Modules declaring Alamofire's, swift-http-types', SwiftUI's and swift-clocks' names are imported, and every one
/// of those names is used unqualified next to NetTap's own types. That this file compiles is most of the test; the
/// test then runs a request through NetTap from the same code.
@Suite("NetTap's names live beside Alamofire, swift-http-types, SwiftUI and swift-clocks")
struct NameCoexistenceTests {
    @Test(
        "the ecosystem's Interceptor, HTTPHeaders, HTTPResponse, HTTPFields, Request, Session, Transaction and TestClock stay unqualified"
    )
    func ecosystemNamesUnqualified() async throws {
        let interceptor = Interceptor(adapterCount: 1)
        let headers: HTTPHeaders = ["Accept": "application/json"]
        let response = HTTPResponse(status: 200, headerFields: HTTPFields())
        let transaction = Transaction(disablesAnimations: true)
        let clock = TestClock()
        let request = Request()
        let session = Session.default
        #expect(interceptor.adapterCount == 1 && headers.dictionary.count == 1 && response.status == 200)
        #expect(transaction.disablesAnimations)
        #expect(
            ObjectIdentifier(clock) != ObjectIdentifier(request)
                && ObjectIdentifier(session) == ObjectIdentifier(Session.default)
        )

        // NetTap's own types, in the same scope.
        let tap = NetTapInterceptor()
        tap.handlers = [MockHandler(mocks: MockSet(stubs: [Stub("ok", matching: .any, response: .text("ok"))]))]
        let fields: HeaderFields = ["Content-Type": "text/plain"]
        let answer = HandlerResponse(statusCode: 204, headers: fields)
        let manual = ManualClock()
        let (data, _) = try await tap.makeSession(configuration: .ephemeral).data(
            from: try #require(URL(string: "https://app.test/x"))
        )
        let captured: CapturedTransaction = try #require(tap.captureLog.transactions.last)
        #expect(data == Data("ok".utf8))
        #expect(captured.answeredBy == "mock" && answer.statusCode == 204)
        let before = manual.now
        manual.advance(by: .seconds(5))
        #expect(before.duration(to: manual.now) == .seconds(5))
    }
}
