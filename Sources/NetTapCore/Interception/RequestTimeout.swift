import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The idle timeout the platform's HTTP protocol would apply to a request, so a request answered by handlers
/// times out exactly when the same request to a silent server would.
///
/// FoundationNetworking 6.3.1 (`_HTTPURLProtocol.configureEasyHandle`) uses `request.timeoutInterval` when it
/// was *assigned* on the `URLRequest` value at least once (the internal flag `isTimeoutIntervalSet`; the
/// initializer's `timeoutInterval:` argument does not set it), else the session's `timeoutIntervalForRequest`,
/// and truncates it to whole seconds (0.5 s times out at once). The flag is read from the value's bytes after
/// a probe has confirmed the layout; when the layout is not the expected one (another Foundation), an interval
/// other than the default 60 s counts as assigned.
enum RequestTimeout {
    /// The idle interval for `request`, or `nil` when it is not finite or too large to schedule.
    /// - Parameters:
    ///   - request: The request as the app's task made it (the flag survives struct copies).
    ///   - sessionTimeout: The app session's `timeoutIntervalForRequest`, in seconds.
    /// - Returns: Whole seconds, as the platform truncates them.
    static func interval(for request: URLRequest, sessionTimeout: TimeInterval) -> Duration? {
        let seconds = isIntervalAssigned(request) ? request.timeoutInterval : sessionTimeout
        guard seconds.isFinite, seconds < 1e9 else { return nil }
        #if canImport(FoundationNetworking)
        return .seconds(max(0, Int(seconds)))
        #else
        return .milliseconds(max(0, Int(seconds * 1000)))
        #endif
    }

    /// Whether `timeoutInterval` was assigned on the request (the platform then prefers it to the session's).
    static func isIntervalAssigned(_ request: URLRequest) -> Bool {
        #if canImport(FoundationNetworking)
        if flagLayoutIsKnown { return flagByte(of: request) == 1 }
        #endif
        return request.timeoutInterval != 60
    }

    #if canImport(FoundationNetworking)
    /// `URLRequest` is a class reference (`_handle`) followed by `isTimeoutIntervalSet: Bool` in 6.3.1.
    private static let flagOffset = MemoryLayout<Int>.size

    private static func flagByte(of request: URLRequest) -> UInt8? {
        withUnsafeBytes(of: request) { bytes in
            bytes.count > flagOffset ? bytes[flagOffset] : nil
        }
    }

    /// Whether the flag sits where this code reads it: 0 on a fresh request, 1 after assigning the default.
    static let flagLayoutIsKnown: Bool = {
        guard MemoryLayout<URLRequest>.size == flagOffset + 1, let url = URL(string: "http://nettap.invalid/") else {
            return false
        }
        var probe = URLRequest(url: url)
        let before = flagByte(of: probe)
        probe.timeoutInterval = probe.timeoutInterval
        return before == 0 && flagByte(of: probe) == 1
    }()
    #endif
}
