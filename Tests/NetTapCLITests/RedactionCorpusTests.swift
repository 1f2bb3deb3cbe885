import Foundation
import NetTapCLI
import NetTapCore
import NetTapHAR
import NetTapReplay
import NetTapReport
import NetTapStore
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 6, redaction: a corpus of requests with planted secrets goes through every output NetTap has — the capture log, HAR export, a cassette, cURL commands, and the CLI (`fetch -i --har`, `report`, `mock save`, `mock list`) — and a scan of every byte produced finds none of them.
///
/// The same corpus with `Redactor.disabled` shows the scan finds them, so the test can fail.
///
/// Add an output here when it appears (the SQLite store, the HTML report): produce it from `outputs` and
/// append its bytes.
@Suite("Redaction corpus: no planted secret in anything NetTap stores, exports or prints")
struct RedactionCorpusTests {
    /// One produced output: what it is and its bytes.
    struct Output {
        var name: String
        var bytes: Data
    }

    /// Sends the corpus through a real URLSession made by `interceptor`, with a cassette recording every
    /// exchange, and returns the finished transactions and the cassette file.
    private func sendCorpus(
        _ planted: PlantedSecrets,
        through interceptor: NetTapInterceptor,
        cassette: URL
    ) async throws -> [CapturedTransaction] {
        let server = try await HTTPBin.shared()
        let replay = try ReplayHandler(cassette: cassette, mode: .all, redactor: interceptor.redactor)
        interceptor.handlers = [replay]
        // No cookie jar: the cookies httpbin sets must not reach other tests' requests to the same server.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        let session = interceptor.makeSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let requests = planted.requests(at: server.baseURL)
        for request in requests {
            let (_, response) = try await session.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(request.url?.path ?? "?")")
        }
        try await replay.writer.flush()
        let transactions = interceptor.captureLog.transactions
        #expect(transactions.count == requests.count)
        #expect(transactions.allSatisfy { $0.state == .completed })
        return transactions
    }

