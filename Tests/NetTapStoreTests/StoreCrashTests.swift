import Foundation
import NetTapCore
import Testing

@testable import NetTapStore

/// The built StoreWriterFixture executable, beside the test bundle or in `.build/debug`.
private enum WriterFixture {
    static let url: URL? = {
        var candidates = [
            Bundle.main.bundleURL.appendingPathComponent("StoreWriterFixture"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("StoreWriterFixture"),
        ]
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("StoreWriterFixture"))
        }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/StoreWriterFixture"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()
}

/// Reads a pipe line by line as the child writes.
private func lines(of handle: FileHandle) -> AsyncStream<String> {
    AsyncStream { continuation in
        let pending = Locked(Data())
        handle.readabilityHandler = { handle in
            let chunk = handle.availableData
            if chunk.isEmpty {
                handle.readabilityHandler = nil
                continuation.finish()
                return
            }
            let complete = pending.withLock { pending -> [String] in
                pending.append(chunk)
                var complete: [String] = []
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    complete.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
                return complete
            }
            for line in complete { continuation.yield(line) }
        }
    }
}

@Suite(
    "TransactionStore survives kill -9 mid-write",
    .enabled(if: WriterFixture.url != nil, "the StoreWriterFixture executable was not found beside the tests")
)
struct StoreCrashTests {
    @Test("a writer killed with SIGKILL mid-batch leaves a sound store with every reported commit", arguments: 1...4)
    func killMidWrite(round: Int) async throws {
        let fixture = try #require(WriterFixture.url)
        let url = try makeStoreURL()
        // Kill at a different point each round: after 2, 5, 8 or 11 reported batches of 200.
        let killAfter = 200 * (3 * round - 1)
        let process = Process()
        process.executableURL = fixture
        process.arguments = [url.path, "200"]
        let output = Pipe()
        process.standardOutput = output
        let exited = AsyncStream<Process.TerminationReason> { continuation in
            process.terminationHandler = { process in
                continuation.yield(process.terminationReason)
                continuation.finish()
            }
        }
        try process.run()
        var lastCommitted = 0
        for await line in lines(of: output.fileHandleForReading) {
            guard line.hasPrefix("committed "), let count = Int(line.dropFirst("committed ".count)) else {
                Issue.record("unexpected fixture output: \(line)")
                break
            }
            lastCommitted = count
            // The child is already writing its next batch: kill it now, mid-write.
            if count >= killAfter {
                kill(process.processIdentifier, SIGKILL)
                break
            }
        }
        var reason: Process.TerminationReason?
        for await value in exited { reason = value }
        #expect(reason == .uncaughtSignal)
        #expect(lastCommitted >= killAfter)

        let store = try TransactionStore(url: url, mode: .readOnly)
        #expect(try await store.integrityCheck() == ["ok"])
        let counts = try await store.rowCounts()
        #expect(counts.transactions >= lastCommitted)
        // A batch is all or nothing: the count is a whole number of batches.
        #expect(counts.transactions % 200 == 0)
        let all = try await store.transactions(includingBodies: true)
        #expect(all.count == counts.transactions)
        #expect(all.allSatisfy { $0.response?.body?.data.count == 1024 && $0.state == .completed })
        // Reopening for writing works too, and new writes land.
        let writer = try TransactionStore(url: url)
        writer.record(makeTransaction())
        try await writer.flush()
        #expect(try await writer.count() == counts.transactions + 1)
    }
}
