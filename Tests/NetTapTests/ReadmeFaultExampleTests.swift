import Foundation
import NetTap
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The README's "Faults inside a body" example, compiled and run.
@Suite("README body-fault example")
struct ReadmeFaultExampleTests {
    /// The body-fault example, line for line (checked by ``faultsMatchReadme()``).
    private func faultExample(interceptor: NetTapInterceptor, report: Data) -> (faults: MockSet, request: URLRequest) {
        // README-BEGIN faults
        let faults = MockSet(stubs: [
            Stub(
                "report",
                matching: .path("/v1/report.pdf"),
                response: .data(report).withFault(.truncate(afterBytes: 4096))
            ),
            Stub(
                "feed",
                matching: .path("/v1/feed"),
                response: .json(["items": [1, 2]]).withFault(.dropConnection(afterBytes: 5))
            ),
            Stub("status", matching: .path("/v1/status"), response: .text("ok").withFault(.stall(afterBytes: 0))),
        ])
        interceptor.handlers = [MockHandler(mocks: faults)]

        var request = URLRequest(url: URL(string: "https://api.nettap.example/v1/status")!)
        request.timeoutInterval = 2  // a stall ends with the platform's own -1001 once this passes
        // README-END faults
        return (faults, request)
    }

    @Test("the body-fault example runs: each stub fails as the real fault does, the stall on the request's timeout")
    func faultsRun() async throws {
        let interceptor = NetTapInterceptor()
        let session = interceptor.makeSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let report = Data(repeating: 7, count: 10_000)
        let (faults, stalled) = faultExample(interceptor: interceptor, report: report)

        let feed = try #require(URL(string: "https://api.nettap.example/v1/feed"))
        let dropped = await #expect(throws: URLError.self) { _ = try await session.data(from: feed) }
        #expect(dropped?.code == .networkConnectionLost)
        let reportURL = try #require(URL(string: "https://api.nettap.example/v1/report.pdf"))
        let cut = await #expect(throws: URLError.self) { _ = try await session.data(from: reportURL) }
        #if canImport(FoundationNetworking)
        #expect(dropped?.localizedDescription == "Recv failure: Connection reset by peer")
        #expect(cut?.code == .unknown)
        #expect(cut?.localizedDescription == "transfer closed with 5904 bytes remaining to read")
        #else
        #expect(cut?.code == .networkConnectionLost)
        #endif

        let start = ContinuousClock.now
        let stall = await #expect(throws: URLError.self) { _ = try await session.data(for: stalled) }
        #expect(stall?.code == .timedOut)
        #expect(ContinuousClock.now - start >= .milliseconds(1900), "the request's own 2 s timeout ends it")
        #expect(faults.hitCount(for: "status") == 1)
    }

    @Test("the body-fault example is the README's code")
    func faultsMatchReadme() throws {
        let readme = try ReadmeBlocks.block(containing: "let faults = MockSet(", from: "let faults")
        #expect(!readme.isEmpty)
        #expect(ReadmeBlocks.compact(readme) == ReadmeBlocks.compact(try ReadmeBlocks.marked("faults", in: #filePath)))
    }
}
