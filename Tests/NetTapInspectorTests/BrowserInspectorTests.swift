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
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [AppServer()]
        let session = interceptor.makeSession(configuration: .ephemeral)
        _ = try await session.data(from: try #require(URL(string: "http://app.test/before-devtools")))
        let inspector = try interceptor.startInspector()
        defer { inspector.stop() }

        let browser = try HeadlessChromium()
        try await browser.start()
        defer { browser.stop() }
        let page = try await browser.open(Self.served(inspector.devToolsURL, by: browser))

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
        // Nothing was pushed: Chrome writes "Push / " before the initiator of a request whose pushStart is not 0.
        #expect(!cells.contains { $0.hasPrefix("Push") }, "\(cells.prefix(60))")
        // The Initiator column says who answered.
        #expect(cells.contains { $0.contains("nettap:mock") }, "\(cells.prefix(60))")
        #expect(inspector.droppedClientCount == 0)
    }

    /// The frontend at `devToolsURL` (`devtools://devtools/bundled/…`) as the browser serves it over HTTP.
    private static func served(_ devToolsURL: String, by browser: HeadlessChromium) -> String {
        devToolsURL.replacingOccurrences(
            of: "devtools://devtools/bundled/",
            with: "http://127.0.0.1:\(browser.port)/devtools/"
        ) + "&panel=network"
    }

    @Test("a clicked row shows its body redacted; the throttling menu's Offline fails the app's next request")
    func rowBodyAndThrottlingMenu() async throws {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [AppServer()]
        let session = interceptor.makeSession(configuration: .ephemeral)
        _ = try await session.data(from: try #require(URL(string: "http://app.test/login")))
        let inspector = try interceptor.startInspector()
        defer { inspector.stop() }
        let browser = try HeadlessChromium()
        try await browser.start()
        defer { browser.stop() }
        let driver = PageDriver(page: try await browser.open(Self.served(inspector.devToolsURL, by: browser)))

        try await driver.click(PageDriver.deep("n.tagName === 'TD' && n.textContent.startsWith('login')"))
        try await driver.click(
            PageDriver.deep("n.getAttribute && n.getAttribute('role') === 'tab' && n.textContent.trim() === 'Response'")
        )
        let editor = "n.classList && n.classList.contains('cm-content')"
        #expect(try await driver.waitUntil("\(PageDriver.deep(editor))?.textContent.includes('ann')"))
        let body = try await driver.evaluate("\(PageDriver.deep(editor)).textContent") as? String ?? ""
        #expect(body.contains("\"user\""), "\(body)")
        #expect(!body.contains("s3cr3t-token-value"), "the secret reached DevTools: \(body)")

        // The Network panel's throttling menu, chosen with the keyboard: No throttling → … → Offline.
        let menu = PageDriver.deep("n.tagName === 'SELECT' && n.getAttribute('aria-label') === 'Throttling'")
        _ = try await driver.evaluate("\(menu).focus()")
        try await driver.press("ArrowDown", code: 40, times: 4)
        #expect(try await driver.evaluate("\(menu).value") as? String == "Offline")
        #expect(await Self.probe(session) { $0 != nil } == URLError.Code.notConnectedToInternet.rawValue)
        try await driver.press("ArrowUp", code: 38, times: 4)
        #expect(try await driver.evaluate("\(menu).value") as? String == "No throttling")
        #expect(await Self.probe(session) { $0 == nil } == nil)
    }

    /// Requests the app makes until one ends as `done` wants (the frontend's command reaches the app a moment after
    /// the menu changed), at most 500: the error code of the last, `nil` when it succeeded.
    private static func probe(_ session: URLSession, until done: (Int?) -> Bool) async -> Int? {
        var last: Int?
        for attempt in 0..<500 {
            do {
                let url = URL(string: "http://app.test/probe-\(attempt)") ?? URL(fileURLWithPath: "/")
                _ = try await session.data(from: url)
                last = nil
            } catch {
                last = (error as NSError).code
            }
            if done(last) { break }
        }
        return last
    }
}
