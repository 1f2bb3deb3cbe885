import Foundation

/// Where and why JSON text cannot be parsed, for errors such as `nettap.json:3:7: invalid JSON: …`.
///
/// `JSONDecoder` reports syntax errors without a position; `JSONSerialization` reports the byte offset in
/// its message (`Invalid value around character 22.`), which this turns into a 1-based line and column and
/// into words about the byte found there and what is still open before it: `unexpected "}" inside an array
/// opened at line 1, column 22; close the array with "]"`, `the text ends inside a string that starts at line
/// 2, column 9`. It is not a parser: Foundation has said where the text fails, and a lexical scan of the
/// bytes before that place (strings, brackets, colons, commas) says what was expected there.
package struct JSONSyntaxDiagnosis: Sendable, Equatable {
    /// What is wrong, in words (`unexpected "}" where the value of "a" should be`), or `the file is empty`.
    package var message: String
    /// The 1-based line, when the offset is known.
    package var line: Int?
    /// The 1-based column in characters, when the offset is known.
    package var column: Int?

    /// Diagnoses JSON text that failed to decode.
    ///
    /// - Parameter data: The UTF-8 text, without a byte-order mark.
    /// - Returns: The diagnosis, or `nil` when `JSONSerialization` accepts the text (any top-level value).
    package static func diagnose(_ data: Data) -> JSONSyntaxDiagnosis? {
        if data.isEmpty {
            return JSONSyntaxDiagnosis(message: "the file is empty", line: 1, column: 1)
        }
        if let problem = encodingProblem(in: data) { return problem }
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
            let bytes = [UInt8](data)
            let found = JSONSyntaxExplanation.explain(
                foundationMessage: detail,
                offset: offset(in: detail, bytes),
                bytes
            )
            let location = location(ofByteOffset: found.offset, in: data)
            return JSONSyntaxDiagnosis(message: found.message, line: location?.line, column: location?.column)
        }
        return nil
    }

    /// The first byte that cannot start JSON text in UTF-8: an invalid UTF-8 sequence or a NUL byte.
    ///
    /// RFC 8259 §8.1 requires UTF-8 for JSON exchanged between systems, and a NUL byte is never valid in JSON
    /// (not whitespace, and a control character inside a string must be escaped). Foundation's parser instead
    /// guesses UTF-16 or UTF-32 from NUL bytes at the start, so such text would be parsed as something other
    /// than what the scan of ``JSONTextLayout`` and every byte offset in an error assume.
    ///
    /// - Parameter data: The text, without a byte-order mark.
    /// - Returns: A diagnosis naming the byte (`byte 0x9E at byte offset 4 is not UTF-8 (…)`) and its line and
    ///   column, or `nil` when the text is UTF-8 without NUL bytes.
    package static func encodingProblem(in data: Data) -> JSONSyntaxDiagnosis? {
        var iterator = data.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar):
                if scalar.count == 1, scalar.first == 0 {
                    let what = "a NUL byte (0x00) at byte offset \(offset), which JSON text never holds"
                    return encodingDiagnosis(
                        what + " (UTF-16 or UTF-32? JSON must be UTF-8, RFC 8259 §8.1)",
                        offset,
                        data
                    )
                }
                offset += scalar.count
            case .error:
                let byte = data[data.index(data.startIndex, offsetBy: offset)]
                let hex = String(byte, radix: 16, uppercase: true)
                let what = "byte 0x\(hex.count == 1 ? "0" + hex : hex) at byte offset \(offset) is not UTF-8"
                return encodingDiagnosis(what + " (JSON text must be UTF-8, RFC 8259 §8.1)", offset, data)
            case .emptyInput:
                return nil
            }
        }
    }

    private static func encodingDiagnosis(_ message: String, _ offset: Int, _ data: Data) -> JSONSyntaxDiagnosis {
        let location = location(ofByteOffset: offset, in: data)
        return JSONSyntaxDiagnosis(message: message, line: location?.line, column: location?.column)
    }

    /// Removes a leading UTF-8 byte-order mark (`EF BB BF`).
    ///
    /// - Parameter data: The bytes.
    /// - Returns: The bytes without the mark.
    package static func strippingByteOrderMark(_ data: Data) -> Data {
        data.starts(with: [0xEF, 0xBB, 0xBF]) ? Data(data.dropFirst(3)) : data
    }

    /// The 1-based line and column of a byte offset.
    ///
    /// - Parameters:
    ///   - offset: The 0-based byte offset; `data.count` is the end of the text.
    ///   - data: The UTF-8 text.
    /// - Returns: The location, or `nil` when the offset is unknown or outside the text.
    package static func location(ofByteOffset offset: Int?, in data: Data) -> (line: Int, column: Int)? {
        guard let offset, offset >= 0, offset <= data.count else { return nil }
        let before = String(decoding: data.prefix(offset), as: UTF8.self)
        let lines = before.split(separator: "\n", omittingEmptySubsequences: false)
        return (lines.count, (lines.last?.count ?? 0) + 1)
    }

    /// The byte offset in a Foundation message: `Invalid value around character 22.`, `Invalid hex encoded
    /// sequence in "12"}" at 9.`, or (Apple platforms) `… around line 1, column 23.`.
    private static func offset(in message: String, _ bytes: [UInt8]) -> Int? {
        func number(after marker: String, from start: String.Index? = nil) -> Int? {
            let text = message[(start ?? message.startIndex)...]
            guard let range = text.range(of: marker, options: .backwards) else { return nil }
            return Int(message[range.upperBound...].prefix { $0.isNumber })
        }
        if let offset = number(after: "character ") { return offset }
        if let line = number(after: "line "), let column = number(after: ", column ") {
            return byteOffset(line: line, column: column, in: bytes)
        }
        return number(after: "\" at ")
    }

    /// The byte offset of a 1-based line and column in characters.
    private static func byteOffset(line: Int, column: Int, in bytes: [UInt8]) -> Int? {
        var offset = 0
        var currentLine = 1
        while currentLine < line {
            guard let newline = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            offset = newline + 1
            currentLine += 1
        }
        let end = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        let text = String(decoding: bytes[offset..<end], as: UTF8.self)
        return offset + text.prefix(max(column - 1, 0)).utf8.count
    }
}
