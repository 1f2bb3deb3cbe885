import Foundation

/// Reads `application/x-www-form-urlencoded` text (the WHATWG URL standard's form encoding).
///
/// Fields are separated by `&`, names from values by the first `=`; `+` is a space and `%XX` sequences
/// are decoded. A malformed `%` sequence is kept as written. (Foundation's `URLComponents` traps on such
/// input when given a raw query, so request bodies are split here.)
enum FormURLEncoding {
    /// The fields in order; a field without `=` has an empty value.
    static func fields(of text: String) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { part in
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decoded(pieces[0]), pieces.count > 1 ? decoded(pieces[1]) : "")
        }
    }

    /// `+` as a space, then percent-decoding.
    private static func decoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
