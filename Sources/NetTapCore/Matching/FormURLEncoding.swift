import Foundation

/// Reads and writes `application/x-www-form-urlencoded` text (the WHATWG URL standard's form encoding).
///
/// Fields are separated by `&`, names from values by the first `=`; `+` is a space and `%XX` sequences
/// are decoded. A malformed `%` sequence is kept as written. (Foundation's `URLComponents` traps on such
/// input when given a raw query, so request bodies are split here.)
package enum FormURLEncoding {
    /// The fields in order; a field without `=` has an empty value.
    package static func fields(of text: String) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { part in
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decoded(pieces[0]), pieces.count > 1 ? decoded(pieces[1]) : "")
        }
    }

    /// The fields as a browser's form submission writes them: `name=value` joined by `&`, each byte other than
    /// ASCII letters, digits and `*-._` percent-encoded, a space as `+`.
    package static func encoded(_ fields: [(name: String, value: String)]) -> String {
        fields.map { encoded($0.name) + "=" + encoded($0.value) }.joined(separator: "&")
    }

    private static func encoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                result += "+"
            default:
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    /// `+` as a space, then percent-decoding; text with neither is returned as it is.
    private static func decoded(_ text: Substring) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else {
            return String(text)
        }
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
