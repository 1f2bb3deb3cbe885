import Foundation
import NetTapCore
import Testing

@testable import NetTapStore

/// A date the test moves forward by hand.
private final class ManualNow: Sendable {
    private let date: Locked<Date>
    init(_ date: Date) { self.date = Locked(date) }
    var value: Date { date.current }
    func advance(bySeconds seconds: Double) { date.withLock { $0 += seconds } }
}

@Suite("StoreLimits: age limit, size cap, eviction oldest first")
struct StoreLimitsTests {
    @Test("transactions older than the age limit are removed after the next batch, by the injected clock")
    func ageLimit() async throws {
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        let now = ManualNow(start)
        let store = try TransactionStore(
            url: try makeStoreURL(),
            limits: StoreLimits(maximumAge: .seconds(14 * 86_400)),
            now: { now.value }
        )
        let old = makeTransaction(start: start - 13 * 86_400, body: Data("old".utf8))
        let recent = makeTransaction(start: start - 86_400, body: Data("recent".utf8))
        store.record(old)
        store.record(recent)
        try await store.flush()
        #expect(try await store.count() == 2)
        now.advance(bySeconds: 2 * 86_400)
        try await store.enforceLimits()
        #expect(try await store.transactions().map(\.id) == [recent.id])
        #expect(try await store.rowCounts() == (transactions: 1, bodies: 1))
        now.advance(bySeconds: 13 * 86_400)
        store.record(makeTransaction(start: now.value))
        try await store.flush()
        #expect(try await store.count() == 1)
        #expect(try await store.transaction(id: recent.id) == nil)
    }

    @Test("over the size cap the oldest are removed until the pages in use fit, and the file shrinks")
    func sizeCap() async throws {
        let url = try makeStoreURL()
        let cap: Int64 = 1024 * 1024
        let base = Date(timeIntervalSince1970: 1_750_000_000)
        let store = try TransactionStore(
            url: url,
            limits: StoreLimits(totalByteLimit: cap, maximumAge: nil),
            batchSize: 10_000
        )
        var transactions: [CapturedTransaction] = []
        for index in 0..<400 {
            // 16 KiB of distinct bytes each: 6.4 MiB in all, far over the 1 MiB cap.
            var body = Data(repeating: UInt8(index % 251), count: 16 * 1024)
            body.replaceSubrange(0..<8, with: withUnsafeBytes(of: index) { Data($0) })
            let transaction = makeTransaction(start: base + Double(index), body: body)
            transactions.append(transaction)
            store.record(transaction)
            if index % 50 == 49 { try await store.flush() }
        }
        try await store.flush()
        let used = try await store.usedByteCount()
        #expect(used <= cap)
        let kept = try await store.transactions()
        #expect(!kept.isEmpty)
        #expect(kept.count < 100)
        // Oldest first: what is kept is exactly the newest ones.
        #expect(kept.map(\.id) == transactions.suffix(kept.count).reversed().map(\.id))
        #expect(try await store.rowCounts().bodies == kept.count)
        try await store.checkpoint()
        let fileSize = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        #expect(Int64(fileSize) <= cap + 64 * 1024)
        #expect(try await store.integrityCheck() == ["ok"])
    }
}
