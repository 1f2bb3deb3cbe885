import Foundation

/// What a client does to a frame: sets the mask bit, inserts the key after the length and masks the payload
/// (RFC 6455 §5.3).
enum ClientMasking {
    static func mask(_ frame: [UInt8], key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]) -> [UInt8] {
        let lengthCode = Int(frame[1] & 0x7F)
        let headerEnd = lengthCode == 127 ? 10 : lengthCode == 126 ? 4 : 2
        var masked = Array(frame[..<headerEnd])
        masked[1] |= 0x80
        masked += key
        masked += frame[headerEnd...].enumerated().map { $0.element ^ key[$0.offset & 3] }
        return masked
    }

    /// Every frame of a server-encoded stream, masked.
    static func maskAll(_ stream: [UInt8], key: [UInt8] = [1, 2, 3, 4]) -> [UInt8] {
        var result: [UInt8] = []
        var offset = 0
        while offset < stream.count {
            let lengthCode = Int(stream[offset + 1] & 0x7F)
            var headerEnd = offset + 2
            var length = lengthCode
            if lengthCode >= 126 {
                let size = lengthCode == 126 ? 2 : 8
                length = stream[headerEnd..<headerEnd + size].reduce(0) { $0 << 8 | Int($1) }
                headerEnd += size
            }
            result += mask(Array(stream[offset..<headerEnd + length]), key: key)
            offset = headerEnd + length
        }
        return result
    }
}
