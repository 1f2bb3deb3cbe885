import Foundation
import NetTapCore

/// Runs `operation` and returns its result, or `nil` when it has not finished within `timeout`.
///
/// For awaiting events that cannot be cancelled (such as `CaptureLog.waitForFinished(where:)`) without
/// letting a missing event hang the test run: the operation keeps running in the background after a
/// timeout, and its late result is dropped.
///
/// The timeout is a guard against hangs, never a measure of speed: in a whole-suite run on CI's two cores the
/// cooperative pool can be busy for tens of seconds before `operation` even starts (a 10 s guard once failed an
/// event that was already in the log), so give it 60 s or more.
/// - Parameters:
///   - timeout: The longest wait.
///   - operation: The work to await.
/// - Returns: The operation's result, or `nil` after `timeout`.
public func withDeadline<T: Sendable>(
    _ timeout: Duration,
    _ operation: @escaping @Sendable () async -> T
) async -> T? {
    let once = Locked<CheckedContinuation<T?, Never>?>(nil)
    return await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        once.withLock { $0 = continuation }
        let work = Task {
            let value = await operation()
            once.withLock { pending in
                defer { pending = nil }
                return pending
            }?.resume(returning: value)
        }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            let pending = once.withLock { pending in
                defer { pending = nil }
                return pending
            }
            if let pending {
                work.cancel()
                pending.resume(returning: nil)
            }
        }
    }
}
