import Dispatch
import Foundation
import Synchronization
import Testing

@testable import NetTapCore

@Suite("Deadline scheduler (one timer for every idle timeout)")
struct DeadlineSchedulerTests {
    private let scheduler = DeadlineScheduler()

    /// Schedules `count` entries `milliseconds` from now; each reports its index when it runs.
    private func scheduleEntries(
        _ count: Int,
        milliseconds: Int,
        report: @escaping @Sendable (Int) -> Void
    ) -> [DeadlineScheduler.Token] {
        (0..<count).map { index in
            scheduler.schedule(at: .now() + .milliseconds(milliseconds)) {
                report(index)
                return nil
            }
        }
    }

    @Test("every entry runs once at its deadline, not before; a cancelled one never runs")
    func runsAndCancels() async {
        let ran = Mutex<[Int]>([])
        let start = DispatchTime.now()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let tokens = scheduleEntries(20, milliseconds: 50) { index in
                let isLast = ran.withLock { ran -> Bool in
                    ran.append(index)
                    return ran.count == 19
                }
                if isLast { done.resume() }
            }
            scheduler.cancel(tokens[5])
        }
        let elapsed = DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds
        #expect(elapsed >= 50_000_000)
        let indices = ran.withLock { $0 }
        #expect(indices.sorted() == (0..<20).filter { $0 != 5 })
    }

    @Test("an entry that returns a later deadline runs again then; an earlier entry scheduled later runs first")
    func reschedulesAndReordersTimer() async {
        let events = Mutex<[String]>([])
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let rounds = Mutex(0)
            _ = scheduler.schedule(at: .now() + .milliseconds(200)) {
                let round = rounds.withLock { rounds -> Int in
                    rounds += 1
                    return rounds
                }
                events.withLock { $0.append("late \(round)") }
                if round == 2 {
                    done.resume()
                    return nil
                }
                return .now() + .milliseconds(30)
            }
            // Scheduled after the 200 ms entry, due before it: the shared timer must move earlier.
            _ = scheduler.schedule(at: .now() + .milliseconds(20)) {
                events.withLock { $0.append("early") }
                return nil
            }
        }
        #expect(events.withLock { $0 } == ["early", "late 1", "late 2"])
    }

    @Test("cancelled and finished entries leave nothing behind")
    func leavesNothing() async {
        let tokens = scheduleEntries(1_000, milliseconds: 60_000) { _ in }
        #expect(scheduler.count == 1_000)
        for token in tokens { scheduler.cancel(token) }
        #expect(scheduler.count == 0)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            _ = scheduler.schedule(at: .now()) {
                done.resume()
                return nil
            }
        }
        #expect(scheduler.count == 0)
    }
}
