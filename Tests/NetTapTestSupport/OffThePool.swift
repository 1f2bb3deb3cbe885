import Foundation

/// Runs blocking work (a child process to its exit, a pipe read to its end) on a thread of its own and awaits it.
///
/// Swift's cooperative pool has one thread per core, and so do Dispatch's global queues: on the 2-core CI machine
/// two tests that each block such a thread on a browser run stall every task (or global-queue work) in the test
/// process — a local-files body once waited 60 s and its request timed out. Blocking calls in tests go through
/// here instead.
///
/// - Parameter work: The blocking work.
/// - Returns: What `work` returns.
/// - Throws: What `work` throws.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.start()
    }
}
