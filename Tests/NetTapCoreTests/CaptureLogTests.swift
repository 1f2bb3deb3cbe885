import Foundation
import Testing

@testable import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private final class CollectingObserver: TransactionObserver {
    let (stream, continuation) = AsyncStream.makeStream(of: TransactionEvent.self)
    func observe(_ event: TransactionEvent) { continuation.yield(event) }
}

@Suite("Capture log")
struct CaptureLogTests {
    private func transaction(_ path: String, state: CapturedTransaction.State = .completed) -> CapturedTransaction {
        CapturedTransaction(
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
        let gate = DispatchSemaphore(value: 0)
        for (index, path) in paths.enumerated() {
            let record = transaction(path)
            log.record(later: {
                // The recording queue is held at the first hand-over until the removal has had its chance.
                if index == 0 { gate.wait() }
                return .finished(record)
            })
        }
        let removed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            log.removeObserver(token)
            removed.signal()
        }
        // While the queue is held, the removal must wait for the 200 events handed over before it.
        let returnedWhileHeld = removed.wait(timeout: .now() + 0.2) == .success
        gate.signal()
        #expect(!returnedWhileHeld, "removeObserver returned with the events still queued")
        #expect(returnedWhileHeld || removed.wait(timeout: .now() + 30) == .success)
        #expect(seen.withLock { $0 } == paths)
        log.record(.finished(transaction("/after")))
        #expect(log.transactions.count == 201)
        #expect(seen.withLock { $0 }.count == 200, "no event after removal")
    }

    /// The soak held 550 MiB of queued snapshots when traffic outran redaction; past the bound a caller waits.
    @Test("with the recording queue held, hand-overs return until the backlog's byte bound, and the next one waits")
    func boundedBacklog() {
        let log = CaptureLog()
        let megabyte = 1_048_576
        let bound = CaptureLog.backlogByteLimit / megabyte
        let records = (0..<(bound * 2)).map { transaction("/\($0)") }
        let gate = DispatchSemaphore(value: 0)
        let returned = Locked(0)
        let handedOver = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for (index, record) in records.enumerated() {
                log.record(bodyBytes: megabyte) {
                    if index == 0 { gate.wait() }
                    return .finished(record)
                }
                returned.withLock { $0 += 1 }
                handedOver.signal()
            }
            done.signal()
        }
        // The first `bound` hand-overs (exactly the bound's bytes) return while nothing is recorded…
        for _ in 0..<bound { #expect(handedOver.wait(timeout: .now() + 30) == .success) }
        // …the next one waits for the queue.
        let overran = handedOver.wait(timeout: .now() + 0.2) == .success
        #expect(!overran, "a hand-over past the bound returned while the queue was held")
        #expect(returned.withLock { $0 } == (overran ? bound + 1 : bound))
        gate.signal()
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(log.transactions.count == records.count)
    }

    @Test("isCapturing false leaves requests that start out of the log; one under way is recorded to its end")
    func pausedCapture() throws {
        let log = CaptureLog()
        let request = URLRequest(url: try #require(URL(string: "http://app.test/a")))
        func recorder() -> TransactionRecorder {
            TransactionRecorder(request: request, body: nil, context: TransactionContext(), log: log, bodyByteLimit: 1)
        }
        log.isCapturing = false
        recorder().finish(error: nil)
        #expect(log.transactions.isEmpty)
        log.isCapturing = true
        let underWay = recorder()
        log.isCapturing = false
        underWay.finish(error: nil)
        #expect(log.transactions.map(\.state) == [.completed])
    }
}
