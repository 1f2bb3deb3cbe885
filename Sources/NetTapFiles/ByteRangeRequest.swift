import Foundation

/// What a `Range` header asks of a file of a given size (RFC 9110 §14.1.2, §14.2), reduced to what NetTap
/// serves: one byte range, or the whole file.
///
/// - `bytes=a-b` asks for bytes `a` through `b` (inclusive; `b` past the end means "to the end");
///   `bytes=a-` for everything from `a`; `bytes=-n` for the last `n` bytes.
/// - Several ranges (`bytes=0-1,5-9`) are answered with the whole file and `200 OK`: a server may ignore a
///   `Range` header (RFC 9110 §14.2), and one `206` with a `multipart/byteranges` body is not worth its
///   complexity for local assets.
/// - A header that is not a valid `bytes` range set, or uses another unit, is ignored (whole file).
/// - A single range that starts at or past the end (or `-0`, or any range of an empty file) cannot be
///   satisfied: `416` with `Content-Range: bytes */size`.
enum ByteRangeRequest: Equatable {
    /// Serve the whole file.
    case whole
    /// Serve bytes `first...last` (both within the file).
    case partial(first: Int64, last: Int64)
    /// Answer `416 Range Not Satisfiable`.
    case unsatisfiable

    /// Evaluates a `Range` field value against a file of `size` bytes.
    ///
    /// - Parameters:
    ///   - value: The field value, for example `bytes=0-499`.
    ///   - size: The file's size in bytes.
    /// - Returns: What to serve.
    static func evaluate(_ value: String, size: Int64) -> ByteRangeRequest {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard let equals = trimmed.firstIndex(of: "="),
            trimmed[..<equals].trimmingCharacters(in: .whitespaces).lowercased() == "bytes"
        else { return .whole }
        let specs = trimmed[trimmed.index(after: equals)...]
            .split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard specs.count == 1, let spec = specs.first, let dash = spec.firstIndex(of: "-") else { return .whole }
        let firstText = spec[..<dash]
        let lastText = spec[spec.index(after: dash)...]
        if firstText.isEmpty {
            guard let suffix = number(lastText) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .partial(first: max(0, size - suffix), last: size - 1)
        }
        guard let first = number(firstText) else { return .whole }
        var last = Int64.max
        if !lastText.isEmpty {
            guard let parsed = number(lastText) else { return .whole }
            last = parsed
        }
        guard last >= first else { return .whole }
        guard first < size else { return .unsatisfiable }
        return .partial(first: first, last: min(last, size - 1))
    }

    /// A run of ASCII digits as a number; too many digits give `Int64.max`; anything else `nil`.
    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(text) ?? Int64.max
    }
}
