import Foundation
import NetTapCore
import NetTapHAR
import Testing

@testable import NetTapStore

@Suite("TransactionStore: writing and reading back")
struct TransactionStoreTests {
    @Test("a flushed transaction reads back equal, with its bodies, after the store is reopened")
    func roundTrip() async throws {
        let url = try makeStoreURL()
        let original = makeTransaction(
            method: "POST",
            requestBody: Data("name=ada".utf8),
            findings: [Finding(rule: "audit.secret", severity: .high, location: "body", message: "a token")]
        )
        do {
            let store = try TransactionStore(url: url)
            store.record(original)
            try await store.flush()
        }
        let reopened = try TransactionStore(url: url)
        let loaded = try #require(try await reopened.transaction(id: original.id))
        #expect(loaded == original)
        #expect(try await reopened.count() == 1)
    }

    @Test("listing leaves body bytes out but keeps each body's full size")
    func listingWithoutBodies() async throws {
        let store = try TransactionStore(url: try makeStoreURL())
        let transaction = makeTransaction(body: Data(repeating: 7, count: 3000))
        store.record(transaction)
        try await store.flush()
        let listed = try #require(try await store.transactions().first)
        #expect(listed.response?.body?.data.isEmpty == true)
        #expect(listed.response?.body?.totalByteCount == 3000)
        #expect(listed.request.body == nil)
        let full = try #require(try await store.transactions(includingBodies: true).first)
        #expect(full == transaction)
    }

    @Test("identical bodies are stored once and removed with their last transaction")
    func deduplicatesBodies() async throws {
        let url = try makeStoreURL()
        let store = try TransactionStore(url: url, now: { Date(timeIntervalSince1970: 1_750_000_000) })
        let shared = Data(repeating: 1, count: 1024)
        let old = makeTransaction(start: Date(timeIntervalSince1970: 1_750_000_000 - 20 * 86_400), body: shared)
        for index in 0..<10 {
            store.record(
                makeTransaction(start: Date(timeIntervalSince1970: 1_750_000_000 + Double(index)), body: shared)
            )
        }
        store.record(makeTransaction(body: Data(repeating: 2, count: 1024)))
        try await store.flush()
        #expect(try await store.rowCounts() == (transactions: 11, bodies: 2))
        // An old transaction with its own body: evicted by age at once, and its body with it.
        store.record(
            makeTransaction(start: Date(timeIntervalSince1970: 1_700_000_000), body: Data(repeating: 3, count: 10))
        )
        store.record(old)
        try await store.flush()
        #expect(try await store.rowCounts() == (transactions: 11, bodies: 2))
    }

    @Test("a body over the per-body limit is stored truncated with its full byte count")
    func truncatesBodies() async throws {
        let store = try TransactionStore(url: try makeStoreURL(), limits: StoreLimits(bodyByteLimit: 100))
        let transaction = makeTransaction(body: Data(repeating: 9, count: 1000))
        store.record(transaction)
        try await store.flush()
        let loaded = try #require(try await store.transaction(id: transaction.id))
        #expect(loaded.response?.body?.data == Data(repeating: 9, count: 100))
        #expect(loaded.response?.body?.totalByteCount == 1000)
        #expect(loaded.response?.body?.isTruncated == true)
    }

    @Test("recording the same identifier again replaces the stored transaction")
    func replaces() async throws {
        let store = try TransactionStore(url: try makeStoreURL())
        var transaction = makeTransaction(body: Data("first".utf8))
        store.record(transaction)
        try await store.flush()
        transaction.response?.statusCode = 503
        transaction.response?.body = CapturedBody(data: Data("second".utf8))
        store.record(transaction)
        try await store.flush()
        #expect(try await store.rowCounts() == (transactions: 1, bodies: 1))
        #expect(try await store.transaction(id: transaction.id) == transaction)
    }

    @Test("the file and its -wal and -shm files are created with mode 0600, in WAL mode with incremental vacuum")
    func fileModeAndPragmas() async throws {
        let url = try makeStoreURL()
        let store = try TransactionStore(url: url)
        store.record(makeTransaction())
        try await store.flush()
        #expect(try permissions(url.path) == 0o600)
        #expect(try permissions(url.path + "-wal") == 0o600)
        #expect(try permissions(url.path + "-shm") == 0o600)
        #expect(try rawText(url, "PRAGMA journal_mode") == "wal")
        #expect(try rawText(url, "PRAGMA auto_vacuum") == "2")
        #expect(try rawText(url, "PRAGMA user_version") == "\(Schema.currentVersion)")
        #expect(try await store.integrityCheck() == ["ok"])
    }

    @Test("a full batch is written without flush, and flush waits for it")
    func batchSizeStartsAWrite() async throws {
        let url = try makeStoreURL()
        let store = try TransactionStore(url: url, batchSize: 3, flushInterval: .seconds(3600))
        for _ in 0..<7 { store.record(makeTransaction()) }
        try await store.flush()
        #expect(try await store.count() == 7)
    }

    @Test("as a capture log observer it stores each finished transaction once, in its final state")
    func observesCaptureLog() async throws {
        let store = try TransactionStore(url: try makeStoreURL())
        let log = CaptureLog()
        log.addObserver(store)
        var transaction = makeTransaction()
        transaction.state = .pending
        log.record(.started(transaction))
        transaction.state = .completed
        log.record(.finished(transaction))
        // The log calls observers on one serial queue, one event after another: once the marker's event
        // reaches another observer, the store has seen the two events before it.
        let (markers, continuation) = AsyncStream.makeStream(of: UUID.self)
        log.addObserver(MarkerObserver(continuation: continuation))
        let marker = makeTransaction(url: "https://marker.example/marker")
        log.record(.started(marker))
        for await id in markers where id == marker.id { break }
        try await store.flush()
        let stored = try await store.transactions(includingBodies: true)
        #expect(stored == [transaction])
    }

    @Test("exportHAR gives a HAR 1.2 document of the query's transactions with their bodies")
    func exportsHAR() async throws {
        let store = try TransactionStore(url: try makeStoreURL())
        let kept = makeTransaction(url: "https://a.example/one", body: Data("hello".utf8))
        store.record(kept)
        store.record(makeTransaction(url: "https://b.example/two"))
        try await store.flush()
        let document = try await store.exportHAR(matching: StoreQuery(host: "a.example"))
        #expect(document.log.entries.count == 1)
        #expect(document.transactions() == [kept].map { HARDocument(transactions: [$0]).transactions()[0] })
        #expect(document.log.entries.first?.response.content.text == "hello")
    }
}

/// Yields the identifier of every `.started` event it sees.
private struct MarkerObserver: TransactionObserver {
    let continuation: AsyncStream<UUID>.Continuation

    func observe(_ event: TransactionEvent) {
        if case .started(let transaction) = event { continuation.yield(transaction.id) }
    }
}
