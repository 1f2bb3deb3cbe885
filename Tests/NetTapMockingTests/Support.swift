import Foundation
import NetTapCore
import NetTapMocking
import NetTapTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request for `https://api.example.com` + `path`.
func request(_ path: String, method: String = "GET") -> URLRequest {
    var request = URLRequest(url: URL(string: "https://api.example.com" + path)!)
    request.httpMethod = method
    return request
}

/// A harness around one mock handler, with a transport that answers `network` when reached.
func harness(
    _ mocks: MockSet,
    unmatched: MockHandler.UnmatchedPolicy = .fail,
    clock: any Clock<Duration> = ContinuousClock(),
    transport: FakeTransport = FakeTransport(body: Data("network".utf8))
) -> PipelineHarness {
    PipelineHarness(handlers: [MockHandler(mocks: mocks, unmatched: unmatched)], transport: transport, clock: clock)
}

/// A temporary directory removed by the caller.
func temporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nettap-mocking-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

extension PipelineHarness.Result {
    /// The body as UTF-8 text.
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A clock whose sleeps end at once: for tests about what is answered, not when.
struct ImmediateClock: Clock {
    var now: ContinuousClock.Instant { ContinuousClock.now }
    var minimumResolution: Duration { .nanoseconds(1) }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
    }
}
