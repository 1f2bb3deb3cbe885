import Foundation

/// Per-chunk results written from concurrent iterations (`DispatchQueue.concurrentPerform`), each to its own slot.
///
/// Thread safety: each slot is written by exactly one iteration and read only after all returned; the lock makes
/// the writes visible without relying on that ordering.
final class ChunkResults<Element>: @unchecked Sendable {
    private var slots: [Element?]
    private var filled = 0
    private let lock = NSLock()

    /// Creates `count` empty slots.
    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    /// Stores a chunk's result and returns how many chunks are stored.
    func set(_ index: Int, _ value: Element) -> Int {
        lock.lock()
        defer { lock.unlock() }
        slots[index] = value
        filled += 1
        return filled
    }

    /// The results in chunk order (slots never set are skipped).
    func values() -> [Element] {
        lock.lock()
        defer { lock.unlock() }
        return slots.compactMap { $0 }
    }
}
