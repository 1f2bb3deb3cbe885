import Foundation
import NetTap
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The README's "Watch it live in Chrome DevTools" example, compiled and run.
@Suite("README inspector example")
struct ReadmeInspectorExampleTests {
    /// The example, line for line (checked by ``matchesReadme()``).
    private func example(interceptor: NetTapInterceptor) throws -> DevToolsInspector {
        // README-BEGIN inspector
        let mocks = MockSet(
            stubs: [
                Stub(
                    "cart",
                    matching: .path("/v1/cart"),
                    alternatives: [.init("full", .json(["items": [1, 2]])), .init("empty", .json(["items": []]))]
                )
            ],
            scenarios: [Scenario("server down", stubs: [Stub("down", matching: .any, response: .status(503))])]
        )
        interceptor.handlers = [MockHandler(mocks: mocks)]  // its scenarios and alternatives appear on the control page
        let inspector = try interceptor.startInspector()  // 127.0.0.1, a free port; off in release builds
        print(inspector.devToolsURL)  // devtools://devtools/bundled/js_app.html?ws=127.0.0.1:PORT/devtools/page/…
        print(inspector.controlPageURL)  // http://127.0.0.1:PORT/ (both are also written to standard error)
        // README-END inspector
        return inspector
    }

    @Test("the example runs: the control page lists the mock set's scenario and alternatives")
    func runs() async throws {
        let interceptor = NetTapInterceptor()
        let inspector = try example(interceptor: interceptor)
        defer { inspector.stop() }
        #expect(inspector.devToolsURL.hasPrefix("devtools://devtools/bundled/js_app.html?ws=127.0.0.1:"))
        let (page, _) = try await URLSession(configuration: .ephemeral).data(from: inspector.controlPageURL)
        let html = String(decoding: page, as: UTF8.self)
        #expect(html.contains(#"<meta name="nettap-token""#))
        let session = interceptor.makeSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let (cart, _) = try await session.data(from: try #require(URL(string: "https://api.nettap.example/v1/cart")))
        #expect(try JSONValue(data: cart) == ["items": [1, 2]])
    }

    @Test("the example is the README's code")
    func matchesReadme() throws {
        let readme = try ReadmeBlocks.block(containing: "startInspector()", from: "let mocks")
        #expect(!readme.isEmpty)
        #expect(
            ReadmeBlocks.compact(readme) == ReadmeBlocks.compact(try ReadmeBlocks.marked("inspector", in: #filePath))
        )
    }
}
