#if canImport(CNetTapCurl)
import CNetTapCurl
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one thread that drives every libcurl transfer of the libcurl transport.
///
/// libcurl's multi interface is event driven: each multi handle says which sockets it waits on and when its
/// next timeout is due (`CURLMOPT_SOCKETFUNCTION`, `CURLMOPT_TIMERFUNCTION`); this loop waits for all of them
/// at once with `epoll` and tells the right multi handle what happened (`curl_multi_socket_action`). Other
/// threads never touch libcurl: they queue a command and wake the loop through an `eventfd`. The thread is
/// idle in `epoll_wait` when nothing is in flight; no app or NetTap thread ever blocks on the network.
///
/// One multi handle per forwarding profile (``CurlConnectionPool``): connections and the per-host connection
/// limit are per app session, as without NetTap.
final class CurlEventLoop: @unchecked Sendable {
    /// The process's loop; `nil` when libcurl, `epoll` or the thread could not be set up (requests then go
    /// through the URLSession transport).
    static let shared: CurlEventLoop? = CurlEventLoop()

    private let epoll: Int32
    private let wake: Int32
    private let batch = ClientCallBatch()
    private let inbox = Locked<(commands: [@Sendable (CurlEventLoop) -> Void], isWakePending: Bool)>(([], false))

    // Loop-thread state.
    private var pools: [ForwardingProfile: CurlConnectionPool] = [:]
    private var sockets: [Int32: CurlConnectionPool] = [:]
    private var running: [ObjectIdentifier: CurlExchange] = [:]
    private var thread: Thread?
    /// When pools of app sessions that are gone are looked for next (monotonic nanoseconds).
    private var nextSweep: UInt64 = 0

    /// How often, while any pool is open, the loop looks for pools of app sessions that are gone, to close their
    /// connections (a session going away sends no event NetTap could wait on).
    static let sweepInterval: UInt64 = 1_000_000_000

    private init?() {
        guard curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK else { return nil }
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        wake = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard epoll >= 0, wake >= 0, nettap_epoll_control(epoll, wake, EPOLLIN.rawValue, EPOLL_CTL_ADD) == 0 else {
            return nil
        }
        let thread = Thread { [unowned self] in self.run() }
        thread.name = "NetTap.libcurl"
        thread.stackSize = 1 << 20
        self.thread = thread
        thread.start()
    }

    /// Runs `command` on the loop thread, soon (from any thread, including the loop thread).
    func submit(_ command: @escaping @Sendable (CurlEventLoop) -> Void) {
        let needsWake = inbox.withLock { inbox -> Bool in
            inbox.commands.append(command)
            if inbox.isWakePending { return false }
            inbox.isWakePending = true
            return true
        }
        if needsWake {
            var one: UInt64 = 1
            _ = write(wake, &one, 8)
        }
    }

    // MARK: - Loop-thread API

    /// The connection pool of a profile, created on first use; pools of app sessions that are gone are closed
    /// once their last transfer ended.
    func pool(for profile: ForwardingProfile) -> CurlConnectionPool? {
        if let pool = pools[profile] { return pool }
        closeOrphanedPools()
        guard let pool = CurlConnectionPool(profile: profile, loop: self) else { return nil }
        pools[profile] = pool
        return pool
    }

    /// Closes the pools of app sessions that are gone and have no transfer left, with their connections, as
    /// FoundationNetworking closes a session's multi handle when the session goes.
    private func closeOrphanedPools() {
        for (key, pool) in pools where key.isOrphaned && pool.transferCount == 0 {
            pools[key] = nil
            pool.close()
        }
    }

    /// Starts watching the exchange's idle deadline.
    func track(_ exchange: CurlExchange) { running[ObjectIdentifier(exchange)] = exchange }

    /// Stops watching the exchange.
    func untrack(_ exchange: CurlExchange) { running[ObjectIdentifier(exchange)] = nil }

    /// Registers, changes or removes a socket's interest, as a pool's socket callback asks.
    func watch(socket: Int32, what: Int32, for pool: CurlConnectionPool) {
        if what == CURL_POLL_REMOVE {
            sockets[socket] = nil
            _ = nettap_epoll_control(epoll, socket, 0, EPOLL_CTL_DEL)
            return
        }
        var events: UInt32 = 0
        if what == CURL_POLL_IN || what == CURL_POLL_INOUT { events |= EPOLLIN.rawValue }
        if what == CURL_POLL_OUT || what == CURL_POLL_INOUT { events |= EPOLLOUT.rawValue }
        let known = sockets.updateValue(pool, forKey: socket) != nil
        if nettap_epoll_control(epoll, socket, events, known ? EPOLL_CTL_MOD : EPOLL_CTL_ADD) != 0 {
            _ = nettap_epoll_control(epoll, socket, events, known ? EPOLL_CTL_ADD : EPOLL_CTL_MOD)
        }
    }

    // MARK: - The loop

    private func run() {
        batch.collectOnCurrentThread()
        var descriptors = [Int32](repeating: 0, count: 64)
        var events = [UInt32](repeating: 0, count: 64)
        while true {
            let timeout = nextTimeout()
            let count = nettap_epoll_wait(epoll, &descriptors, &events, 64, timeout)
            if count < 0 && errno != EINTR {
                batch.flush()
                break
            }
            for index in 0..<max(0, Int(count)) {
                let descriptor = descriptors[index]
                if descriptor == wake {
                    runCommands()
                } else if let pool = sockets[descriptor] {
                    pool.socketReady(descriptor, events: events[index])
                }
            }
            let now = CurlClock.now
            for pool in pools.values where pool.isTimerDue(at: now) { pool.timerFired() }
            for exchange in running.values where exchange.isIdleDeadlinePassed(at: now) { exchange.idleTimedOut() }
            if !pools.isEmpty, now >= nextSweep {
                closeOrphanedPools()
                nextSweep = now + Self.sweepInterval
            }
            // The client calls of this round, one hop per task.
            batch.flush()
        }
    }

    private func runCommands() {
        var count: UInt64 = 0
        _ = read(wake, &count, 8)
        let commands = inbox.withLock { inbox -> [@Sendable (CurlEventLoop) -> Void] in
            inbox.isWakePending = false
            defer { inbox.commands = [] }
            return inbox.commands
        }
        for command in commands { command(self) }
    }

    /// Milliseconds until the first pool timer, idle deadline or sweep, `-1` when there is none.
    private func nextTimeout() -> Int32 {
        var earliest = pools.isEmpty ? UInt64.max : nextSweep
        for pool in pools.values { if let due = pool.timerDeadline { earliest = min(earliest, due) } }
        for exchange in running.values { if let due = exchange.idleDeadline { earliest = min(earliest, due) } }
        guard earliest != .max else { return -1 }
        let now = CurlClock.now
        guard earliest > now else { return 0 }
        return Int32(clamping: (earliest - now + 999_999) / 1_000_000)
    }
}

/// Monotonic nanoseconds, for the loop's deadlines.
enum CurlClock {
    static var now: UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
#endif
