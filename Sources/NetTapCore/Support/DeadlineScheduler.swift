import Dispatch

/// One Dispatch timer for many deadlines: the idle timeouts of every request in flight (``IdleTimeout``).
///
/// A Dispatch timer per request costs a source, its activation and its cancellation, and each of these wakes
/// libdispatch's manager thread: about a tenth of a mocked request's CPU. Here a request's deadline is an entry in
/// a bucket (deadlines rounded up to ``granularityNanoseconds``, about 8 ms: the leeway the per-request timers
/// had); one timer is armed for the earliest bucket and only moved when a new bucket comes earlier. Cancelling
/// removes the entry and leaves the timer alone (it fires, finds nothing due, and re-arms for the next bucket).
///
/// Due entries run on the scheduler's serial queue, outside its lock; one that returns a new deadline is
/// scheduled again under the same token.
///
/// Thread safety: every member may be used from any thread.
final class DeadlineScheduler: @unchecked Sendable {
    /// The scheduler the idle timeouts share.
    static let shared = DeadlineScheduler()

    /// Identifies a scheduled entry, for ``cancel(_:)``.
    struct Token: Hashable, Sendable {
        fileprivate let value: UInt64
    }

    /// Asked when its deadline has come: a later deadline schedules the entry again, `nil` ends it.
    typealias Action = @Sendable () -> DispatchTime?

    /// Deadlines are rounded up to a multiple of this: 2²³ ns, about 8.4 ms.
    static let granularityNanoseconds: UInt64 = 1 << 23

    private struct Entry {
        let bucket: UInt64
        let action: Action
    }

    private struct State {
        var nextToken: UInt64 = 0
        var entries: [UInt64: Entry] = [:]
        var buckets: [UInt64: Set<UInt64>] = [:]
        /// Keys of `buckets`, earliest first, each once; a key whose bucket emptied stays until it comes up.
        var keys = MinHeap()
        /// The keys in `keys`.
        var keySet: Set<UInt64> = []
        /// The bucket the timer is armed for.
        var armed: UInt64?
    }

    private let state = Locked(State())
    private let queue = DispatchQueue(label: "NetTap.DeadlineScheduler")
    private let timer: any DispatchSourceTimer

    /// Creates a scheduler with its own timer (NetTap uses ``shared``; tests make their own).
    init() {
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in self?.runDue() }
        timer.activate()
    }

    deinit {
        timer.cancel()
    }

    /// Runs `action` at `deadline` (up to ``granularityNanoseconds`` later).
    /// - Parameters:
    ///   - deadline: When.
    ///   - action: Run on the scheduler's queue; returns the next deadline, or `nil` when done.
    /// - Returns: The token that cancels it.
    func schedule(at deadline: DispatchTime, _ action: @escaping Action) -> Token {
        state.withLock { state in
            state.nextToken += 1
            let token = state.nextToken
            insert(token, Entry(bucket: Self.bucket(of: deadline), action: action), into: &state)
            return Token(value: token)
        }
    }

    /// Removes an entry; nothing happens when it has run already.
    /// - Parameter token: What ``schedule(at:_:)`` returned.
    func cancel(_ token: Token) {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: token.value) else { return }
            state.buckets[entry.bucket]?.remove(token.value)
            if state.buckets[entry.bucket]?.isEmpty == true { state.buckets[entry.bucket] = nil }
        }
    }

    /// How many entries are scheduled (for tests).
    var count: Int { state.withLock { $0.entries.count } }

    private func insert(_ token: UInt64, _ entry: Entry, into state: inout State) {
        state.entries[token] = entry
        if state.buckets[entry.bucket]?.insert(token) == nil {
            state.buckets[entry.bucket] = [token]
            if state.keySet.insert(entry.bucket).inserted { state.keys.insert(entry.bucket) }
        }
        if state.armed.map({ entry.bucket < $0 }) ?? true { arm(entry.bucket, in: &state) }
    }

    private func arm(_ bucket: UInt64, in state: inout State) {
        state.armed = bucket
        let (nanoseconds, overflow) = bucket.multipliedReportingOverflow(by: Self.granularityNanoseconds)
        let deadline = overflow ? DispatchTime.distantFuture : DispatchTime(uptimeNanoseconds: nanoseconds)
        timer.schedule(deadline: deadline, leeway: .milliseconds(1))
    }

    /// Takes every entry whose bucket has come, re-arms for the next bucket, then runs them.
    private func runDue() {
        let now = Self.bucket(of: DispatchTime.now(), roundingUp: false)
        let due = state.withLock { state -> [(UInt64, Entry)] in
            var due: [(UInt64, Entry)] = []
            while let key = state.keys.min, key <= now {
                state.keys.removeMin()
                state.keySet.remove(key)
                for token in state.buckets.removeValue(forKey: key) ?? [] {
                    if let entry = state.entries.removeValue(forKey: token) { due.append((token, entry)) }
                }
            }
            while let key = state.keys.min, state.buckets[key] == nil {
                state.keys.removeMin()
                state.keySet.remove(key)
            }
            state.armed = nil
            if let next = state.keys.min { arm(next, in: &state) }
            return due
        }
        for (token, entry) in due {
            guard let next = entry.action() else { continue }
            state.withLock { state in
                insert(token, Entry(bucket: Self.bucket(of: next), action: entry.action), into: &state)
            }
        }
    }

    private static func bucket(of time: DispatchTime, roundingUp: Bool = true) -> UInt64 {
        let nanoseconds = time.uptimeNanoseconds
        let (rounded, overflow) = nanoseconds.addingReportingOverflow(roundingUp ? granularityNanoseconds - 1 : 0)
        return (overflow ? UInt64.max : rounded) / granularityNanoseconds
    }
}

/// A binary min-heap of bucket keys.
private struct MinHeap {
    private var items: [UInt64] = []

    var min: UInt64? { items.first }

    mutating func insert(_ key: UInt64) {
        items.append(key)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child] < items[parent] else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func removeMin() {
        guard !items.isEmpty else { return }
        items.swapAt(0, items.count - 1)
        items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < items.count, items[left] < items[smallest] { smallest = left }
            if right < items.count, items[right] < items[smallest] { smallest = right }
            guard smallest != parent else { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
