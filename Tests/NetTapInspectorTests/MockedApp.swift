import Foundation
import NetTapCore
import NetTapMocking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An app with a mock set (a stub with alternatives, a scenario) in front of ``AppServer``.
struct MockedApp {
    let interceptor = NetTapInterceptor()
    let mocks: MockSet
    let session: URLSession

    init() {
        mocks = MockSet(
            stubs: [
                Stub(
                    "profile",
                    matching: .path("/v1/profile"),
                    alternatives: [.init("full", .text("full profile")), .init("empty", .text("{}"))]
                )
            ],
            scenarios: [
                Scenario("server down", stubs: [Stub("all", matching: .pathPrefix("/v1"), response: .status(503))])
            ]
        )
        interceptor.handlers = [MockHandler(mocks: mocks), AppServer()]
        session = interceptor.makeSession(configuration: .ephemeral)
    }

    /// GETs `url` through the interceptor: the status and body, or the error code.
    func get(_ url: String) async -> (status: Int?, body: String, error: Int?) {
        guard let url = URL(string: url) else { return (nil, "", nil) }
        do {
            let (data, response) = try await session.data(from: url)
            return ((response as? HTTPURLResponse)?.statusCode, String(decoding: data, as: UTF8.self), nil)
        } catch {
            return (nil, "", (error as NSError).code)
        }
    }
}
