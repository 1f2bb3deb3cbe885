import Foundation
import NetTapCore
import NetTapMocking
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("A dynamic stub runs the app's closure off URLSession's queue")
struct DynamicStubSessionTests {
    @Test("a closure that creates a URLSession task before it awaits answers instead of trapping")
    func closureCallingURLSession() async throws {
        let side = URLSession(configuration: .ephemeral)
        defer { side.invalidateAndCancel() }
        let stub = Stub(
            "creates-task",
            matching: .any,
            response: .dynamic { request in
                // Creating a task waits on URLSession's process-wide queue: it traps when made on that queue.
                side.dataTask(with: URL(string: "http://side.invalid/")!).cancel()
                return .text("dynamic \(request.url?.path ?? "")")
            }
        )
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [MockHandler(mocks: MockSet(stubs: [stub]))]
        let session = interceptor.makeSession()
        defer { session.invalidateAndCancel() }
        for path in ["/a", "/b", "/c"] {
            let (data, _) = try await session.data(from: URL(string: "http://stub.invalid" + path)!)
            #expect(String(decoding: data, as: UTF8.self) == "dynamic " + path)
        }
    }
}
