import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A non-blocking IPv4 TCP socket listening on one address and port.
struct ListeningSocket: Sendable {
    /// The socket's descriptor.
    let descriptor: Int32
    /// The port it listens on (the one the system chose for port 0).
    let port: Int

    /// Whether `address` is a dotted IPv4 address (`inet_pton`).
    static func isIPv4(_ address: String) -> Bool {
        var parsed = in_addr()
        return inet_pton(AF_INET, address, &parsed) == 1
    }

    /// Binds and listens.
    ///
    /// - Parameters:
    ///   - address: A dotted IPv4 address, `127.0.0.1` for the inspector's default.
    ///   - port: The port, 0 for a free one.
    /// - Throws: ``InspectorError`` naming the address and port.
    init(address: String, port: Int) throws(InspectorError) {
        guard (0...65_535).contains(port) else {
            throw InspectorError("port \(port) is not from 0 to 65535", about: .port)
        }
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, address, &socketAddress.sin_addr) == 1 else {
            throw InspectorError("\(address) is not an IPv4 address such as 127.0.0.1", about: .address)
        }
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw InspectorError("cannot make a socket: \(Self.errorText(errno))") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &socketAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else {
            let code = errno
            close(descriptor)
            let hint = code == EADDRINUSE ? "; choose another port, or 0 for a free one" : ""
            throw InspectorError(
                "cannot listen on \(address):\(port): \(Self.errorText(code))\(hint)",
                about: code == EADDRINUSE ? .port : .address
            )
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &socketAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        Self.makeNonBlocking(descriptor)
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: socketAddress.sin_port))
    }

    /// Sets `O_NONBLOCK` on a descriptor.
    static func makeNonBlocking(_ descriptor: Int32) {
        let flags = fcntl(descriptor, F_GETFL, 0)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    }

    /// `Address already in use (EADDRINUSE)`.
    static func errorText(_ code: Int32) -> String {
        let names: [Int32: String] = [EADDRINUSE: "EADDRINUSE", EACCES: "EACCES", EADDRNOTAVAIL: "EADDRNOTAVAIL"]
        let message = String(cString: strerror(code))
        return names[code].map { "\(message) (\($0))" } ?? "\(message) (errno \(code))"
    }
}
