import Foundation
import NetTapCLI
import NetTapCore
import NetTapHAR
import NetTapTestSupport
import Testing

@Suite("CLI redaction and --no-redact")
struct RedactionFlagTests {
    @Test("fetch -i prints redacted headers and says nothing; --no-redact prints them and says redaction off")
    func fetchHeaders() async throws {
        let server = try await HTTPBin.shared()
        let url = server.url("/response-headers?X-Api-Key=s3cr3t-key-value").absoluteString
        let redacted = await runCLI(["fetch", url, "-i"])
        #expect(redacted.exitCode == .success)
        #expect(redacted.standardOutput.contains("X-Api-Key: [redacted]"))
        #expect(!redacted.standardError.contains("redaction"))
        // The body, the server's answer to the user's own request, is printed as received, like curl.
        #expect(redacted.standardOutput.contains(#""X-Api-Key": "s3cr3t-key-value""#))

        let raw = await runCLI(["fetch", url, "-i", "--no-redact"])
        #expect(raw.exitCode == .success)
        #expect(raw.standardOutput.contains("X-Api-Key: s3cr3t-key-value"))
        #expect(raw.standardError.hasSuffix(", redaction off\n"))
    }

    @Test("--no-redact leaves the interceptor's own redactor as it was")
    func restoresRedactor() async throws {
        let server = try await HTTPBin.shared()
        let interceptor = NetTapInterceptor()
        _ = await runCLI(["fetch", server.url("/get").absoluteString, "--no-redact"], interceptor: interceptor)
        #expect(interceptor.redactor == .default)
    }

    @Test("report prints URLs redacted; --no-redact prints them as recorded and says so")
    func report() async throws {
        let folder = try TemporaryFolder(prefix: "nettap-report")
        let transaction = CapturedTransaction(
            request: CapturedRequest(
                method: "GET",
                url: try #require(URL(string: "http://127.0.0.1:8080/x?access_token=s3cr3t-token&page=2")),
                headers: [:]
            ),
            response: CapturedResponse(
                statusCode: 200,
                headers: [:],
                url: try #require(URL(string: "http://127.0.0.1:8080/x"))
            ),
            timings: Timings(startDate: Date(timeIntervalSince1970: 0), requestSent: 1, firstByte: 5, end: 12),
            state: .completed
        )
        let file = try folder.write(
            try HARDocument(transactions: [transaction], redactor: .disabled).encoded(),
            to: "raw.har"
        )
        let redacted = await runCLI(["report", file.path])
        #expect(redacted.standardOutput.contains("/x?access_token=%5Bredacted%5D&page=2"))
        #expect(!redacted.standardOutput.contains("s3cr3t"))
        let json = await runCLI(["report", file.path, "--json"])
        #expect(!json.standardOutput.contains("s3cr3t"))
        #expect(try JSONDecoder().decode(HARSummary.self, from: json.standardOutputData).redaction == "on")

        let raw = await runCLI(["report", file.path, "--no-redact"])
        #expect(raw.standardOutput.contains("access_token=s3cr3t-token"))
        #expect(
            raw.standardOutput.components(separatedBy: "\n").first?.hasSuffix("(redaction off: URLs as recorded)")
                == true
        )
    }
}
