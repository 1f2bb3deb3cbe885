import Foundation
import NetTapCore
import NetTapInspector
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite(
    "Chromium's own DevTools frontend shows NetTap's traffic in its Network panel",
    .serialized,
    .enabled(if: !Chromium.isSkipped, "NETTAP_SKIP_BROWSER=1")
)
struct BrowserInspectorTests {
    /// A script for the DevTools page: waits (in the browser) until the Network panel's table holds every word,
    /// then returns the text of its cells; after 60 s returns what it has.
    private static func networkCells(containing words: [String]) -> String {
        let list = words.map { "\"\($0)\"" }.joined(separator: ",")
        return """
            new Promise(resolve => {
              const deadline = Date.now() + 60000;
              const cells = () => {
                const out = [];
                const walk = node => {
                  if (node.shadowRoot) walk(node.shadowRoot);
                  for (const child of node.children || []) walk(child);
                  if (node.tagName === "TD") out.push(node.textContent.trim());
                };
                walk(document.documentElement);
                return out;
              };
              const check = () => {
                const found = cells();
                if ([\(list)].every(w => found.some(c => c.includes(w))) || Date.now() > deadline) resolve(found);
                else setTimeout(check, 100);
              };
              check();
            })
            """
    }

    @Test("replayed and live requests are listed with name, status and type; the inspector's page never waits")
    func networkPanelListsTraffic() async throws {
        let interceptor = Interceptor()
        interceptor.handlers = [AppServer()]
        let session = interceptor.makeSession(configuration: .ephemeral)
        _ = try await session.data(from: try #require(URL(string: "http://app.test/before-devtools")))
        let inspector = try interceptor.startInspector()
        defer { inspector.stop() }

        let browser = try HeadlessChromium()
        try await browser.start()
        defer { browser.stop() }
        let socket = try #require(inspector.devToolsURL.components(separatedBy: "ws=").last)
        let page = try await browser.open(
            "http://127.0.0.1:\(browser.port)/devtools/inspector.html?ws=\(socket)&panel=network"
        )

        // The frontend connects and enables the Network domain; then live traffic follows the replay.
        _ = try await session.data(from: try #require(URL(string: "http://app.test/image")))
        _ = try await session.data(from: try #require(URL(string: "http://app.test/login")))
        let evaluated = try await page.command(
            "Runtime.evaluate",
            [
                "expression": Self.networkCells(containing: ["before-devtools", "image", "login"]),
                "awaitPromise": true, "returnByValue": true,
            ]
        )
        let value = (evaluated["result"] as? [String: Any])?["result"] as? [String: Any]
        let cells = try #require(value?["value"] as? [String], "\(DevToolsEndpoint.encode(evaluated))")
        for word in ["before-devtools", "image", "login", "200", "png"] {
            #expect(cells.contains { $0.contains(word) }, "\(word) not in the Network panel: \(cells.prefix(60))")
        }
        #expect(inspector.droppedClientCount == 0)
    }
}
