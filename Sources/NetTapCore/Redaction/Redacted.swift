import Foundation

/// A value after redaction, with the places where secrets were replaced.
///
/// ```swift
/// let result = Redactor.default.redact(url: url)   // https://api.example/x?token=abc
/// result.value             // https://api.example/x?token=%5Bredacted%5D
/// result.locations         // [query token]
/// ```
public struct Redacted<Value: Sendable>: Sendable {
    /// The value with every secret replaced by ``Redactor/placeholder``.
    public var value: Value
    /// Where values were replaced, in document order; empty when nothing was secret.
    public var locations: [RedactionLocation]

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - value: The redacted value.
    ///   - locations: Where values were replaced.
    public init(value: Value, locations: [RedactionLocation] = []) {
        self.value = value
        self.locations = locations
    }

    /// Whether anything was replaced.
    public var didRedact: Bool { !locations.isEmpty }
}
