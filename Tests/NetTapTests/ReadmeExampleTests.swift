import Foundation
import NetTap
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking  // URLSession lives here on Linux
#endif

/// The README's "Use it in an app or a test" example, compiled and run, so it cannot rot.
@Suite("README example")
struct ReadmeExampleTests {
    /// The README's example, line for line after its `let url` line (checked by ``matchesReadme()``).
    private func example(url: URL) async throws -> (Data, URLResponse, Data) {
        // README-BEGIN
        let interceptor = NetTapInterceptor.shared
        let session = URLSession(configuration: interceptor.makeConfiguration())  // or install(into: yourConfiguration)

        let (data, response) = try await session.data(from: url)  // forwarded unchanged, and captured
        for transaction in interceptor.captureLog.transactions {
            print(transaction.request.method, transaction.request.url, transaction.response?.statusCode ?? 0)
        }
        let har = try HARDocument(transactions: interceptor.captureLog.transactions).encoded()
        // README-END
        return (data, response, har)
    }

    @Test("the example runs: the request is forwarded, captured and exported as HAR")
    func runs() async throws {
        let server = try await HTTPBin.shared()
        let url = server.url("/get?from=readme")
        let (data, response, har) = try await example(url: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("\"from\": \"readme\""))
        let document = try HARDocument.decode(har, source: "readme.har")
        #expect(document.log.entries.contains { $0.request.url == url.absoluteString })
    }

    @Test("the code above is the README's code")
    func matchesReadme() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let block = try #require(
            readme.components(separatedBy: "```swift\n").dropFirst().first?
                .components(separatedBy: "```").first
        )
        let readmeLines = block.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("let interceptor") }
        let marked = try #require(
            source.components(separatedBy: "// README-BEGIN\n").dropFirst().first?
                .components(separatedBy: "        // README-END").first
        )
        func normalized<S: Sequence>(_ lines: S) -> [String] where S.Element: StringProtocol {
            lines.map { line in
                line.trimmingCharacters(in: .whitespaces).replacingOccurrences(
                    of: #"\s+//"#,
                    with: " //",
                    options: .regularExpression
                )
            }.filter { !$0.isEmpty }
        }
        #expect(normalized(readmeLines) == normalized(marked.split(separator: "\n")))
    }
}
