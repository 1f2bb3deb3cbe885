import Foundation

/// Escaping of captured text for HTML and for JSON inside a `<script>` element.
///
/// ```swift
/// HTMLText.escape("<b title=\"x\">&</b>")   // "&lt;b title=&quot;x&quot;&gt;&amp;&lt;/b&gt;"
/// HTMLText.scriptSafe(#"{"a":"</script>"}"#) // #"{"a":"\u003c/script\u003e"}"#
/// ```
package enum HTMLText {
    /// Escapes text for HTML element content and quoted attribute values (HTML Living Standard §13.1).
    ///
    /// - Parameter text: Any text.
    /// - Returns: The text with `&`, `<`, `>`, `"` and `'` written as character references.
    package static func escape(_ text: String) -> String {
        guard text.contains(where: { "&<>\"'".contains($0) }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    /// Makes JSON text safe inside a `<script>` element: `<`, `>` and `&` become `\u003c`, `\u003e` and
    /// `\u0026`, and U+2028 and U+2029 become `\u2028` and `\u2029`.
    ///
    /// In JSON these characters can only occur inside strings, where the escapes mean the same characters
    /// (RFC 8259 §7), so the value is unchanged while `</script>` and `<!--` can no longer appear.
    ///
    /// - Parameter json: JSON text.
    /// - Returns: The same JSON value, safe to embed.
    package static func scriptSafe(_ json: String) -> String {
        String(decoding: scriptSafe(Data(json.utf8)), as: UTF8.self)
    }

    /// Makes UTF-8 JSON bytes safe inside a `<script>` element, as the `String` variant does.
    ///
    /// - Parameter json: UTF-8 JSON.
    /// - Returns: The same JSON value, safe to embed.
    /// - Complexity: O(n) in the number of bytes.
    package static func scriptSafe(_ json: Data) -> Data {
        var result = [UInt8]()
        result.reserveCapacity(json.count + json.count / 32)
        let bytes = [UInt8](json)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "<"): result += Array("\\u003c".utf8)
            case UInt8(ascii: ">"): result += Array("\\u003e".utf8)
            case UInt8(ascii: "&"): result += Array("\\u0026".utf8)
            case 0xE2
            where index + 2 < bytes.count && bytes[index + 1] == 0x80
                && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                result += Array((bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                index += 2
            default: result.append(byte)
            }
            index += 1
        }
        return Data(result)
    }
}