    /// Everything NetTap makes from one capture: encoded transactions, HAR, cassette, cURL and CLI outputs.
    private func outputs(
        of transactions: [CapturedTransaction],
        cassette: URL,
        planted: PlantedSecrets,
        exportRedactor: Redactor,
        folder: TemporaryFolder
    ) async throws -> [Output] {
        var outputs: [Output] = []
        let encoder = JSONEncoder()
        outputs.append(Output(name: "capture log (JSONEncoder)", bytes: try encoder.encode(transactions)))
        for transaction in transactions {
            outputs.append(Output(name: "capture description", bytes: Data("\(transaction)".utf8)))
        }
        let har = try HARDocument(transactions: transactions, redactor: exportRedactor).encoded()
        outputs.append(Output(name: "HAR export", bytes: har))
        outputs.append(Output(name: "cassette", bytes: try Data(contentsOf: cassette)))
        for transaction in transactions {
            let command = CURLCommand.make(for: transaction, redactor: exportRedactor)
            outputs.append(Output(name: "cURL \(transaction.request.url.path)", bytes: Data(command.utf8)))
        }

        // The CLI, in-process, on the exported HAR.
        let harFile = try folder.write(har, to: "capture.har")
        let noRedact = exportRedactor.isEnabled ? [] : ["--no-redact"]
        for arguments in [["report", harFile.path], ["report", harFile.path, "--json", "--slowest", "20"]] {
            let run = await runCLI(arguments + noRedact)
            #expect(run.exitCode == .success, "\(arguments): \(run.standardError)")
            outputs.append(Output(name: arguments.joined(separator: " "), bytes: Data(run.standardOutput.utf8)))
            outputs.append(
                Output(name: arguments.joined(separator: " ") + " (stderr)", bytes: Data(run.standardError.utf8))
            )
        }
        let mocks = folder.url.appendingPathComponent("mocks.json")
        let entries = try HARDocument.load(contentsOf: harFile).log.entries
        for index in entries.indices where entries[index].response.status == 200 {
            let run = await runCLI(
                ["mock", "save", harFile.path, "--entry", "\(index)", "--name", "entry \(index)", "--to", mocks.path]
                    + noRedact
            )
            #expect(run.exitCode == .success, "mock save \(index): \(run.standardError)")
            outputs.append(
                Output(name: "mock save \(index)", bytes: Data((run.standardOutput + run.standardError).utf8))
            )
        }
        outputs.append(Output(name: "mocks file", bytes: try Data(contentsOf: mocks)))
        let list = await runCLI(["mock", "list", mocks.path])
        outputs.append(Output(name: "mock list", bytes: Data((list.standardOutput + list.standardError).utf8)))

        // `nettap fetch -i --har` with planted secrets of its own; its body (the server's answer to the user's
        // own request, like curl's) goes to a file that is not a NetTap record and is left out of the scan. The
        // tool's session keeps cookies in the shared jar of this test process, and swift-corelibs-foundation ignores
        // `Max-Age=0` and sends a cookie for every path (platform-notes §8): the cookie names a foreign domain, which
        // the jar refuses, so no parallel test sends it to 127.0.0.1 (one did, before).
        let server = try await HTTPBin.shared()
        let fetchHAR = folder.url.appendingPathComponent("fetch.har")
        let fetchURL = server.url(
            "/response-headers?Set-Cookie=sid%3D\(planted.secret("fetch-set-cookie"))"
                + "%3B%20Domain%3Dnettap-redaction-corpus.invalid%3B%20Path%3D%2Fnettap-redaction-corpus%3B%20Max-Age%3D0"
                + "&token=\(planted.secret("fetch-token"))"
        )
        let fetch = await runCLI(
            [
                "fetch", fetchURL.absoluteString, "-i", "--har", fetchHAR.path, "-o",
                folder.url.appendingPathComponent("body.out").path, "-H",
                "Authorization: Bearer \(planted.secret("fetch-bearer"))",
            ] + noRedact
        )
        #expect(fetch.exitCode == .success, "fetch: \(fetch.standardError)")
        outputs.append(Output(name: "fetch -i stdout", bytes: Data(fetch.standardOutput.utf8)))
        outputs.append(Output(name: "fetch stderr", bytes: Data(fetch.standardError.utf8)))
        outputs.append(Output(name: "fetch --har", bytes: try Data(contentsOf: fetchHAR)))

        // The SQLite store, fed as an app's capture log feeds it, every file it wrote; and what the CLI prints of it.
        let storeURL = folder.url.appendingPathComponent("capture.sqlite")
        let store = try TransactionStore(url: storeURL)
        for transaction in transactions { store.record(transaction) }
        try await store.flush()
        for suffix in ["", "-wal", "-shm"] {
            let file = URL(fileURLWithPath: storeURL.path + suffix)
            guard let bytes = try? Data(contentsOf: file) else { continue }
            outputs.append(Output(name: "store file capture.sqlite\(suffix)", bytes: bytes))
        }
        for arguments in [["query", storeURL.path], ["stats", storeURL.path], ["report", storeURL.path]] {
            let run = await runCLI(arguments + (arguments[0] == "report" ? noRedact : []))
            #expect(run.exitCode == .success, "\(arguments): \(run.standardError)")
            outputs.append(Output(name: arguments[0] + " of the store", bytes: Data(run.standardOutput.utf8)))
        }
        let queryHAR = folder.url.appendingPathComponent("query.har")
        _ = await runCLI(["query", storeURL.path, "--har", queryHAR.path])
        outputs.append(Output(name: "query --har", bytes: (try? Data(contentsOf: queryHAR)) ?? Data()))

        // The HTML report, from the API and from the CLI (on the HAR and on the store).
        let html = HTMLReport(transactions: transactions, title: "corpus", redactor: exportRedactor).render()
        outputs.append(Output(name: "HTML report", bytes: Data(html.utf8)))
        for (source, name) in [(harFile.path, "har.html"), (storeURL.path, "store.html")] {
            let page = folder.url.appendingPathComponent(name)
            let run = await runCLI(["report", source, "--html", page.path] + noRedact)
            #expect(run.exitCode == .success, "report --html \(name): \(run.standardError)")
            outputs.append(Output(name: "report --html \(name)", bytes: (try? Data(contentsOf: page)) ?? Data()))
        }
        return outputs
    }

    /// `name: finding` for every planted secret in every output.
    private func leaks(in outputs: [Output], planted: PlantedSecrets) -> [String] {
        outputs.flatMap { output in planted.findings(in: output.bytes).map { "\(output.name): \($0)" } }
    }

