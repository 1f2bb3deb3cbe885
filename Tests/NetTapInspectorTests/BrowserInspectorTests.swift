import Foundation
import NetTapCore
import NetTapInspector
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Headless Chromium with its remote debugging port: it serves its own DevTools frontend, which is pointed at
/// NetTap's inspector, and its Network panel is read from the frontend's DOM.
private final class HeadlessChromium: @unchecked Sendable {
    let process = Process()
    let profile: TemporaryFolder
    /// The browser's debugging port.
    private(set) var port = 0
    /// The browser target's WebSocket path, `/devtools/browser/…`.
    private(set) var browserPath = ""

    init() throws {
        profile = try TemporaryFolder(prefix: "nettap-inspector-chromium")
    }

    /// Starts the browser and waits (off the cooperative pool) for its `DevTools listening on ws://…` line.
    func start() async throws {
        guard let executable = Chromium.executable else { throw Chromium.ChromiumMissing() }
        process.executableURL = executable
        process.arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--user-data-dir=\(profile.url.path)", "--remote-debugging-port=0", "--remote-allow-origins=*",
            "--window-size=1400,900", "about:blank",
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let line = try await offThePool { () -> String in
            var text = ""
            while !text.contains("/devtools/browser/") || !text.contains("\n") {
                let chunk = errors.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
                if let found = text.split(separator: "\n").first(where: { $0.contains("DevTools listening on") }) {
                    return String(found)
                }
            }
            return text
        }
        guard let range = line.range(of: "ws://127.0.0.1:"), let url = URL(string: String(line[range.lowerBound...]))
        else { throw TestSocket.Failure(description: "no DevTools line from Chromium: \(line)") }
        port = url.port ?? 0
        browserPath = url.path
    }

    func stop() {
        if process.isRunning { process.terminate() }
    }
}

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
        let control = try await DevToolsTestClient(port: browser.port, path: browser.browserPath)
        let socket = try #require(inspector.devToolsURL.components(separatedBy: "ws=").last)
        let frontend = "http://127.0.0.1:\(browser.port)/devtools/inspector.html?ws=\(socket)&panel=network"
        let created = try await control.command("Target.createTarget", ["url": "about:blank"])
        let targetID = try #require((created["result"] as? [String: Any])?["targetId"] as? String, "\(created)")
        let page = try await DevToolsTestClient(port: browser.port, path: "/devtools/page/\(targetID)")
        try await page.command("Page.enable")
        try await page.command("Page.navigate", ["url": frontend])
        try await page.read { $0["method"] as? String == "Page.loadEventFired" }

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
