import Foundation

/// Turns on FoundationNetworking's one process-wide URLSession queue, for tests that would otherwise disturb each
/// other through it.
///
/// swift-corelibs-foundation 6.3.1 runs every session's work queue on one serial queue
/// (`URLSession.sharedQueue`): libcurl's callbacks, the header parsing, and the request idle timer all wait
/// their turn there. A test that keeps that queue busy for seconds (10,000 response headers, a 1 GiB body)
/// delays every other session's timer; a test whose outcome needs the timer to fire while an answer is still on
/// its way (a 1 s timeout on a 3-second answer) then sees the answer win, direct or through NetTap alike — one
/// failure in a few full runs. Both kinds run their bodies through ``run(_:)``, one at a time.
public actor SharedQueueTurns {
    /// The one instance every test of the process shares.
    public static let shared = SharedQueueTurns()

    private var isBusy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` when no other turn is running; turns start in the order they were asked for.
    /// - Parameter body: The test's work.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func run<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        guard isBusy else {
            isBusy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            isBusy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
