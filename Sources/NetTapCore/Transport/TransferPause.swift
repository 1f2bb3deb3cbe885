import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Pauses and resumes receiving on a forwarded transfer: back-pressure between the network and a slow app.
///
/// FoundationNetworking offers no public way to pause a transfer (suspending a task restarts it), so a
/// fast server and a slow delegate would pile the whole body up in memory. libcurl, which FoundationNetworking
/// runs on, can pause a transfer (`curl_easy_pause` with `CURLPAUSE_RECV`). NetTap reaches the task's libcurl
/// handle through FoundationNetworking internals (`_protocolStorage` → the HTTP protocol → `easyHandle` →
/// `rawHandle`) and calls `curl_easy_pause`, looked up with `dlsym`, on the forwarding session's work queue,
/// where libcurl is driven. When any step is unavailable the transfer simply is not paused.
enum TransferPause {
    #if canImport(FoundationNetworking) && (canImport(Glibc) || canImport(Musl))
    private typealias PauseFunction = @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32
    private static let curlPauseReceive: Int32 = 1
    private static let curlPauseContinue: Int32 = 0

    private static let pauseFunction: PauseFunction? = {
        guard let symbol = dlsym(nil, "curl_easy_pause") else { return nil }
        return unsafeBitCast(symbol, to: PauseFunction.self)
    }()

    /// Whether pausing can work in this process (libcurl's `curl_easy_pause` was found).
    static var isAvailable: Bool { pauseFunction != nil }

    /// The libcurl handle owner (`_EasyHandle`) of a running task, kept alive by the caller while used.
    static func easyHandle(of task: URLSessionTask) -> AnyObject? {
        guard let storage = CallerInspector.storedProperty("_protocolStorage", of: task) else { return nil }
        guard let payload = Mirror(reflecting: storage).children.first?.value,
            let urlProtocol = CallerInspector.unwrap(payload) as? URLProtocol,
            let easy = CallerInspector.storedProperty("easyHandle", of: urlProtocol).flatMap(CallerInspector.unwrap)
        else { return nil }
        return easy as AnyObject
    }

    /// Pauses or resumes receiving.
    ///
    /// Call on the forwarding session's work queue only.
    /// - Returns: Whether libcurl accepted the call.
    @discardableResult
    static func setPaused(_ paused: Bool, easyHandle: AnyObject) -> Bool {
        guard let pauseFunction,
            let raw = CallerInspector.storedProperty("rawHandle", of: easyHandle).flatMap(CallerInspector.unwrap)
        else { return false }
        let pointer: UnsafeMutableRawPointer?
        if let value = raw as? UnsafeMutableRawPointer {
            pointer = value
        } else if let value = raw as? OpaquePointer {
            pointer = UnsafeMutableRawPointer(value)
        } else {
            pointer = nil
        }
        guard let pointer else { return false }
        return pauseFunction(pointer, paused ? curlPauseReceive : curlPauseContinue) == 0
    }
    #else
    static var isAvailable: Bool { false }
    static func easyHandle(of task: URLSessionTask) -> AnyObject? { nil }
    @discardableResult
    static func setPaused(_ paused: Bool, easyHandle: AnyObject) -> Bool { false }
    #endif
}
