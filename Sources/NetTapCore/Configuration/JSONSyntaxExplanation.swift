import Foundation

/// Words for a JSON syntax error from the byte Foundation stopped at and what is open before it.
///
/// Foundation's parser has already said where the text fails (`Invalid value around character 22.`); this reads
/// the byte at that offset and runs a lexical scan of the bytes before it (strings, brackets, `:` and `,`), so
/// the message can say `unexpected "}" inside an array opened at line 1, column 22; close the array with "]"`.
/// The scan does not validate anything: it only tracks what is open and what was expected next.
enum JSONSyntaxExplanation {
    /// What a scan expects next inside an open array or object.
    private enum Expectation {
        case memberName
        case colon
        case value
        case commaOrClose
    }

    /// An array or object that is open at the point of failure.
    private struct Frame {
        var isObject: Bool
        var offset: Int
        var expectation: Expectation
        var key: String?
    }

    /// The state after scanning the bytes before an offset.
    private struct Scan {
        var stack: [Frame] = []
        /// Where a string that is still open starts.
        var openString: Int?
        /// Whether anything but whitespace came before.
        var hasValue = false
        /// A bare word outside strings that is not `true`, `false`, `null` or a number, and its offset.
        var strayWord: (word: String, offset: Int)?
    }

    /// Explains a Foundation parse failure.
    ///
    /// - Parameters:
    ///   - message: Foundation's `NSDebugDescription` text (may be empty).
    ///   - offset: The 0-based byte offset Foundation named, if any.
    ///   - bytes: The UTF-8 text.
    /// - Returns: The message and the byte offset it is about (`nil` when unknown).
    static func explain(
        foundationMessage message: String,
        offset: Int?,
        _ bytes: [UInt8]
    ) -> (
        message: String, offset: Int?
    ) {
        if message.hasPrefix("Unexpected end of file") || (offset ?? 0) >= bytes.count {
            return endOfText(bytes)
        }
        if message.hasPrefix("Number") && message.contains("not representable") {
            let number = message.dropFirst("Number ".count).prefix { !$0.isWhitespace }
            let found = find(Array(number.utf8), in: bytes)
            return ("the number \(number) is out of range for a 64-bit number", found)
        }
        guard let offset else {
            return ("the text is not JSON", nil)
        }
        if message.hasPrefix("Number with leading zero") {
            return (leadingZero(at: offset, bytes), numberStart(before: offset, bytes))
        }
        if message.hasPrefix("Unescaped control character") {
            return (controlCharacter(bytes[offset]), offset)
        }
        if message.hasPrefix("Invalid escape sequence") {
            let escape = printable(bytes[offset..<min(offset + 2, bytes.count)])
            return ("invalid escape \"\(escape)\" in a string; write a backslash as \"\\\\\"", offset)
        }
        if message.hasPrefix("Invalid hex encoded sequence") {
            var start = offset
            while start > 0, bytes[start] != UInt8(ascii: "\\"), offset - start < 2 { start -= 1 }
            let digits = bytes[min(start + 2, bytes.count)...].prefix(4).prefix { $0 != UInt8(ascii: "\"") }
            let escape = "\\u" + printable(digits)
            return ("invalid escape \"\(escape)\" in a string; \\u takes four hexadecimal digits, as in \\u00E9", start)
        }
        if message.hasPrefix("Too many nested") {
            return ("arrays and objects are nested too deeply", offset)
        }
        let scan = scan(bytes[..<offset])
        // Foundation reads a misspelt literal (`tru`) as far as it can and fails after it: name the word instead.
        if let stray = scan.strayWord { return (strayWord(stray.word), stray.offset) }
        return (unexpected(at: offset, after: scan, bytes), offset)
    }

    // MARK: - Messages

