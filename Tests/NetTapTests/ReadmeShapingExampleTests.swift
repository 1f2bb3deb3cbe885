import Foundation
import NetTap
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The README's "Shape the network" example, compiled and run.
@Suite("README shaping example")
struct ReadmeShapingExampleTests {
    /// The shaping example, line for line (checked by ``shapingMatchesReadme()``).
    private func shapingExample(
        interceptor: NetTapInterceptor,
        session: URLSession,
        mocks: MockSet
    ) async throws
        -> (photo: Data, shaper: NetworkShaper)
    {
        // README-BEGIN shaping
        let shaper = NetworkShaper(profile: .threeG)  // the whole app: NLC "3G", 780/330 kbit/s, 200 ms round trip
        shaper.setRules([
            ShapingRule(.host("cdn.nettap.example"), profile: .edge),  // first matching rule wins
            ShapingRule(.path("/v1/sync"), profile: .offline),  // fails before anything leaves the device
        ])
        interceptor.handlers = [ShapingHandler(shaper: shaper), MockHandler(mocks: mocks)]  // stubs are shaped too

        let (photo, _) = try await session.data(from: URL(string: "https://api.nettap.example/v1/photo.jpg")!)
        shaper.setProfile(.unrestricted)  // effective for the next request
        // README-END shaping
        return (photo, shaper)
    }

    @Test("the shaping example runs: the stub is delayed by the 3G latency, rules still apply after the switch")
    func shapingRuns() async throws {
        let interceptor = NetTapInterceptor()
        let session = interceptor.makeSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let body = Data(repeating: 7, count: 9_750)  // 0.1 s at 3G's 97,500 B/s
        let mocks = MockSet(stubs: [
            Stub("photo", matching: .path("/v1/photo.jpg"), response: .data(body)),
            Stub("sync", matching: .path("/v1/sync"), response: .json(["ok": true])),
        ])
        let start = ContinuousClock.now
        let (photo, shaper) = try await shapingExample(interceptor: interceptor, session: session, mocks: mocks)
        let elapsed = ContinuousClock.now - start
        #expect(photo == body)
        // 200 ms latency + 9,750 bytes at 97,500 B/s = 300 ms at least; the example cannot be faster than that.
        #expect(elapsed >= .milliseconds(280), "took \(elapsed)")
        #expect(shaper.profile == .unrestricted)

        let sync = try #require(URL(string: "https://api.nettap.example/v1/sync"))
        let error = await #expect(throws: URLError.self) { _ = try await session.data(from: sync) }
        #expect(error?.code == .notConnectedToInternet)
        #expect(mocks.hitCount(for: "sync") == 0, "offline fails before the stub is asked")
    }

    @Test("the shaping example is the README's code")
    func shapingMatchesReadme() throws {
        let readme = try ReadmeBlocks.block(containing: "let shaper = NetworkShaper(", from: "let shaper")
        #expect(!readme.isEmpty)
        #expect(ReadmeBlocks.compact(readme) == ReadmeBlocks.compact(try ReadmeBlocks.marked("shaping", in: #filePath)))
    }
}
