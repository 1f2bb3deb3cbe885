import NetTapCore

/// Decodes a JSON string literal's bytes (quotes included) into its text.
enum JSONStringLiteral {
    /// The text of a literal that ``JSONSpanScanner`` accepted, or `nil` when its bytes are not UTF-8 or an escape
    /// names no character (a lone surrogate).
    ///
    /// - Parameter literal: The literal, from its opening quote to its closing quote.
    /// - Returns: The decoded text.
    static func decode(_ literal: ArraySlice<UInt8>) -> String? {
        let inner = literal.dropFirst().dropLast()
        guard inner.contains(UInt8(ascii: "\\")) else { return String(validating: inner, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        var index = inner.startIndex
        var run: [UInt8] = []
        while index < inner.endIndex {
            let byte = inner[index]
            guard byte == UInt8(ascii: "\\") else {
                run.append(byte)
                index += 1
                continue
            }
            guard let text = String(validating: run, as: UTF8.self) else { return nil }
            scalars.append(contentsOf: text.unicodeScalars)
            run.removeAll(keepingCapacity: true)
            guard let (scalar, next) = escape(in: inner, at: index) else { return nil }
            scalars.append(scalar)
            index = next
        }
        guard let text = String(validating: run, as: UTF8.self) else { return nil }
        scalars.append(contentsOf: text.unicodeScalars)
        return String(scalars)
    }

    /// The character of the escape at `index` (its backslash) and the index after it.
    private static func escape(in bytes: ArraySlice<UInt8>, at index: Int) -> (Unicode.Scalar, Int)? {
        let simple: [UInt8: Unicode.Scalar] = [
            UInt8(ascii: "\""): "\"", UInt8(ascii: "\\"): "\\", UInt8(ascii: "/"): "/", UInt8(ascii: "b"): "\u{08}",
            UInt8(ascii: "f"): "\u{0C}", UInt8(ascii: "n"): "\n", UInt8(ascii: "r"): "\r", UInt8(ascii: "t"): "\t",
        ]
        guard index + 1 < bytes.endIndex else { return nil }
        let kind = bytes[index + 1]
        if let scalar = simple[kind] { return (scalar, index + 2) }
        guard let high = hex(bytes, at: index + 2) else { return nil }
        if (0xD800..<0xDC00).contains(high) {
            guard index + 12 <= bytes.endIndex, bytes[index + 6] == UInt8(ascii: "\\"),
                bytes[index + 7] == UInt8(ascii: "u"), let low = hex(bytes, at: index + 8),
                (0xDC00..<0xE000).contains(low),
                let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            else { return nil }
            return (scalar, index + 12)
        }
        return Unicode.Scalar(high).map { ($0, index + 6) }
    }

    /// The value of the four hex digits at `index`.
    private static func hex(_ bytes: ArraySlice<UInt8>, at index: Int) -> UInt32? {
        guard index + 4 <= bytes.endIndex else { return nil }
        return UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16)
    }
}

extension JSONStringLiteral {
    /// The JSON string literal of `text`, quotes included: `"`, `\` and control characters escaped.
    ///
    /// - Parameter text: The text.
    /// - Returns: The literal's UTF-8 bytes.
    static func encoded(_ text: String) -> [UInt8] {
        var result: [UInt8] = [UInt8(ascii: "\"")]
        JSONStringEscaping.append(text.utf8, to: &result)
        result.append(UInt8(ascii: "\""))
        return result
    }
}
