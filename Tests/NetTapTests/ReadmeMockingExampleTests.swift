import Foundation
import NetTap
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The README's "Mock, switch scenarios, record and replay" and "In your tests" examples, compiled and run.
@Suite("README mocking and testing examples")
struct ReadmeMockingExampleTests {
    /// The mocking example, line for line after its first line (checked by ``mockingMatchesReadme()``).
    private func mockingExample(
        interceptor: NetTapInterceptor,
        session: URLSession,
        cassetteURL: URL
    ) async throws -> Data {
        // README-BEGIN mocking
        let mocks = MockSet(
            stubs: [
                Stub("profile", matching: .method("GET") && .path("/v1/profile"), response: .json(["name": "Ada"]))
            ],
            scenarios: [
                Scenario(
                    "empty cart",
                    stubs: [Stub("cart", matching: .path("/v1/cart"), response: .json(["items": []]))]
                ),
                Scenario(
                    "server down",
                    stubs: [Stub("down", matching: .any, response: .failure(.cannotConnectToHost))]
                ),
            ]
        )
        let cassette = try ReplayHandler(cassette: cassetteURL, mode: .newEpisodes)  // replay known, record new
        interceptor.handlers = [MockHandler(mocks: mocks), cassette]  // unmatched go on to the cassette

        try mocks.activate(scenario: "empty cart")  // effective for the next request
        let (cart, _) = try await session.data(from: URL(string: "https://api.nettap.example/v1/cart")!)
        try await cassette.flush()  // new recordings are on disk, secrets redacted
        // README-END mocking
        try mocks.activate(scenario: "server down")
        await #expect(throws: URLError.self) {
            _ = try await session.data(from: URL(string: "https://api.nettap.example/v1/profile")!)
        }
        return cart
    }

    @Test("the mocking example runs: the active scenario answers")
    func mockingRuns() async throws {
        let interceptor = NetTapInterceptor()
        let session = interceptor.makeSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let cassetteURL = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID()).har")
        defer { try? FileManager.default.removeItem(at: cassetteURL) }
        let cart = try await mockingExample(interceptor: interceptor, session: session, cassetteURL: cassetteURL)
        #expect(try JSONValue(data: cart) == ["items": []])
        #expect(interceptor.captureLog.transactions.first?.annotations["scenario"] == "empty cart")
    }

    @Test("the mocking example is the README's code")
    func mockingMatchesReadme() throws {
        let readme = try ReadmeBlocks.block(containing: "let mocks = MockSet(", from: "let mocks")
        #expect(!readme.isEmpty)
        #expect(ReadmeBlocks.compact(readme) == ReadmeBlocks.compact(try ReadmeBlocks.marked("mocking", in: #filePath)))
    }

    // README-BEGIN testing
    @Test func showsAnEmptyCart() async throws {
        try await withNetTap { tap in  // private: parallel tests never see each other's stubs; unmatched reported here
            tap.stub(.method("GET") && .path("/v1/cart"), .json(["items": []]))
            let (data, _) = try await tap.session.data(from: URL(string: "https://api.nettap.example/v1/cart")!)
            #expect(try JSONValue(data: data) == ["items": []])
            tap.expect(.path("/v1/cart"), count: 1)  // failures point at this line, in Swift Testing and XCTest
        }  // sessions closed, cassette flushed, then the checks run
    }
    // README-END testing

    @Test("the testing example is the README's code")
    func testingMatchesReadme() throws {
        let readme = try ReadmeBlocks.block(containing: "withNetTap", from: "@Test")
        #expect(!readme.isEmpty)
        #expect(ReadmeBlocks.compact(readme) == ReadmeBlocks.compact(try ReadmeBlocks.marked("testing", in: #filePath)))
    }
}
