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
    /// Drives the control page in a browser page the way a person does: mouse presses at an element's centre and
    /// typed text, waiting in the page for what the click should show.
    private struct Driver {
        let page: DevToolsTestClient

        /// Evaluates `expression` in the page (awaiting a promise) and returns its value.
        func evaluate(_ expression: String) async throws -> Any? {
            let answer = try await page.command(
                "Runtime.evaluate",
                ["expression": expression, "awaitPromise": true, "returnByValue": true]
            )
            let result = (answer["result"] as? [String: Any])?["result"] as? [String: Any]
            return result?["value"]
        }

        /// Waits in the page (up to 20 s) until `condition`, a JavaScript expression, is true; returns whether it
        /// became true.
        func waitUntil(_ condition: String) async throws -> Bool {
            let script = """
                new Promise(resolve => {
                  const deadline = Date.now() + 20000;
                  const check = () => {
                    let done = false;
                    try { done = !!(\(condition)); } catch (error) {}
                    if (done || Date.now() > deadline) resolve(done); else setTimeout(check, 50);
                  };
                  check();
                })
                """
            return try await evaluate(script) as? Bool ?? false
        }

        /// Presses and releases the left mouse button at the centre of the element `selector` selects.
        func click(_ selector: String) async throws {
            let found = try await waitUntil("document.querySelector(\(Self.quoted(selector)))")
            try #require(found, "no element \(selector) on the control page")
            let box = try await evaluate(
                """
                (() => {
                  const element = document.querySelector(\(Self.quoted(selector)));
                  element.scrollIntoView({block: "center"});
                  const r = element.getBoundingClientRect();
                  return [r.left + r.width / 2, r.top + r.height / 2];
                })()
                """
            )
            let point = try #require(box as? [Double], "no box for \(selector)")
            for type in ["mouseMoved", "mousePressed", "mouseReleased"] {
                try await page.command(
                    "Input.dispatchMouseEvent",
                    ["type": type, "x": point[0], "y": point[1], "button": "left", "clickCount": 1]
                )
            }
        }

        /// Clicks `selector` and waits until it shows as pressed.
        func choose(_ selector: String) async throws {
            try await click(selector)
            let pressed = try await waitUntil(
                "document.querySelector(\(Self.quoted(selector))).getAttribute('aria-pressed') === 'true'"
            )
            #expect(pressed, "\(selector) not shown as chosen after the click")
        }

        /// Clicks into `selector` and types `text` as keyboard input.
        func type(_ text: String, into selector: String) async throws {
            try await click(selector)
            try await page.command("Input.insertText", ["text": text])
        }

        static func quoted(_ text: String) -> String {
            let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
            return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
        }
    }

    @Test("alternatives, scenarios, network presets, host scope and capture: each click reaches the next request")
    func clicksSwitchTheApp() async throws {
        let app = MockedApp()
        let inspector = try app.interceptor.startInspector()
        defer { inspector.stop() }
        #expect(await app.get("http://app.test/v1/profile").body == "full profile")

        let browser = try HeadlessChromium()
        try await browser.start()
        defer { browser.stop() }
        let driver = Driver(page: try await browser.open(inspector.controlPageURL.absoluteString))
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
        try await driver.click("#scope-apply")
        #expect(try await driver.waitUntil("document.getElementById('error').hidden"))
        #expect(app.interceptor.scope.denyHosts.map(\.description) == ["127.0.0.1"])
        // A bad pattern is refused on the page, in words naming it; the scope stays.
        try await driver.type("\nbad host", into: "#deny")
        try await driver.click("#scope-apply")
        #expect(try await driver.waitUntil("document.getElementById('error').textContent.includes('bad host')"))
        #expect(app.interceptor.scope.denyHosts.map(\.description) == ["127.0.0.1"])

        try await driver.click("#capture")
        #expect(try await driver.waitUntil("document.getElementById('capture').textContent.includes('off')"))
        #expect(!app.interceptor.captureLog.isCapturing)
        _ = await app.get("http://app.test/uncaptured")
        #expect(
            try await driver.waitUntil("document.getElementById('counts').textContent.startsWith('6 requests since')")
        )
        #expect(!app.interceptor.captureLog.transactions.contains { $0.request.url.path == "/uncaptured" })
    }
}
