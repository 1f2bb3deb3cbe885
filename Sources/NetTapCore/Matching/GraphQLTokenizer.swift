/// The tokens of GraphQL text (GraphQL spec §2.1), as far as reading operation names needs: names, punctuators,
/// and strings, numbers and anything else as opaque tokens.
///
/// Ignored tokens (white space, line terminators, commas, the byte-order mark and `#` comments) are skipped. This is
/// a tokenizer, not a parser: it never rejects a document, it only splits it.
struct GraphQLTokenizer {
    /// One token.
    enum Token: Equatable {
        /// A name: `[_A-Za-z][_0-9A-Za-z]*`.
        case name(String)
        /// One of `! $ & ( ) : = @ [ ] { } |`, or `.` for the spread `...`.
        case punctuator(UInt8)
        /// A string or block string, a number, or a byte no GraphQL token starts with.
        case opaque
    }

    private let bytes: [UInt8]
    private var index = 0

    /// Tokenizes UTF-8 text.
    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// The next token, or `nil` at the end.
    mutating func next() -> Token? {
        skipIgnored()
        guard index < bytes.count else { return nil }
        let byte = bytes[index]
        if Self.isNameStart(byte) {
            let start = index
            while index < bytes.count, Self.isNameStart(bytes[index]) || Self.isDigit(bytes[index]) { index += 1 }
            return .name(String(decoding: bytes[start..<index], as: UTF8.self))
        }
        if byte == UInt8(ascii: "\"") {
            skipString()
            return .opaque
        }
        if byte == UInt8(ascii: "-") || Self.isDigit(byte) {
            index += 1
            while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
            return .opaque
        }
        index += 1
        if byte == UInt8(ascii: ".") {
            while index < bytes.count, bytes[index] == UInt8(ascii: ".") { index += 1 }
            return .punctuator(byte)
        }
        return Self.punctuators.contains(byte) ? .punctuator(byte) : .opaque
    }

    /// Skips tokens up to the one closing a group just opened by `open` (`{`, `(` or `[`), nested groups included.
    ///
    /// - Returns: Whether the group closed; `false` when the text ended first or a closer did not match.
    mutating func skipGroup(openedBy open: UInt8) -> Bool {
        var expected: [UInt8] = [Self.closer(of: open)]
        while let token = next() {
            guard case .punctuator(let byte) = token else { continue }
            if [UInt8(ascii: "{"), UInt8(ascii: "("), UInt8(ascii: "[")].contains(byte) {
                expected.append(Self.closer(of: byte))
            } else if [UInt8(ascii: "}"), UInt8(ascii: ")"), UInt8(ascii: "]")].contains(byte) {
                guard expected.popLast() == byte else { return false }
                if expected.isEmpty { return true }
            }
        }
        return false
    }

    private static let punctuators = Set("!$&():=@[]{}|".utf8)

    private static func closer(of open: UInt8) -> UInt8 {
        switch open {
        case UInt8(ascii: "{"): UInt8(ascii: "}")
        case UInt8(ascii: "("): UInt8(ascii: ")")
        default: UInt8(ascii: "]")
        }
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "_")
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || isNameStart(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: "-")
    }

    /// Skips white space, line terminators, commas, byte-order marks and comments.
    private mutating func skipIgnored() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","):
                index += 1
            case 0xEF where bytes[index...].starts(with: [0xEF, 0xBB, 0xBF]):
                index += 3
            case UInt8(ascii: "#"):
                while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
            default:
                return
            }
        }
    }

    /// Skips a string (`"…"` with escapes, ending at the line's end if unterminated) or a block string (`"""…"""`,
    /// where `\"""` is an escaped quote).
    private mutating func skipString() {
        let quote = UInt8(ascii: "\"")
        if bytes[index...].starts(with: [quote, quote, quote]) {
            index += 3
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "\\"), bytes[(index + 1)...].starts(with: [quote, quote, quote]) {
                    index += 4
                } else if bytes[index...].starts(with: [quote, quote, quote]) {
                    index += 3
                    return
                } else {
                    index += 1
                }
            }
            return
        }
        index += 1
        while index < bytes.count, bytes[index] != quote, bytes[index] != 0x0A, bytes[index] != 0x0D {
            index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        index = Swift.min(bytes.count, index + 1)
    }
}
