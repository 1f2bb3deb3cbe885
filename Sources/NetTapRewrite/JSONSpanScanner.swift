/// Reads strict JSON (RFC 8259) into ``JSONSpan``s, without building values: only object member names are
/// decoded.
///
/// Text that is not JSON, or nests deeper than ``depthLimit``, reads as `nil`: a rewrite then leaves the body
/// alone.
struct JSONSpanScanner {
    /// The deepest nesting read (a deeper document is left alone rather than risk the stack).
    static let depthLimit = 256

    private let bytes: [UInt8]
    private var index = 0

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The spans of a whole document, or `nil` when it is not one JSON value (surrounded by white space only; a
    /// UTF-8 byte-order mark is skipped).
    ///
    /// - Parameter bytes: The document.
    /// - Returns: The root span, its offsets counted in `bytes`.
    static func scan(_ bytes: [UInt8]) -> JSONSpan? {
        var scanner = JSONSpanScanner(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.index = 3 }
        scanner.skipWhitespace()
        guard let root = scanner.value(depth: 0) else { return nil }
        scanner.skipWhitespace()
        return scanner.index == bytes.count ? root : nil
    }

    private mutating func value(depth: Int) -> JSONSpan? {
        guard depth < Self.depthLimit, index < bytes.count else { return nil }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): guard skipString() else { return nil }
        case UInt8(ascii: "t"): guard skipLiteral("true") else { return nil }
        case UInt8(ascii: "f"): guard skipLiteral("false") else { return nil }
        case UInt8(ascii: "n"): guard skipLiteral("null") else { return nil }
        default: guard skipNumber() else { return nil }
        }
        return .scalar(start..<index)
    }

    private mutating func object(depth: Int) -> JSONSpan? {
        let start = index
        index += 1
        var members: [JSONSpan.Member] = []
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return .object(start..<index, members) }
        while true {
            skipWhitespace()
            let nameStart = index
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), skipString() else { return nil }
            guard let name = JSONStringLiteral.decode(bytes[nameStart..<index]) else { return nil }
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            guard let member = value(depth: depth + 1) else { return nil }
            members.append(JSONSpan.Member(name: name, start: nameStart, value: member))
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return .object(start..<index, members) }
            guard consume(UInt8(ascii: ",")) else { return nil }
        }
    }

    private mutating func array(depth: Int) -> JSONSpan? {
        let start = index
        index += 1
        var elements: [JSONSpan] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return .array(start..<index, elements) }
        while true {
            skipWhitespace()
            guard let element = value(depth: depth + 1) else { return nil }
            elements.append(element)
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return .array(start..<index, elements) }
            guard consume(UInt8(ascii: ",")) else { return nil }
        }
    }

    /// Skips a string literal at `index` (its opening quote): escapes checked, no raw control characters.
    private mutating func skipString() -> Bool {
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return true
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { return false }
                let escaped = bytes[index + 1]
                if escaped == UInt8(ascii: "u") {
                    guard index + 6 <= bytes.count, bytes[(index + 2)..<(index + 6)].allSatisfy(Self.isHexDigit)
                    else { return false }
                    index += 6
                } else {
                    guard Array("\"\\/bfnrt".utf8).contains(escaped) else { return false }
                    index += 2
                }
            case 0..<0x20:
                return false
            default:
                index += 1
            }
        }
        return false
    }

    private mutating func skipLiteral(_ literal: String) -> Bool {
        let expected = Array(literal.utf8)
        guard bytes[index...].starts(with: expected) else { return false }
        index += expected.count
        return true
    }

    /// Skips `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func skipNumber() -> Bool {
        _ = consume(UInt8(ascii: "-"))
        if consume(UInt8(ascii: "0")) {
            // A leading zero stands alone.
        } else {
            guard index < bytes.count, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[index]) else {
                return false
            }
            skipDigits()
        }
        if consume(UInt8(ascii: ".")) {
            guard skipDigits() else { return false }
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard skipDigits() else { return false }
        }
        return true
    }

    /// Skips digits; whether there was at least one.
    @discardableResult
    private mutating func skipDigits() -> Bool {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index > start
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
