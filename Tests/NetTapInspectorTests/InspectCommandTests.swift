import Foundation
import NetTapCLI
import NetTapCore
import NetTapHAR
import NetTapInspector
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("nettap inspect: a recorded capture in a DevTools client, as a live app's")
struct InspectCommandTests {
    /// A HAR file of three transactions recorded without redaction: a PNG, a login answer with a token, a POST
    /// with a password.
    private func recordedHAR(in folder: TemporaryFolder) async throws -> URL {
        let interceptor = NetTapInterceptor()
        interceptor.redactor = .disabled
        interceptor.handlers = [AppServer()]
        let session = interceptor.makeSession(configuration: .ephemeral)
        _ = try await session.data(from: try #require(URL(string: "http://app.test/image")))
        _ = try await session.data(from: try #require(URL(string: "http://app.test/login")))
        var post = URLRequest(url: try #require(URL(string: "http://app.test/form")))
        post.httpMethod = "POST"
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(#"{"user":"ann","password":"hunter2-secret"}"#.utf8)
        _ = try await session.data(for: post)
        let file = folder.url.appendingPathComponent("capture.har")
        try HARDocument(transactions: interceptor.captureLog.transactions, redactor: .disabled).write(to: file)
        return file
    }

    /// Runs `nettap inspect` in a task until its output says it serves, and returns the task, output and port.
    private func startInspect(
        _ arguments: [String],
        in folder: TemporaryFolder
    ) async throws -> (
        run: Task<ExitCode, Never>, output: String, port: Int
    ) {
        let out = CommandOutput.Buffer()
        let environment = CommandEnvironment(
            standardOutput: CommandOutput(out),
            standardError: CommandOutput(CommandOutput.Buffer()),
            interceptor: NetTapInterceptor(),
            workingDirectory: folder.url
        )
        let run = Task { await NetTapCLI.run(arguments: ["inspect"] + arguments, in: environment) }
        let output = await out.text { $0.contains("serving until interrupted") }
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("chrome://inspect") })
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
        return (run, output, port)
    }

    @Test("every transaction of a HAR file is replayed on Network.enable, redacted unless --no-redact; cancel ends it")
    func servesHAR() async throws {
        let folder = try TemporaryFolder()
        let file = try await recordedHAR(in: folder)
        let badAddress = await runInspect([file.lastPathComponent, "--address", "evil"], in: folder)
        #expect(
            badAddress.error.contains("inspect: --address evil: evil is not an IPv4 address"),
            "\(badAddress.error)"
        )
        for redacts in [true, false] {
            let (run, output, port) = try await startInspect(
                [file.lastPathComponent] + (redacts ? [] : ["--no-redact"]),
                in: folder
            )
            #expect(output.hasPrefix("3 transactions from capture.har\(redacts ? "" : " (redaction off)")\n"))
            #expect(output.contains("DevTools: devtools://devtools/bundled/js_app.html?ws=127.0.0.1:\(port)/"))
            let list = try await URLSession(configuration: .ephemeral).data(
                from: try #require(URL(string: "http://127.0.0.1:\(port)/json/list"))
            ).0
            let targets = try #require(try JSONSerialization.jsonObject(with: list) as? [[String: Any]])
            #expect(targets.first?["title"] as? String == "capture.har")
            let socket = try #require(targets.first?["webSocketDebuggerUrl"] as? String)
            let client = try await DevToolsTestClient(port: port, path: try #require(URL(string: socket)?.path))
            try await client.command("Network.enable")
            try await client.readUntilEnded(3)
            let sent = client.params("Network.requestWillBeSent")
            let urls = sent.compactMap { ($0["request"] as? [String: Any])?["url"] as? String }
            #expect(urls == ["http://app.test/image", "http://app.test/login", "http://app.test/form"])
            let ids = sent.compactMap { $0["requestId"] as? String }
            let login = try await client.command("Network.getResponseBody", ["requestId": ids[1]])
            let body = try #require((login["result"] as? [String: Any])?["body"] as? String)
            let posted = try await client.command("Network.getRequestPostData", ["requestId": ids[2]])
            let postData = try #require((posted["result"] as? [String: Any])?["postData"] as? String)
            #expect(body.contains("s3cr3t-token-value") == !redacts, "\(body)")
            #expect(postData.contains("hunter2-secret") == !redacts, "\(postData)")
            let image = try await client.command("Network.getResponseBody", ["requestId": ids[0]])
            #expect((image["result"] as? [String: Any])?["base64Encoded"] as? Bool == true)
            // DevTools' controls have nothing to act on: answered, without effect.
            let offline = try await client.command("Network.overrideNetworkState", ["offline": true])
            #expect(offline["result"] != nil)
            run.cancel()
            #expect(await run.value == .success)
        }
    }

    @Test("a missing file, a bad port and a port in use are one clear line each")
    func badInput() async throws {
        let folder = try TemporaryFolder()
        let missing = await runInspect(["missing.har"], in: folder)
        #expect(missing.code == .failure)
        #expect(missing.error.hasPrefix("nettap: inspect: missing.har: "), "\(missing.error)")
        let badPort = await runInspect(["x.har", "--port", "70000"], in: folder)
        #expect(badPort.code == .usage)
        #expect(badPort.error.contains("--port \"70000\": must be a number from 0 to 65535"), "\(badPort.error)")

        let file = try await recordedHAR(in: folder)
        let (first, _, port) = try await startInspect([file.lastPathComponent], in: folder)
        let busy = await runInspect([file.lastPathComponent, "--port", "\(port)"], in: folder)
        #expect(busy.code == .failure)
        #expect(
            busy.error.hasPrefix("nettap: inspect: --port \(port): cannot listen on 127.0.0.1:\(port): "),
            "\(busy.error)"
        )
        #expect(busy.error.contains("EADDRINUSE"), "\(busy.error)")
        #expect(busy.error.split(separator: "\n").count == 1, "\(busy.error)")
        first.cancel()
        _ = await first.value
    }

    private func runInspect(_ arguments: [String], in folder: TemporaryFolder) async -> (code: ExitCode, error: String)
    {
        let err = CommandOutput.Buffer()
        let environment = CommandEnvironment(
            standardOutput: CommandOutput(CommandOutput.Buffer()),
            standardError: CommandOutput(err),
            interceptor: NetTapInterceptor(),
            workingDirectory: folder.url
        )
        let code = await NetTapCLI.run(arguments: ["inspect"] + arguments, in: environment)
        return (code, err.text)
    }
}
