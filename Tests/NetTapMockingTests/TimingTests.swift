import Foundation
import NetTapCore
import NetTapMocking
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Stub timing on the transaction clock")
struct TimingTests {
    private func pipeline(_ response: StubResponse) -> Pipeline {
        let mocks = MockSet(stubs: [Stub("timed", matching: .any, response: response)])
        return Pipeline(handlers: [MockHandler(mocks: mocks)], transport: FakeTransport())
    }

    @Test("latency holds the head back exactly 300 ms")
    func latency() async throws {
        let clock = ManualClock()
        let pipeline = pipeline(.text("late").withLatency(.milliseconds(300)))
        let head = Task { try await pipeline.send(request("/x"), context: TransactionContext(clock: clock)) }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(299))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))
        let response = try await head.value
        #expect(try await response.body.collect() == Data("late".utf8))
    }

    @Test("a body duration delivers the body in steps of at most 50 ms")
    func bodyDuration() async throws {
        let clock = ManualClock()
        let body = Data(repeating: 7, count: 1000)
        let pipeline = pipeline(.data(body).withBodyDuration(.milliseconds(200)))
        let response = try await pipeline.send(request("/x"), context: TransactionContext(clock: clock))
        var iterator = response.body.makeAsyncIterator()
        for _ in 0..<4 {
            await clock.waitForSleepers(count: 1)
            clock.advance(by: .milliseconds(49))
            #expect(clock.sleeperCount == 1)
            clock.advance(by: .milliseconds(1))
            #expect(try await iterator.next()?.count == 250)
        }
        #expect(try await iterator.next() == nil)
    }

    @Test("a bandwidth paces the body: 100 bytes at 1000 bytes per second take 100 ms in two steps")
    func bandwidth() async throws {
        let clock = ManualClock()
        let pipeline = pipeline(.data(Data(repeating: 1, count: 100)).withBandwidth(bytesPerSecond: 1000))
        let response = try await pipeline.send(request("/x"), context: TransactionContext(clock: clock))
        var iterator = response.body.makeAsyncIterator()
        for _ in 0..<2 {
            await clock.waitForSleepers(count: 1)
            clock.advance(by: .milliseconds(50))
            #expect(try await iterator.next()?.count == 50)
        }
        #expect(try await iterator.next() == nil)
    }

    @Test("pacing arithmetic holds for huge bandwidths, bodies and durations")
    func pacingExtremes() {
        let fast = BodyPacing.bandwidth(bytesPerSecond: 20_000_000_000)
        #expect(fast.totalDuration(forByteCount: 30_000_000_000) == .milliseconds(1500))
        let forever = BodyPacing.duration(.seconds(Int64.max))
        #expect(forever.stepCount(forByteCount: 0) == Int.max / 2)
        let long = BodyPacing.duration(.seconds(9_000_000))
        let steps = long.stepCount(forByteCount: 0)
        #expect(steps == 180_000_000)
    }

    @Test("an empty 200 body still takes its duration after the head")
    func emptyBodyWaits() async throws {
        let clock = ManualClock()
        let pipeline = pipeline(.status(200).withBodyDuration(.milliseconds(120)))
        let response = try await pipeline.send(request("/x"), context: TransactionContext(clock: clock))
        #expect(response.headers["Content-Length"] == "0")
        let body = Task { try await response.body.collect() }
        for _ in 0..<3 {
            await clock.waitForSleepers(count: 1)
            clock.advance(by: .milliseconds(40))
        }
        #expect(try await body.value.isEmpty)
        #expect(clock.now.offset == .milliseconds(120))
    }

    @Test("a 204 or a HEAD answer takes its body duration before the head, in steps of at most 50 ms")
    func noContentWaitsBeforeHead() async throws {
        for (response, method) in [(StubResponse.status(204), "GET"), (.text("body"), "HEAD")] {
            let clock = ManualClock()
            let pipeline = pipeline(response.withBodyDuration(.milliseconds(120)))
            let head = Task {
                try await pipeline.send(request("/x", method: method), context: TransactionContext(clock: clock))
            }
            for _ in 0..<3 {
                await clock.waitForSleepers(count: 1)
                clock.advance(by: .milliseconds(40))
            }
            let answer = try await head.value
            #expect(try await answer.body.collect().isEmpty)
            #expect(clock.now.offset == .milliseconds(120))
        }
    }

    @Test("cancelling during the latency stops at once")
    func cancelDuringLatency() async throws {
        let clock = ManualClock()
        let pipeline = pipeline(.text("never").withLatency(.seconds(10)))
        let head = Task { try await pipeline.send(request("/x"), context: TransactionContext(clock: clock)) }
        await clock.waitForSleepers(count: 1)
        head.cancel()
        await #expect(throws: CancellationError.self) { _ = try await head.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test("cancelling a paced body stops its producer at once")
    func cancelPacedBody() async throws {
        let clock = ManualClock()
        let pipeline = pipeline(.data(Data(repeating: 2, count: 10_000)).withBodyDuration(.seconds(10)))
        let response = try await pipeline.send(request("/x"), context: TransactionContext(clock: clock))
        let reader = Task { try await response.body.collect() }
        await clock.waitForSleepers(count: 1)
        reader.cancel()
        await #expect(throws: CancellationError.self) { _ = try await reader.value }
        #expect(clock.sleeperCount == 0)
    }
}
