#if canImport(CNetTapCurl)
import CNetTapCurl
import Foundation

/// One libcurl multi handle: the connections, and the per-host connection limit, of one app session.
///
/// Configured as FoundationNetworking configures a session's multi handle (`_MultiHandle.configure(with:)`):
/// `CURLMOPT_MAX_HOST_CONNECTIONS` from the session's `httpMaximumConnectionsPerHost` and multiplexing allowed
/// (`CURLMOPT_PIPELINING` 2, HTTP/2 streams share a connection). Used on the loop thread only.
final class CurlConnectionPool {
    let profile: ForwardingProfile
    private let multi: UnsafeMutableRawPointer
    private unowned let loop: CurlEventLoop
    private var transfers: [UnsafeMutableRawPointer: CurlExchange] = [:]
    /// When libcurl wants to be called for its timeouts (monotonic nanoseconds), if at all.
    private(set) var timerDeadline: UInt64?

    init?(profile: ForwardingProfile, loop: CurlEventLoop) {
        guard let multi = curl_multi_init() else { return nil }
        self.profile = profile
        self.multi = multi
        self.loop = loop
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = nettap_multi_set_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, profile.maximumConnectionsPerHost)
        // HTTP/1 pipelining is gone from libcurl since 7.62, so `httpShouldUsePipelining` (3) acts as 2.
        _ = nettap_multi_set_long(multi, CURLMOPT_PIPELINING, 2)
        _ = nettap_multi_set_pointer(multi, CURLMOPT_SOCKETDATA, me)
        _ = nettap_multi_set_pointer(multi, CURLMOPT_TIMERDATA, me)
        _ = nettap_multi_set_socket_callback(multi) { _, socket, what, user, _ in
            guard let user else { return 0 }
            let pool = Unmanaged<CurlConnectionPool>.fromOpaque(user).takeUnretainedValue()
            pool.loop.watch(socket: socket, what: what, for: pool)
            return 0
        }
        _ = nettap_multi_set_timer_callback(multi) { _, milliseconds, user in
            guard let user else { return 0 }
            let pool = Unmanaged<CurlConnectionPool>.fromOpaque(user).takeUnretainedValue()
            pool.timerDeadline = milliseconds < 0 ? nil : CurlClock.now + UInt64(milliseconds) * 1_000_000
            return 0
        }
    }

    /// Transfers in flight.
    var transferCount: Int { transfers.count }

    /// A new easy handle for an exchange.
    ///
    /// Never a reused one: a reset handle keeps the `errno` of its last failure (`CURLINFO_OS_ERRNO`), which the
    /// platform's error mapping reads, so a reused handle could turn a later `-1` into `-1005`. FoundationNetworking
    /// also gives every task a handle of its own (connections are the multi handle's, so nothing is lost).
    func makeHandle() -> UnsafeMutableRawPointer? { curl_easy_init() }

    /// Starts a configured transfer.
    /// - Returns: Whether libcurl took it.
    func add(_ handle: UnsafeMutableRawPointer, for exchange: CurlExchange) -> Bool {
        guard curl_multi_add_handle(multi, handle) == CURLM_OK else { return false }
        transfers[handle] = exchange
        return true
    }

    /// Ends a transfer (finished or abandoned); no callback for it comes after this.
    /// - Parameters:
    ///   - handle: The transfer's easy handle.
    ///   - keepsHandle: Whether the handle is kept for a following transfer of the same exchange.
    func remove(_ handle: UnsafeMutableRawPointer, keepsHandle: Bool = false) {
        guard transfers.removeValue(forKey: handle) != nil else { return }
        curl_multi_remove_handle(multi, handle)
        if !keepsHandle { curl_easy_cleanup(handle) }
    }

    /// Tells libcurl what epoll saw on a socket, as libcurl's own `Curl_socket_check` reads `poll(2)`.
    ///
    /// An error or a hang-up makes the socket readable and writable, so libcurl does the I/O and meets the real
    /// `errno` (a reset is "Recv failure: Connection reset by peer", `-1005`, as FoundationNetworking's dispatch
    /// sources give it). `CURL_CSELECT_ERR` is never passed: libcurl fails a transfer on it with a bare
    /// "select/poll returned error" (`-1`), which a plain URLSession never gives.
    func socketReady(_ socket: Int32, events: UInt32) {
        let failed = events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0
        var mask: Int32 = 0
        if failed || events & EPOLLIN.rawValue != 0 { mask |= CURL_CSELECT_IN }
        if failed || events & EPOLLOUT.rawValue != 0 { mask |= CURL_CSELECT_OUT }
        act(on: socket, mask: mask)
    }

    func isTimerDue(at now: UInt64) -> Bool { timerDeadline.map { $0 <= now } ?? false }

    func timerFired() {
        timerDeadline = nil
        act(on: CURL_SOCKET_TIMEOUT, mask: 0)
    }

    /// Lets libcurl work after an event, then reports the transfers it finished.
    func act(on socket: Int32, mask: Int32) {
        var stillRunning: Int32 = 0
        curl_multi_socket_action(multi, socket, mask, &stillRunning)
        reportCompletions()
    }

    private func reportCompletions() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
            let result = message.pointee.data.result
            transfers[handle]?.transferEnded(result)
        }
    }

    /// Closes the multi handle (the app session is gone and nothing is in flight).
    func close() {
        curl_multi_cleanup(multi)
    }
}
#endif