    /// `unexpected "}" inside an array opened at line 1, column 22; close the array with "]"` and the like.
    private static func unexpected(at offset: Int, after scan: Scan, _ bytes: [UInt8]) -> String {
        let byte = bytes[offset]
        let found = "unexpected " + token(at: offset, bytes)
        guard let top = scan.stack.last else {
            return scan.hasValue
                ? found + " after the end of the JSON value (a JSON text holds one value)"
                : found + " where a JSON value should start"
        }
        let closer = top.isObject ? "}" : "]"
        let kind = top.isObject ? "an object" : "an array"
        let opened = "opened at \(place(top.offset, bytes))"
        if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]"), String(UnicodeScalar(byte)) != closer {
            return found
                + " inside \(kind) \(opened); close the \(top.isObject ? "object" : "array") with \"\(closer)\""
        }
        switch top.expectation {
        case .memberName:
            return found + " where a member name in double quotes should be, in the object \(opened)"
        case .colon:
            return found + " after the member name \"\(top.key ?? "")\"; a \":\" is missing"
        case .value:
            if let key = top.key, top.isObject { return found + " where the value of \"\(key)\" should be" }
            return found + " where a value should be, in the array \(opened)"
        case .commaOrClose:
            let after = top.isObject ? "the value of \"\(top.key ?? "")\"" : "an element of the array \(opened)"
            return found + " after \(after); a \",\" or \"\(closer)\" is missing before it"
        }
    }

    /// What is open when the text ends.
    private static func endOfText(_ bytes: [UInt8]) -> (message: String, offset: Int?) {
        let scan = scan(bytes[...])
        let closers = scan.stack.reversed().map { $0.isObject ? "}" : "]" }.joined()
        if let start = scan.openString {
            let missing = closers.isEmpty ? "" : ", then \"\(closers)\""
            return (
                "the text ends inside a string that starts at \(place(start, bytes)); close it with '\"'\(missing)",
                bytes.count
            )
        }
        if let top = scan.stack.last {
            let kind = top.isObject ? "an object" : "an array"
            return (
                "the text ends inside \(kind) opened at \(place(top.offset, bytes)); \"\(closers)\" is missing",
                bytes.count
            )
        }
        if let stray = scan.strayWord { return (strayWord(stray.word), stray.offset) }
        if !scan.hasValue { return ("the text holds no JSON value, only whitespace", bytes.count) }
        return ("the text ends before the JSON value is complete", bytes.count)
    }

    /// `unexpected "tru" where a value should be; …` for a bare word that is not a JSON literal.
    private static func strayWord(_ word: String) -> String {
        "unexpected \"\(word)\" where a value should be; a value is true, false, null, a number, a string in "
            + "double quotes, an array or an object"
    }

    private static func leadingZero(at offset: Int, _ bytes: [UInt8]) -> String {
        let start = numberStart(before: offset, bytes)
        let number = String(decoding: bytes[start...].prefix(while: isWordByte), as: UTF8.self)
        let sign = number.hasPrefix("-") ? "-" : ""
        let digits = number.drop { $0 == "-" }
        let trimmed = digits.drop { $0 == "0" }
        let fixed = sign + (trimmed.isEmpty || trimmed.first == "." ? "0" + trimmed : String(trimmed))
        return "the number \(number) has a leading zero, which JSON does not allow; write \(fixed), "
            + "or \"\(number)\" as a string"
    }

    private static func controlCharacter(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
            return "a line break inside a string; write it as \"\\n\", or end the string with '\"' first"
        case UInt8(ascii: "\t"):
            return "a tab inside a string; write it as \"\\t\""
        default:
            let hex = String(byte, radix: 16, uppercase: true)
            let code = String(repeating: "0", count: 4 - hex.count) + hex
            return "control character U+\(code) inside a string; write it as \"\\u\(code)\""
        }
    }

    // MARK: - Scanning

    /// Tracks strings, brackets, `:` and `,` over text that Foundation read without complaint.
    private static func scan(_ bytes: ArraySlice<UInt8>) -> Scan {
        var scan = Scan()
        var index = bytes.startIndex
        func consumedValue() {
            scan.hasValue = true
            if !scan.stack.isEmpty { scan.stack[scan.stack.count - 1].expectation = .commaOrClose }
        }
        while index < bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                break
            case UInt8(ascii: "\""):
                let start = index
                index = JSONTextLayout.closingQuote(ofStringAt: start, in: bytes)
                guard index < bytes.endIndex else {
                    scan.openString = start
                    return scan
                }
                if let top = scan.stack.last, top.isObject, top.expectation == .memberName {
                    let name = bytes[(start + 1)..<index]
                    scan.stack[scan.stack.count - 1].key = String(decoding: name, as: UTF8.self)
                    scan.stack[scan.stack.count - 1].expectation = .colon
                    scan.hasValue = true
                } else {
                    consumedValue()
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                consumedValue()
                let isObject = byte == UInt8(ascii: "{")
                scan.stack.append(
                    Frame(isObject: isObject, offset: index, expectation: isObject ? .memberName : .value)
                )
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !scan.stack.isEmpty { scan.stack.removeLast() }
            case UInt8(ascii: ":"):
                if !scan.stack.isEmpty { scan.stack[scan.stack.count - 1].expectation = .value }
            case UInt8(ascii: ","):
                if let top = scan.stack.last {
                    scan.stack[scan.stack.count - 1].expectation = top.isObject ? .memberName : .value
                }
            default:
                let start = index
                while index + 1 < bytes.endIndex, isWordByte(bytes[index + 1]) { index += 1 }
                let word = String(decoding: bytes[start...index], as: UTF8.self)
                let startsNumber = word.first.map { $0.isNumber || $0 == "-" } ?? false
                let isLiteral = ["true", "false", "null"].contains(word) || (startsNumber && Double(word) != nil)
                if !isLiteral, scan.strayWord == nil { scan.strayWord = (word, start) }
                consumedValue()
            }
            index += 1
        }
        return scan
    }

    // MARK: - Helpers

    /// `"}"`, `"tru"` (a run of letters or digits), `"é"`, `'"'`, or `U+0001` for a control character.
    private static func token(at offset: Int, _ bytes: [UInt8]) -> String {
        let byte = bytes[offset]
        if byte == UInt8(ascii: "\"") { return "'\"'" }
        if isWordByte(byte) {
            let word = bytes[offset...].prefix(while: isWordByte).prefix(24)
            return "\"\(String(decoding: word, as: UTF8.self))\""
        }
        if byte < 0x20 || byte == 0x7F {
            let hex = String(byte, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: 4 - hex.count) + hex
        }
        let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
        return "\"\(String(decoding: bytes[offset..<min(offset + length, bytes.count)], as: UTF8.self))\""
    }

    /// Bytes as text for a message, each control character written `U+000A`, so the message stays one line.
    private static func printable(_ bytes: some Sequence<UInt8>) -> String {
        String(decoding: Array(bytes), as: UTF8.self).unicodeScalars.map { scalar in
            guard scalar.value < 0x20 || scalar.value == 0x7F else { return String(scalar) }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: 4 - hex.count) + hex
        }.joined()
    }

    /// Letters, digits and the characters of a number (`-`, `+`, `.`), which make up literals and numbers.
    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
            UInt8(ascii: "_"):
            true
        default:
            false
        }
    }

    /// The offset where the number around `offset` starts.
    private static func numberStart(before offset: Int, _ bytes: [UInt8]) -> Int {
        var start = min(offset, bytes.count - 1)
        while start > 0, isWordByte(bytes[start - 1]) { start -= 1 }
        return start
    }

    /// `line 1, column 22` for a byte offset.
    private static func place(_ offset: Int, _ bytes: [UInt8]) -> String {
        guard let location = JSONSyntaxDiagnosis.location(ofByteOffset: offset, in: Data(bytes)) else {
            return "byte offset \(offset)"
        }
        return "line \(location.line), column \(location.column)"
    }

    /// The first offset of `needle` in `bytes`.
    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard !needle.isEmpty, needle.count <= bytes.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
