import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The platform's own HTTP protocol class, used to hand a request over untouched.
///
/// Download tasks break under any custom protocol on Linux, and an upload task whose body NetTap cannot
/// read must not be sent with an empty body. For those, NetTap creates an instance of the built-in HTTP
/// protocol for the same task through the public `init(task:cachedResponse:client:)` and lets it do the
/// whole job, exactly as if NetTap were not installed.
enum PlatformProtocol {
    /// The built-in protocol class able to load `request`, found in the default configuration's list.
    static func builtInClass(for request: URLRequest) -> URLProtocol.Type? {
        let candidates = URLSessionConfiguration.default.protocolClasses ?? []
        for candidate in candidates {
            guard let type = candidate as? URLProtocol.Type, !ProtocolSlots.isNetTap(type) else { continue }
            if type.canInit(with: request) { return type }
        }
        return nil
    }
}