    @Test("with the defaults, no planted secret is in the capture, store, HAR, cassette, cURL, CLI or HTML")
    func redactedEverywhere() async throws {
        let planted = PlantedSecrets()
        let folder = try TemporaryFolder(prefix: "nettap-redaction")
        let cassette = folder.url.appendingPathComponent("cassette.har")
        let interceptor = NetTapInterceptor()
        let transactions = try await sendCorpus(planted, through: interceptor, cassette: cassette)
        let outputs = try await outputs(
            of: transactions,
            cassette: cassette,
            planted: planted,
            exportRedactor: .default,
            folder: folder
        )
        #expect(leaks(in: outputs, planted: planted) == [])

        // The records say what was removed, and the files say redaction was on.
        #expect(transactions.allSatisfy { !$0.redactions.isEmpty })
        let har = try HARDocument.load(contentsOf: folder.url.appendingPathComponent("capture.har"))
        #expect(har.log.creator.comment == #"{"redaction": "on"}"#)
        #expect(try Cassette.load(contentsOf: cassette).document.log.creator.isRedacted == true)
        let json = try #require(har.transactions().first { $0.request.url.path == "/anything/json" })
        #expect(json.redactions.contains(RedactionLocation(part: .request, kind: .json, name: "$.user.password")))
        // The order of the places follows the header order on the wire (libcurl sends the request's fields in the
        // order of its header dictionary), so only the listing is checked, not its position.
        #expect(
            har.log.entries.contains { entry in
                guard let comment = entry.comment, let listing = comment.range(of: "redacted: ") else { return false }
                return comment[listing.upperBound...].contains("request header Authorization")
            }
        )
    }

    @Test("a capture redacted at export only (captured with Redactor.disabled) leaks nothing either")
    func redactedAtExport() async throws {
        let planted = PlantedSecrets()
        let folder = try TemporaryFolder(prefix: "nettap-redaction")
        let cassette = folder.url.appendingPathComponent("cassette.har")
        let interceptor = NetTapInterceptor()
        interceptor.redactor = .disabled
        let transactions = try await sendCorpus(planted, through: interceptor, cassette: cassette)
        // The raw capture holds the secrets (the control); everything exported from it with the default
        // redactor does not. The cassette was recorded with Redactor.disabled too, so it is left out here.
        #expect(!planted.findings(in: try JSONEncoder().encode(transactions)).isEmpty)
        var outputs: [Output] = []
        outputs.append(Output(name: "HAR export", bytes: try HARDocument(transactions: transactions).encoded()))
        for command in CURLCommand.make(for: transactions) {
            outputs.append(Output(name: "cURL", bytes: Data(command.utf8)))
        }
        let rawHAR = try folder.write(
            try HARDocument(transactions: transactions, redactor: .disabled).encoded(),
            to: "raw.har"
        )
        let report = await runCLI(["report", rawHAR.path, "--json"])
        outputs.append(Output(name: "report of a raw HAR", bytes: Data(report.standardOutput.utf8)))
        let mocks = folder.url.appendingPathComponent("mocks.json")
        for index in transactions.indices {
            let run = await runCLI([
                "mock", "save", rawHAR.path, "--entry", "\(index)", "--name", "e\(index)", "--to", mocks.path,
            ])
            outputs.append(Output(name: "mock save \(index) of a raw HAR", bytes: Data(run.standardOutput.utf8)))
        }
        outputs.append(Output(name: "mocks file from a raw HAR", bytes: try Data(contentsOf: mocks)))
        #expect(leaks(in: outputs, planted: planted) == [])
    }

    @Test("control: with redaction off everywhere, the scan finds the planted secrets, and the HAR says off")
    func controlFindsSecrets() async throws {
        let planted = PlantedSecrets()
        let folder = try TemporaryFolder(prefix: "nettap-redaction")
        let cassette = folder.url.appendingPathComponent("cassette.har")
        let interceptor = NetTapInterceptor()
        interceptor.redactor = .disabled
        let transactions = try await sendCorpus(planted, through: interceptor, cassette: cassette)
        let outputs = try await outputs(
            of: transactions,
            cassette: cassette,
            planted: planted,
            exportRedactor: .disabled,
            folder: folder
        )
        let found = leaks(in: outputs, planted: planted).joined(separator: "\n")
        // Every planted secret, and the ones only the server's answers carry, are found in the raw outputs.
        for label in PlantedSecrets.labels where !label.hasSuffix("basic") {
            #expect(found.contains("-\(label) "), "\(label) not found")
        }
        for name in ["capture log", "HAR export", "cassette", "cURL", "report", "mock save", "mocks file", "fetch"] {
            #expect(outputs.contains { $0.name.hasPrefix(name) && !planted.findings(in: $0.bytes).isEmpty }, "\(name)")
        }
        // The Basic credentials are found inside their base64.
        #expect(found.contains("-bas in base64") || found.contains("-basic in base64"))
        #expect(found.contains("-proxy-bas"))
        let har = try HARDocument.load(contentsOf: folder.url.appendingPathComponent("capture.har"))
        #expect(har.log.creator.comment == #"{"redaction": "off"}"#)
        #expect(try Cassette.load(contentsOf: cassette).document.log.creator.comment == #"{"redaction": "off"}"#)
        #expect(
            outputs.contains {
                $0.name == "fetch stderr" && String(decoding: $0.bytes, as: UTF8.self).contains("redaction off")
            }
        )
    }
}
