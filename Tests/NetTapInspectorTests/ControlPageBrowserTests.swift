import Foundation
import NetTapCore
import NetTapInspector
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite(
    "Control page in headless Chromium: real clicks switch the running app for its next request",
    .serialized,
    .enabled(if: !Chromium.isSkipped, "NETTAP_SKIP_BROWSER=1")
)
struct ControlPageBrowserTests {
    @Test("alternatives, scenarios, network presets, host scope and capture: each click reaches the next request")
    func clicksSwitchTheApp() async throws {
        let app = MockedApp()
        let inspector = try app.interceptor.startInspector()
        defer { inspector.stop() }
        #expect(await app.get("http://app.test/v1/profile").body == "full profile")

        let browser = try HeadlessChromium()
        try await browser.start()
        defer { browser.stop() }
        let driver = PageDriver(page: try await browser.open(inspector.controlPageURL.absoluteString))
        // The live count and the DevTools link, filled in by the page's first poll.
        #expect(
            try await driver.waitUntil("document.getElementById('counts').textContent.startsWith('1 request since')")
        )
        let link = try await driver.evaluate("document.getElementById('devtools-url').value") as? String
        #expect(link == inspector.devToolsURL)

        try await driver.choose(#"[data-alternative="profile/empty"]"#)
        #expect(await app.get("http://app.test/v1/profile").body == "{}")
        try await driver.choose(#"[data-scenario="server down"]"#)
        #expect(await app.get("http://app.test/v1/profile").status == 503)
        try await driver.choose(#"[data-scenario=""]"#)

        try await driver.choose(#"[data-preset="offline"]"#)
        #expect(await app.get("http://app.test/x").error == URLError.Code.notConnectedToInternet.rawValue)
        try await driver.choose(#"[data-preset=""]"#)
        #expect(await app.get("http://app.test/x").status == 200)

        try await driver.type("127.0.0.1", into: "#deny")
        let changes = try await driver.evaluate("Number(document.body.dataset.changes || 0)") as? Int ?? 0
        try await driver.click(PageDriver.selector("#scope-apply"))
        // The page counts the changes the app accepted: wait for this one.
        #expect(try await driver.waitUntil("Number(document.body.dataset.changes || 0) > \(changes)"))
        #expect(try await driver.waitUntil("document.getElementById('error').hidden"))
        #expect(app.interceptor.scope.denyHosts.map(\.description) == ["127.0.0.1"])
        // A bad pattern is refused on the page, in words naming it; the scope stays.
        try await driver.type("\nbad host", into: "#deny")
        try await driver.click(PageDriver.selector("#scope-apply"))
        #expect(try await driver.waitUntil("document.getElementById('error').textContent.includes('bad host')"))
        #expect(app.interceptor.scope.denyHosts.map(\.description) == ["127.0.0.1"])

        try await driver.click(PageDriver.selector("#capture"))
        #expect(try await driver.waitUntil("document.getElementById('capture').textContent.includes('off')"))
        #expect(!app.interceptor.captureLog.isCapturing)
        _ = await app.get("http://app.test/uncaptured")
        #expect(
            try await driver.waitUntil("document.getElementById('counts').textContent.startsWith('6 requests since')")
        )
        #expect(!app.interceptor.captureLog.transactions.contains { $0.request.url.path == "/uncaptured" })
    }
}
