import Foundation
import NetTapCLI
import NetTapCore
import NetTapStore
import NetTapTesting
import Testing

@Suite("Commands that write a store leave a .sqlite file complete on its own")
struct StoreFileTests {
    @Test("after fetch --config with a store, a copy of the .sqlite file alone holds the transaction")
    func fetchStoreCopiedAlone() async throws {
        let directory = try makeTemporaryDirectory()
        let configuration = """
            {
              "mocks": {"stubs": [{"name": "hello", "match": {"host": "api.nettap.invalid", "path": "/hello"},
                                   "response": {"body": "hello", "headers": {"Content-Type": "text/plain"}}}]},
              "store": {"path": "captures.sqlite"}
            }
            """
        try Data(configuration.utf8).write(to: directory.appendingPathComponent("nettap.json"))
        // The interceptor outlives the run and keeps observing through the store, as in a long-lived process.
        let interceptor = NetTapInterceptor()
        interceptor.transport = FakeTransport(statusCode: 599)
        let run = await runCLI(
            ["fetch", "https://api.nettap.invalid/hello", "--config", "nettap.json"],
            interceptor: interceptor,
            workingDirectory: directory
        )
        #expect(run.exitCode == .success, "\(run.standardError)")
        let copyFolder = try makeTemporaryDirectory()
        let copy = copyFolder.appendingPathComponent("copy.sqlite")
        try FileManager.default.copyItem(at: directory.appendingPathComponent("captures.sqlite"), to: copy)
        let store = try TransactionStore(url: copy, mode: .readOnly)
        let stored = try await store.transactions()
        #expect(stored.map(\.request.url.absoluteString) == ["https://api.nettap.invalid/hello"])
        withExtendedLifetime(interceptor) {}
    }
}
