import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Local servers some tests use when they are running.
enum Loopback {
    /// The base URL of an httpbin on loopback (`NETTAP_HTTPBIN`, default `http://127.0.0.1:18080`) when a TCP
    /// connection to it succeeds, else `nil`.
    static let httpbin: String? = {
        let base = ProcessInfo.processInfo.environment["NETTAP_HTTPBIN"] ?? "http://127.0.0.1:18080"
        guard let components = URLComponents(string: base), components.host == "127.0.0.1",
            let port = components.port, accepts(port: UInt16(port))
        else { return nil }
        return base
    }()

    /// Whether something accepts TCP connections on 127.0.0.1:`port` (a refused connect fails at once).
    static func accepts(port: UInt16) -> Bool {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0
    }
}
