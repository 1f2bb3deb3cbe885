import Foundation

/// Where each value of a JSON text starts, and whether the text has a comma right before a closing bracket.
///
/// This is a lexical scan, not a parser: it runs only on text Foundation's parser has already accepted, and
/// tracks strings, brackets and commas to find the byte offset of every value by its JSON path (for listing
/// configuration errors in document order) and the trailing commas Foundation tolerates but RFC 8259 §2 does
/// not. Member names are decoded with `JSONSerialization`.
package enum JSONTextLayout {
    /// The 0-based byte offset of the first comma followed (after whitespace) by `}` or `]`.
    ///
    /// - Parameter data: UTF-8 JSON text that `JSONSerialization` accepts.
    /// - Returns: The comma's offset, or `nil` when there is none.
    package static func trailingCommaOffset(in data: Data) -> Int? {
        scan(data, recordsOffsets: false).trailingComma
    }

    /// The 0-based byte offset where each value starts, by JSON path (`$`, `$.mocks`, `$.mocks.stubs[0]`).
    ///
    /// An object member's offset is that of its name, so an unknown key sorts where it is written.
    ///
    /// - Parameter data: UTF-8 JSON text that `JSONSerialization` accepts.
    /// - Returns: The offsets; paths as ``JSONPath`` writes them.
    /// - Complexity: O(*n*) in the text's length.
    package static func valueOffsets(in data: Data) -> [String: Int] {
        scan(data, recordsOffsets: true).offsets
    }

    /// An open object or array during the scan.
    private struct Frame {
        var path: String
        var isObject: Bool
        var index = 0
        var key: String?
        var keyOffset = 0
    }

    private static func scan(_ data: Data, recordsOffsets: Bool) -> (offsets: [String: Int], trailingComma: Int?) {
        let bytes = [UInt8](data)
        var offsets: [String: Int] = [:]
        var stack: [Frame] = []
        var lastComma: Int?
        var trailingComma: Int?
        var index = 0
        // Every byte is handled here; calls are made once per value (`record`) or string (`closingQuote`).
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                index += 1
                continue
            case UInt8(ascii: "\""):
                let start = index
                index = closingQuote(ofStringAt: start, in: bytes[...]) + 1
                if var top = stack.last, top.isObject, top.key == nil {
                    top.key = decodeString(bytes[start..<Swift.min(index, bytes.count)])
                    top.keyOffset = start
                    stack[stack.count - 1] = top
                } else {
                    _ = record(at: start, in: stack, offsets: &offsets, recordsOffsets: recordsOffsets)
                }
                lastComma = nil
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let path = record(at: index, in: stack, offsets: &offsets, recordsOffsets: recordsOffsets)
                stack.append(Frame(path: path, isObject: byte == UInt8(ascii: "{")))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let comma = lastComma, trailingComma == nil { trailingComma = comma }
                // Only text Foundation accepted reaches here, but a scan must not trap on any input.
                if !stack.isEmpty { stack.removeLast() }
            case UInt8(ascii: ","):
                if var top = stack.last {
                    if top.isObject { top.key = nil } else { top.index += 1 }
                    stack[stack.count - 1] = top
                }
                lastComma = index
                index += 1
                continue
            case UInt8(ascii: ":"):
                break
            default:
                _ = record(at: index, in: stack, offsets: &offsets, recordsOffsets: recordsOffsets)
                while index + 1 < bytes.count, !",}] \t\r\n".utf8.contains(bytes[index + 1]) { index += 1 }
            }
            lastComma = nil
            index += 1
        }
        return (offsets, trailingComma)
    }

    /// Notes where the value starting at `index` is (the first offset seen for its path, when `recordsOffsets`)
    /// and returns its path; called once per value, not per byte.
    private static func record(
        at index: Int,
        in stack: [Frame],
        offsets: inout [String: Int],
        recordsOffsets: Bool
    ) -> String {
        let place = valuePath(at: index, in: stack) ?? (JSONPath.root, index)
        if recordsOffsets, offsets[place.path] == nil { offsets[place.path] = place.offset }
        return place.path
    }

    /// The path of the value starting at `index` and the offset to record for it (an object member's is that of
    /// its name); `nil` in an object whose member has no name yet.
    private static func valuePath(at index: Int, in stack: [Frame]) -> (path: String, offset: Int)? {
        guard let top = stack.last else { return (JSONPath.root, index) }
        if top.isObject {
            guard let key = top.key else { return nil }
            return (JSONPath.appending(key, to: top.path), top.keyOffset)
        }
        return (JSONPath.appending(top.index, to: top.path), index)
    }

    /// Where the string literal whose opening quote is at `start` ends: the offset of its closing quote, or
    /// `bytes.endIndex` (or just past it, after a trailing backslash) when the text ends inside it.
    ///
    /// - Parameters:
    ///   - start: The offset of the opening `"`.
    ///   - bytes: UTF-8 JSON text.
    /// - Returns: The closing quote's offset; ≥ `bytes.endIndex` when there is none.
    static func closingQuote(ofStringAt start: Int, in bytes: ArraySlice<UInt8>) -> Int {
        var index = start + 1
        while index < bytes.endIndex, bytes[index] != UInt8(ascii: "\"") {
            index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        return index
    }

    /// The text of a JSON string literal, quotes included.
    private static func decodeString(_ literal: ArraySlice<UInt8>) -> String {
        let inner = literal.dropFirst().dropLast()
        guard inner.contains(UInt8(ascii: "\\")) else { return String(decoding: inner, as: UTF8.self) }
        let decoded = try? JSONSerialization.jsonObject(with: Data(literal), options: [.fragmentsAllowed])
        return decoded as? String ?? String(decoding: inner, as: UTF8.self)
    }
}
