import Foundation
import NetTapCLI
import NetTapCore
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `nettap fetch -v`: the wire facts and the request head as sent, after the summary line.
@Suite("nettap fetch -v")
struct FetchVerboseTests {
    /// The standard error lines that start with `prefix`.
    static func lines(_ text: String, _ prefix: String) -> [String] {
        text.components(separatedBy: "\n").filter { $0.hasPrefix(prefix) }
    }

    @Test("-v over plain http: transport, version, remote and local port, phases, no TLS, the request head sent")
    func plainHTTP() async throws {
        let httpbin = try await HTTPBin.shared()
        let base = httpbin.baseURL
        let run = await runCLI(["fetch", "-v", base.absoluteString + "/get?a=1", "-H", "X-Trace: 7"])
        #expect(run.exitCode == .success)
        let lines = run.standardError.components(separatedBy: "\n")
        #expect(lines.first?.hasPrefix("200 OK, ") == true)
        #expect(lines.contains("wire: transport libcurl, HTTP/1.1"))
        #expect(lines.contains("wire: remote 127.0.0.1 port \(base.port ?? 0)"))
        let local = try #require(Self.lines(run.standardError, "wire: local port ").first)
        #expect(local.range(of: #"^wire: local port [0-9]+, new connection$"#, options: .regularExpression) != nil)
        let phases = try #require(Self.lines(run.standardError, "wire: phases ").first)
        let pattern =
            #"^wire: phases dns [0-9.]+ ms, connect [0-9.]+ ms, ssl -, send [0-9.]+ ms, wait [0-9.]+ ms, "#
            + #"receive [0-9.]+ ms$"#
        #expect(phases.range(of: pattern, options: .regularExpression) != nil, "\(phases)")
        #expect(lines.contains("wire: TLS none"))
        #expect(lines.contains("> GET /get?a=1 HTTP/1.1"))
        #expect(lines.contains("> Host: 127.0.0.1:\(base.port ?? 0)"))
        #expect(lines.contains("> X-Trace: 7"))
        #expect(Self.lines(run.standardError, "> User-Agent: ").count == 1)
        #expect(run.standardOutput.contains("\"a\": \"1\""))
        #expect(!run.standardOutput.contains("wire:"))
    }

    @Test("--verbose over HTTPS and HTTP/2: TLS version, cipher, certificate subject, issuer and validity")
    func https() async throws {
        let front = try await TLSFront.shared()
        let run = await runCLI(["fetch", "--verbose", front.url("/get", http2: true).absoluteString])
        #expect(run.exitCode == .success, "\(run.standardError)")
        let lines = run.standardError.components(separatedBy: "\n")
        #expect(lines.contains("wire: transport libcurl, HTTP/2"))
        #expect(lines.contains("wire: remote 127.0.0.1 port \(front.http2Port)"))
        let tls = try #require(Self.lines(run.standardError, "wire: TLS ").first)
        #expect(tls.range(of: #"^wire: TLS TLSv1\.[23], cipher [A-Z0-9_-]+$"#, options: .regularExpression) != nil)
        #expect(lines.contains("wire: certificate subject CN=localhost"))
        #expect(Self.lines(run.standardError, "wire: certificate issuer CN=").count == 1)
        let validity = try #require(Self.lines(run.standardError, "wire: certificate valid from ").first)
        let dates = #"^wire: certificate valid from [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z to [0-9]{4}-"#
        #expect(validity.range(of: dates, options: .regularExpression) != nil, "\(validity)")
        let phases = try #require(Self.lines(run.standardError, "wire: phases ").first)
        #expect(!phases.contains("ssl -"), "\(phases)")
        #expect(lines.contains("> GET /get HTTP/2"))
    }

    @Test("-v for a handler's answer says there are no wire facts; the help lists -v and --verbose")
    func handlerAnswerAndHelp() async throws {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [MockHandler.answering]
        let run = await runCLI(["fetch", "-v", "https://api.test.example/x"], interceptor: interceptor)
        #expect(run.exitCode == .success)
        #expect(run.standardError.contains("wire: none (answered by mock-answer, not sent by a transport)\n"))
        #expect(run.standardError.contains("> GET /x HTTP/1.1\n"))
        let help = await runCLI(["fetch", "--help"])
        #expect(help.standardOutput.contains("-v, --verbose"))
        #expect(help.standardOutput.contains("certificate subject, issuer and validity"))
    }
}

/// Answers every request with an empty 200.
private struct MockHandler: TransactionHandler {
    static let answering = MockHandler()
    let name = "mock-answer"

    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        context.answer(by: name)
        return HandlerResponse(statusCode: 200, headers: ["Content-Length": "0"], body: .data(Data()))
    }
}
