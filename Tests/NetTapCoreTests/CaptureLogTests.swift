import Foundation
import Testing

@testable import NetTapCore

private final class CollectingObserver: TransactionObserver {
    let (stream, continuation) = AsyncStream.makeStream(of: TransactionEvent.self)
    func observe(_ event: TransactionEvent) { continuation.yield(event) }
}

@Suite("Capture log")
struct CaptureLogTests {
    private func transaction(_ path: String, state: Transaction.State = .completed) -> Transaction {
        Transaction(
            request: CapturedRequest(method: "GET", url: URL(string: "https://example.com\(path)")!, headers: [:]),
            timings: Timings(startDate: Date(timeIntervalSince1970: 0)),
            state: state
        )
    }

    @Test("keeps the newest transactions up to its capacity")
    func capacity() {
        let log = CaptureLog(capacity: 2)
        for path in ["/1", "/2", "/3"] { log.record(.finished(transaction(path))) }
        #expect(log.transactions.map(\.request.url.path) == ["/2", "/3"])
        log.capacity = 1
        #expect(log.transactions.map(\.request.url.path) == ["/3"])
    }

    @Test("a later event replaces the snapshot of the same transaction")
    func updates() {
        let log = CaptureLog()
        var record = transaction("/a", state: .pending)
        log.record(.started(record))
        record.state = .completed
        log.record(.finished(record))
        #expect(log.transactions.count == 1)
        #expect(log.transaction(id: record.id)?.state == .completed)
    }

    @Test("waitForFinished returns a transaction that finishes later")
    func waitForFinished() async {
        let log = CaptureLog()
        let record = transaction("/later")
        async let found = log.waitForFinished { $0.request.url.path == "/later" }
        log.record(.started(transaction("/other", state: .pending)))
        log.record(.finished(record))
        #expect(await found.id == record.id)
    }

    @Test("observers and event streams see every event in order")
    func observersAndStreams() async {
        let log = CaptureLog()
        let observer = CollectingObserver()
        log.addObserver(observer)
        let stream = log.events()
        let first = transaction("/x", state: .pending)
        log.record(.started(first))
        log.record(.finished(transaction("/y")))
        var paths: [String] = []
        for await event in stream {
            paths.append(event.transaction.request.url.path)
            if paths.count == 2 { break }
        }
        #expect(paths == ["/x", "/y"])
        var observed: [String] = []
        for await event in observer.stream {
            observed.append(event.transaction.request.url.path)
            if observed.count == 2 { break }
        }
        #expect(observed == ["/x", "/y"])
    }

    /// The demo's store missed the last transaction of its run (34 of 35) when the observer was removed while that
    /// transaction's event still waited on the recording queue.
    @Test("an observer removed after events were handed over has received every one of them when removal returns")
    func removalDeliversEarlierEvents() {
        let log = CaptureLog()
        let seen = Locked<[String]>([])
        final class Counting: TransactionObserver {
            let seen: Locked<[String]>
            init(_ seen: Locked<[String]>) { self.seen = seen }
            func observe(_ event: TransactionEvent) { seen.withLock { $0.append(event.transaction.request.url.path) } }
        }
        let token = log.addObserver(Counting(seen))
        let paths = (0..<200).map { "/\($0)" }
        for path in paths {
            let record = transaction(path)
            log.record(later: {
                // Slow redaction: the hand-over is still queued when removeObserver runs.
                Thread.sleep(forTimeInterval: 0.0005)
                return .finished(record)
            })
        }
        log.removeObserver(token)
        #expect(seen.withLock { $0 } == paths)
        log.record(.finished(transaction("/after")))
        #expect(log.transactions.count == 201)
        #expect(seen.withLock { $0 }.count == 200, "no event after removal")
    }

    /// The soak held 550 MiB of queued snapshots when traffic outran redaction; past the bound a caller waits.
    @Test("the backlog never holds more body bytes than its bound when a hand-over returns")
    func boundedBacklog() {
        let log = CaptureLog()
        let recorded = Locked(0)
        let megabyte = 1_048_576
        let bound = CaptureLog.backlogByteLimit / megabyte
        let count = bound * 2
        var mostQueued = 0
        for index in 0..<count {
            let record = transaction("/\(index)")
            log.record(bodyBytes: megabyte) {
                // Slow redaction: without the bound, the hand-overs would run far ahead of the queue.
                Thread.sleep(forTimeInterval: 0.001)
                recorded.withLock { $0 += 1 }
                return .finished(record)
            }
            mostQueued = max(mostQueued, index + 1 - recorded.withLock { $0 })
        }
        #expect(mostQueued <= bound, "\(mostQueued) MiB queued; the bound is \(bound) MiB")
        #expect(mostQueued > 1, "the queue never fell behind: the test did not reach the bound")
        #expect(log.transactions.count == count)
    }
}
