import Foundation

/// Headless Chromium (Debian's `chromium` package, which `scripts/test` installs) run on a report file.
public enum Chromium {
    /// The browser: `$NETTAP_CHROMIUM`, else `chromium`, `chromium-browser` or `google-chrome` on the `PATH`.
    public static var executable: URL? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["NETTAP_CHROMIUM"] { return URL(fileURLWithPath: path) }
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init) + ["/usr/bin"]
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in folders {
                let candidate = URL(fileURLWithPath: folder).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
        }
        return nil
    }

    /// Whether the browser tests were switched off explicitly.
    public static var isSkipped: Bool { ProcessInfo.processInfo.environment["NETTAP_SKIP_BROWSER"] == "1" }

    public static let missingMessage =
        "chromium not found: the browser tests need Debian's chromium package, which scripts/test installs "
        + "(step 0: apt-get install chromium); set NETTAP_SKIP_BROWSER=1 to skip them explicitly"

    /// What one browser run gave.
    public struct Run: Sendable {
        /// The browser's exit status.
        public var status: Int32
        /// What the browser printed: the DOM after scripts ran (`--dump-dom`).
        public var standardOutput: String
        /// The browser's log, console messages included.
        public var standardError: String
    }

    /// Loads `file` with the fragment and returns the DOM after the page's scripts ran.
    ///
    /// - Parameters:
    ///   - file: The HTML file.
    ///   - fragment: The URL fragment, without `#`.
    ///   - screenshot: Where to save a 1280×2000 PNG instead of dumping the DOM.
    ///   - windowWidth: The window's width in CSS pixels when dumping the DOM (a window 1000 px high); the
    ///     browser's default when `nil`.
    /// - Returns: The exit status, the dumped DOM (standard output) and the log (standard error).
    /// - Throws: ``ChromiumMissing`` without a browser, or what `Process.run()` throws.
    public static func load(
        _ file: URL,
        fragment: String = "",
        screenshot: URL? = nil,
        windowWidth: Int? = nil
    ) async throws -> Run {
        try await offThePool {
            try loadBlocking(file, fragment: fragment, screenshot: screenshot, windowWidth: windowWidth)
        }
    }

    /// ``load(_:fragment:screenshot:windowWidth:)`` on the calling thread, which it blocks until the browser exits.
    private static func loadBlocking(
        _ file: URL,
        fragment: String,
        screenshot: URL?,
        windowWidth: Int?
    ) throws -> Run {
        let executable = try requireExecutableURL()
        let profile = FileManager.default.temporaryDirectory
            .appendingPathComponent("nettap-chromium-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: profile) }
        var arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--user-data-dir=\(profile.path)", "--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000",
        ]
        if let screenshot {
            arguments += ["--screenshot=\(screenshot.path)", "--window-size=1280,2000", "--hide-scrollbars"]
        } else {
            arguments.append("--dump-dom")
            if let windowWidth { arguments.append("--window-size=\(windowWidth),1000") }
        }
        var address = file.absoluteString
        if !fragment.isEmpty { address += "#" + fragment }
        arguments.append(address)

        let output = profile.appendingPathComponent("stdout")
        let errors = profile.appendingPathComponent("stderr")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // A browser that hangs is ended after two minutes (the run takes a few seconds).
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        process.waitUntilExit()
        watchdog.cancel()
        return Run(
            status: process.terminationStatus,
            standardOutput: (try? String(contentsOf: output, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        )
    }

    private static func requireExecutableURL() throws -> URL {
        guard let executable else { throw ChromiumMissing() }
        return executable
    }

    /// Thrown when no browser is installed.
    public struct ChromiumMissing: Error, CustomStringConvertible {
        /// Creates the error.
        public init() {}

        /// ``Chromium/missingMessage``.
        public var description: String { Chromium.missingMessage }
    }
}

/// Reading a DOM that Chromium serialized (`--dump-dom`): its elements are well-formed and attributes quoted.
public struct DumpedDOM {
    /// The serialized DOM.
    public var html: String

    /// Wraps a DOM that Chromium dumped.
    public init(html: String) {
        self.html = html
    }

    /// The opening tag of the element with an `id`.
    public func tag(id: String) -> String? {
        firstMatch(#"<[a-zA-Z0-9]+\b[^>]*\bid="\#(id)"[^>]*>"#)
    }

    /// An attribute of an opening tag.
    public static func attribute(_ name: String, in tag: String) -> String? {
        guard let range = tag.range(of: #"\b\#(name)="([^"]*)""#, options: .regularExpression) else { return nil }
        let match = tag[range]
        return String(match.dropFirst(name.count + 2).dropLast())
    }

    /// The root element's opening tag.
    public var rootTag: String? { firstMatch(#"<html\b[^>]*>"#) }

    /// The element text (tags removed) from an element with an `id` to its closing tag (`</tagName>`).
    public func text(id: String, closing tagName: String) -> String? {
        guard let open = html.range(of: #"<[a-zA-Z0-9]+\b[^>]*\bid="\#(id)"[^>]*>"#, options: .regularExpression),
            let close = html.range(of: "</\(tagName)>", range: open.upperBound..<html.endIndex)
        else { return nil }
        return String(html[open.upperBound..<close.lowerBound])
            .replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
    }

    /// How often a text occurs.
    public func count(_ text: String) -> Int { html.components(separatedBy: text).count - 1 }

    /// The `data-id` values of the table rows in the DOM, in order.
    public var rowIDs: [String] {
        var ids: [String] = []
        var rest = html[...]
        while let range = rest.range(of: #"<div class="tx-row[^"]*"[^>]*>"#, options: .regularExpression) {
            if let id = Self.attribute("data-id", in: String(rest[range])) { ids.append(id) }
            rest = rest[range.upperBound...]
        }
        return ids
    }

    private func firstMatch(_ pattern: String) -> String? {
        html.range(of: pattern, options: .regularExpression).map { String(html[$0]) }
    }
}
