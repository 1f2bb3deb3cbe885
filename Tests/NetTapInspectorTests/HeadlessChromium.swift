import Foundation
import NetTapTestSupport

/// Headless Chromium with its remote debugging port, for tests that drive pages in it: its own DevTools frontend
/// (which it serves itself) pointed at NetTap's inspector, and the inspector's control page.
final class HeadlessChromium: @unchecked Sendable {
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

extension HeadlessChromium {
    /// Opens a new page at `url` and returns a client on it once its load event fired.
    func open(_ url: String) async throws -> DevToolsTestClient {
        let control = try await DevToolsTestClient(port: port, path: browserPath)
        let created = try await control.command("Target.createTarget", ["url": "about:blank"])
        guard let targetID = (created["result"] as? [String: Any])?["targetId"] as? String else {
            throw TestSocket.Failure(description: "no target: \(created)")
        }
        let page = try await DevToolsTestClient(port: port, path: "/devtools/page/\(targetID)")
        try await page.command("Page.enable")
        try await page.command("Page.navigate", ["url": url])
        try await page.read { $0["method"] as? String == "Page.loadEventFired" }
        return page
    }
}
