import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP client for the server tests.
///
/// It writes bytes and reads until a condition, with 10-second timeouts; one task uses it at a time.
final class TestSocket: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let descriptor: Int32
    private(set) var received: [UInt8] = []

    init(port: Int) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "connect failed: errno \(errno)") }
    }

    deinit { close(descriptor) }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
            guard written > 0 else { throw Failure(description: "send failed: errno \(errno)") }
            offset += written
        }
    }

    func write(_ text: String) throws { try write(Array(text.utf8)) }

    /// Reads until `done` holds for everything received, or the peer closes; throws on the timeout.
    @discardableResult
    func read(until done: ([UInt8]) -> Bool) throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while !done(received) {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            guard count > 0 else { throw Failure(description: "no answer within 10 s (errno \(errno))") }
            received += chunk[..<count]
        }
        return received
    }

    /// Reads until the server closes the connection.
    func readToEnd() throws -> String {
        String(decoding: try read { _ in false }, as: UTF8.self)
    }

    /// Reads until the head (and `bodyBytes` more) arrived.
    func readHead() throws -> String {
        let bytes = try read { $0.count >= 4 && String(decoding: $0, as: UTF8.self).contains("\r\n\r\n") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Removes and returns the received bytes.
    func take() -> [UInt8] {
        defer { received = [] }
        return received
    }

    /// Reads one complete server frame (unmasked) after what was taken; returns opcode and payload.
    func readFrame() throws -> (opcode: UInt8, payload: [UInt8]) {
        func frameLength(_ bytes: [UInt8]) -> Int? {
            guard bytes.count >= 2 else { return nil }
            let code = Int(bytes[1] & 0x7F)
            let header = code == 127 ? 10 : code == 126 ? 4 : 2
            guard bytes.count >= header else { return nil }
            let length = code < 126 ? code : bytes[2..<header].reduce(0) { $0 << 8 | Int($1) }
            return header + length
        }
        try read { bytes in frameLength(bytes).map { bytes.count >= $0 } ?? false }
        guard let total = frameLength(received) else { throw Failure(description: "connection closed mid-frame") }
        let code = Int(received[1] & 0x7F)
        let header = code == 127 ? 10 : code == 126 ? 4 : 2
        let frame = (received[0] & 0x0F, Array(received[header..<total]))
        received.removeFirst(total)
        return frame
    }
}
