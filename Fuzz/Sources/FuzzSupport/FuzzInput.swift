import Foundation

/// The bytes of one libFuzzer input, split into the fields a fuzz target feeds to several parsers.
///
/// Fields are separated by a NUL byte, so a seed file reads as text with `\0` between the parts
/// (`printf 'https://*.example.com/**\0/api/*\0…'`). A field is decoded as UTF-8 with invalid bytes replaced,
/// so every input gives strings.
public struct FuzzInput: Sendable {
    /// The whole input.
    public let data: Data
    /// The NUL-separated fields, in order; one field (the whole input) when there is no NUL.
    public let fields: [Data]

    /// Copies the input libFuzzer passes to `LLVMFuzzerTestOneInput`.
    ///
    /// - Parameters:
    ///   - start: The first byte.
    ///   - count: The number of bytes, ≥ 0.
    public init(_ start: UnsafeRawPointer, _ count: Int) {
        data = Data(bytes: start, count: count)
        fields = data.split(separator: 0, omittingEmptySubsequences: false).map { Data($0) }
    }

    /// The field at `index` as a string, or the empty string when the input has fewer fields.
    ///
    /// - Parameter index: The 0-based field number.
    /// - Returns: The field decoded as UTF-8, invalid sequences replaced by U+FFFD.
    public func string(_ index: Int) -> String {
        guard index < fields.count else { return "" }
        return String(decoding: fields[index], as: UTF8.self)
    }

    /// The field at `index` as bytes, or empty data when the input has fewer fields.
    ///
    /// - Parameter index: The 0-based field number.
    /// - Returns: The field's bytes.
    public func bytes(_ index: Int) -> Data {
        index < fields.count ? fields[index] : Data()
    }

    /// The fields from `index` on, as strings.
    ///
    /// - Parameter index: The 0-based first field.
    /// - Returns: The fields decoded as by ``string(_:)``; empty when there are none.
    public func strings(from index: Int) -> [String] {
        guard index < fields.count else { return [] }
        return fields[index...].map { String(decoding: $0, as: UTF8.self) }
    }
}
