import NetTapCore
import NetTapTesting
import Testing

@Suite("ManualClock")
struct TestClockTests {
    @Test("waitForSleeper(until:) returns once a sleeper with that deadline exists, whichever sleeper came first")
    func waitForExactSleeper() async throws {
        let clock = ManualClock()
        let origin = clock.now
        let woken = Locked<[Int]>([])
        // The 3 s sleeper registers first: waitForSleepers(count: 1) would return now, waitForSleeper not.
        let late = Task {
            try await clock.sleep(until: origin.advanced(by: .seconds(3)))
            woken.withLock { $0.append(3) }
        }
        await clock.waitForSleeper(until: origin.advanced(by: .seconds(3)))
        let early = Task {
            try await clock.sleep(until: origin.advanced(by: .seconds(2)))
            woken.withLock { $0.append(2) }
        }
        await clock.waitForSleeper(until: origin.advanced(by: .seconds(2)))
        #expect(clock.sleeperCount == 2)
        clock.advance(by: .seconds(2))
        try await early.value
        #expect(woken.current == [2])
        clock.advance(by: .seconds(1))
        try await late.value
        #expect(woken.current == [2, 3])
        // A deadline already waited for and gone no longer counts; a past instant is not a sleeper.
        #expect(clock.sleeperCount == 0)
    }

    @Test("waitForSleepers(count:) still returns once that many tasks sleep")
    func waitForCount() async throws {
        let clock = ManualClock()
        let tasks = (1...3).map { seconds in
            Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(seconds))) }
        }
        await clock.waitForSleepers(count: 3)
        #expect(clock.sleeperCount == 3)
        clock.advance(by: .seconds(3))
        for task in tasks { try await task.value }
        #expect(clock.sleeperCount == 0)
    }
}
