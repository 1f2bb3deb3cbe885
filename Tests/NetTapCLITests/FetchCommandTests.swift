import Foundation
import NetTapCLI
import NetTapCore
import NetTapHAR
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers every request itself: echoes the method and body, or returns fixed bytes.
private struct AnsweringHandler: TransactionHandler {
    let name = "test-answer"
    let status: Int
    let headers: HeaderFields
    let body: Data?

    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        context.answer(by: name)
        let echoed = Data(
            "\(request.httpMethod ?? "?") \(String(decoding: request.httpBody ?? Data(), as: UTF8.self))".utf8
        )
        let bytes = body ?? echoed
        var headers = headers
        headers["Content-Length"] = "\(bytes.count)"
        return HandlerResponse(statusCode: status, headers: headers, body: .data(bytes))
    }
}

@Suite("nettap fetch")
struct FetchCommandTests {
    func interceptor(
        status: Int = 200,
        headers: HeaderFields = ["Content-Type": "text/plain"],
        body: Data? = nil
    )
        -> NetTapInterceptor
    {
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [AnsweringHandler(status: status, headers: headers, body: body)]
        return interceptor
    }

    @Test("prints the body, the head with --include, a summary on stderr, and writes the HAR")
    func includeAndHAR() async throws {
        let directory = try makeTemporaryDirectory()
        let run = await runCLI(
            ["fetch", "https://api.test.example/v1/thing", "-i", "--har", "thing.har", "-H", "X-Trace: 7"],
            interceptor: interceptor(status: 201, headers: ["Content-Type": "text/plain", "X-Demo": "1"]),
            workingDirectory: directory
        )
        #expect(run.exitCode == .success)
        #expect(
            run.standardOutput == "HTTP/1.1 201 Created\nContent-Type: text/plain\nX-Demo: 1\nContent-Length: 4\n\nGET "
        )
        #expect(run.standardError.hasPrefix("201 Created, 4 bytes, "))
        #expect(run.standardError.hasSuffix(" ms, 0 redirects, answered by test-answer\n"))

        let har = try HARDocument.load(contentsOf: directory.appendingPathComponent("thing.har"))
        #expect(har.log.entries.count == 1)
        #expect(har.log.entries.first?.request.url == "https://api.test.example/v1/thing")
        #expect(har.log.entries.first?.response.status == 201)
    }

    @Test("-d sends the body with POST by default, -X overrides the method, --data-file reads a file")
    func bodies() async throws {
        let inline = await runCLI(
            ["fetch", "https://api.test.example/echo", "-d", #"{"a":1}"#],
            interceptor: interceptor()
        )
        #expect(inline.standardOutput == #"POST {"a":1}"#)
        let put = await runCLI(
            ["fetch", "https://api.test.example/echo", "-X", "put", "-d", "x"],
            interceptor: interceptor()
        )
        #expect(put.standardOutput == "PUT x")

        let directory = try makeTemporaryDirectory()
        try Data("from file".utf8).write(to: directory.appendingPathComponent("body.txt"))
        let file = await runCLI(
            ["fetch", "https://api.test.example/echo", "--data-file", "body.txt"],
            interceptor: interceptor(),
            workingDirectory: directory
        )
        #expect(file.exitCode == .success)
        #expect(file.standardOutput == "POST from file")
    }

    @Test("a binary body is reported by size and type, not printed")
    func binary() async {
        let run = await runCLI(
            ["fetch", "https://api.test.example/blob"],
            interceptor: interceptor(headers: ["Content-Type": "application/octet-stream"], body: Data([0, 1, 2, 255]))
        )
        #expect(run.exitCode == .success)
        #expect(run.standardOutput == "[binary body: 4 bytes, application/octet-stream; -o PATH saves it]\n")
        #expect(run.standardError.hasPrefix("200 OK, 4 bytes, "))
    }

    @Test("-o writes the body's bytes to a file, binary or not, and prints nothing on standard output")
    func output() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nettap-fetch-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = Data([0, 1, 2, 255])
        let run = await runCLI(
            ["fetch", "https://api.test.example/blob", "-o", "blob.bin"],
            interceptor: interceptor(headers: ["Content-Type": "application/octet-stream"], body: body),
            workingDirectory: folder
        )
        #expect(run.exitCode == .success)
        #expect(run.standardOutput.isEmpty)
        #expect(try Data(contentsOf: folder.appendingPathComponent("blob.bin")) == body)

        let unwritable = await runCLI(
            ["fetch", "https://api.test.example/blob", "-o", "missing/blob.bin"],
            interceptor: interceptor(headers: ["Content-Type": "application/octet-stream"], body: body),
            workingDirectory: folder
        )
        #expect(unwritable.exitCode == .failure)
        #expect(unwritable.standardError.contains("-o \"missing/blob.bin\""))
    }

    @Test("a network error exits 1 with one line naming the URL, the URLError code and the platform's words")
    func networkError() async {
        let run = await runCLI(["fetch", "http://127.0.0.1:1/x"])
        #expect(run.exitCode == .failure)
        let prefix = "nettap: fetch: http://127.0.0.1:1/x: request failed: URLError -1004 (cannotConnectToHost)"
        #expect(run.standardError.hasPrefix(prefix), "\(run.standardError)")
        #if canImport(FoundationNetworking)
        #expect(run.standardError.hasSuffix(": Couldn't connect to server\n"), "\(run.standardError)")
        #endif
        #expect(run.standardError.split(separator: "\n").count == 1)
        #expect(run.standardOutput.isEmpty)
    }

    @Test("a live request reports the redirects NetTap followed")
    func liveRedirects() async throws {
        let base = try await HTTPBin.shared().baseURL.absoluteString
        let run = await runCLI(["fetch", base + "/redirect/2"])
        #expect(run.exitCode == .success)
        #expect(run.standardOutput.contains("\"url\": \"\(base)/get\""))
        #expect(run.standardError.hasPrefix("200 OK, "))
        #expect(run.standardError.hasSuffix(" ms, 2 redirects, answered by network\n"))
    }

    @Test("--timeout fails a slow live request with URLError -1001")
    func timeout() async throws {
        let base = try await HTTPBin.shared().baseURL.absoluteString
        let run = await runCLI(["fetch", base + "/delay/5", "--timeout", "1"])
        #expect(run.exitCode == .failure)
        #expect(run.standardError == "nettap: fetch: \(base)/delay/5: request failed: URLError -1001 (timedOut)\n")
    }
}
