import Foundation

extension ConfigNode {
    /// This value as a size in bytes: a whole number of bytes, or a string with a unit.
    ///
    /// Units (case is ignored; 1 KB = 1,000 bytes, 1 KiB = 1,024 bytes, IEC 80000-13): `bytes` (or `B`), `KB`,
    /// `MB`, `GB`, `KiB`, `MiB`, `GiB`. A space between number and unit is optional (`1 MiB`, `1.5MB`); a string
    /// without a unit is bytes (`"4096"`).
    ///
    /// - Parameter minimum: The smallest size accepted, in bytes; 0 by default.
    /// - Returns: Bytes, rounded to the nearest byte.
    /// - Throws: ``ConfigurationError`` at this node's path when the value is neither an integer nor a string,
    ///   has an unknown unit, or is below `minimum`.
    package func byteCountValue(minimum: Int = 0) throws -> Int {
        try recovering(minimum) { try byteCount(atLeast: minimum) }
    }

    /// The size, or the error ``byteCountValue(minimum:)`` reports.
    private func byteCount(atLeast minimum: Int) throws -> Int {
        let bytes: Int
        if case .string(let text) = value {
            guard let parsed = Self.bytes(parsing: text) else {
                throw error(
                    "invalid size \"\(text)\"; expected a number and a unit: bytes, KB, MB, GB, KiB, MiB, GiB "
                        + "(for example \"1 MiB\"), or a number of bytes"
                )
            }
            bytes = parsed
        } else {
            guard case .integer = value else {
                throw typeMismatch(expected: "a number of bytes or a size such as \"1 MiB\"")
            }
            bytes = try intValue()
        }
        guard bytes >= minimum else {
            throw error("expected a size of at least \(minimum) byte\(minimum == 1 ? "" : "s"), found \(bytes)")
        }
        return bytes
    }

    /// An optional size member (see ``byteCountValue(minimum:)``).
    ///
    /// - Parameters:
    ///   - key: The member name.
    ///   - minimum: The smallest size accepted, in bytes; 0 by default.
    /// - Returns: Bytes, or `nil` when the member is absent or `null`.
    /// - Throws: ``ConfigurationError`` when this value is not an object or the member is not a valid size.
    package func byteCount(_ key: String, minimum: Int = 0) throws -> Int? {
        try present(key)?.byteCountValue(minimum: minimum)
    }

    /// Bytes of a size text, or `nil` when it is not a non-negative number with a known unit: the one size parser
    /// every configuration section uses (see ``byteCountValue(minimum:)`` for the units).
    ///
    /// - Parameter text: The size, for example `64 MiB`, `1.5MB` or `4096`.
    /// - Returns: Bytes, rounded to the nearest byte; `nil` for an unknown unit, a negative number or an overflow.
    package static func bytes(parsing text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let unitStart = trimmed.firstIndex { !($0.isASCII && ($0.isNumber || $0 == ".")) } ?? trimmed.endIndex
        guard let number = Double(trimmed[..<unitStart]), number >= 0, number.isFinite else { return nil }
        let unit = trimmed[unitStart...].trimmingCharacters(in: .whitespaces).lowercased()
        let factors: [String: Double] = [
            "": 1, "b": 1, "byte": 1, "bytes": 1, "kb": 1_000, "mb": 1_000_000, "gb": 1_000_000_000, "kib": 1_024,
            "mib": 1_048_576, "gib": 1_073_741_824,
        ]
        guard let factor = factors[unit] else { return nil }
        let bytes = (number * factor).rounded()
        guard bytes < Double(Int.max) else { return nil }
        return Int(bytes)
    }
}
