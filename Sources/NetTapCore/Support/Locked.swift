import Foundation

/// A value guarded by a lock: the one small lock wrapper NetTap uses for shared mutable state.
///
/// `Synchronization.Mutex` needs macOS 15 / iOS 18; this wrapper works on every supported platform.
/// Thread safety: every access goes through `withLock`, so instances may be shared between threads.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Creates the wrapper around an initial value.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value and returns its result.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the current value.
    package var current: Value {
        withLock { $0 }
    }
}
