import Foundation

/// The errors of one configuration document, collected in a single reading.
///
/// A node that carries diagnostics (see `ConfigNode.collectingDiagnostics(into:)`) does not stop at a value's
/// first problem: a typed accessor reports the error here and answers a neutral value of the wanted kind (an
/// empty string, zero, `false`, no elements, no member), so the reader goes on and finds the next mistake.
/// Errors a reader throws itself are reported where the reading recovers: at each element of
/// `ConfigNode.each(_:_:)` and at each section.
///
/// An error that only follows from one already reported is not kept: one at the same path (a neutral value
/// refused again), or at an object or array that holds a reported value (`missing required key "name"` after a
/// `name` that was a number).
package final class ConfigurationDiagnostics: Sendable {
    private let reported = Locked<[(error: ConfigurationError, place: String)]>([])

    /// Creates an empty collection.
    package init() {}

    /// The errors kept, in the order they were reported, each with the place in the document it belongs to:
    /// its own path, or for an error in another file (a manifest) the path of the value that named that file.
    package var errors: [(error: ConfigurationError, place: String)] { reported.current }

    /// Keeps an error unless it follows from one already kept.
    ///
    /// - Parameters:
    ///   - error: The error.
    ///   - node: The node being read when it happened, for the place of an error in another input.
    package func report(_ error: ConfigurationError, from node: ConfigNode) {
        let place = error.source == node.source && error.line == nil ? error.path : node.path
        reported.withLock { errors in
            guard !errors.contains(where: { Self.follows(error, from: $0.error) }) else { return }
            errors.append((error, place))
        }
    }

    /// Whether `error` is a consequence of `earlier`: in the same input, at its path or at a path that holds it.
    private static func follows(_ error: ConfigurationError, from earlier: ConfigurationError) -> Bool {
        guard error.source == earlier.source, error.line == nil, earlier.line == nil else { return false }
        guard earlier.path.hasPrefix(error.path) else { return false }
        let rest = earlier.path.dropFirst(error.path.count)
        return rest.isEmpty || rest.hasPrefix(".") || rest.hasPrefix("[")
    }
}

extension ConfigNode {
    /// This node, reporting its problems to `diagnostics` instead of throwing where it can go on (and every
    /// node read from it the same).
    ///
    /// - Parameter diagnostics: Where the errors go.
    /// - Returns: The node.
    package func collectingDiagnostics(into diagnostics: ConfigurationDiagnostics) -> ConfigNode {
        var node = self
        node.diagnostics = diagnostics
        return node
    }

    /// Answers `fallback` after reporting the error `body` throws, when this node collects diagnostics;
    /// otherwise rethrows it.
    ///
    /// - Parameters:
    ///   - fallback: The neutral value to go on with.
    ///   - body: The reading.
    /// - Returns: What `body` returns, or `fallback`.
    /// - Throws: What `body` throws, when this node collects no diagnostics or the error is not a
    ///   ``ConfigurationError``.
    package func recovering<Value>(_ fallback: @autoclosure () -> Value, _ body: () throws -> Value) throws -> Value {
        do {
            return try body()
        } catch let error as ConfigurationError {
            guard let diagnostics else { throw error }
            diagnostics.report(error, from: self)
            return fallback()
        }
    }

    /// Reads each element of the array at `key` (none when the key is absent or `null`).
    ///
    /// When this node collects diagnostics, an element whose reading throws is reported and left out, and the
    /// next element is read; otherwise the first error is thrown.
    ///
    /// - Parameters:
    ///   - key: The member holding the array.
    ///   - read: Reads one element.
    /// - Returns: The elements read.
    /// - Throws: ``ConfigurationError`` when the member is not an array, or what `read` throws (without
    ///   diagnostics).
    package func each<Element>(_ key: String, _ read: (ConfigNode) throws -> Element) throws -> [Element] {
        try array(key).compactMap { element in
            guard let diagnostics = element.diagnostics else { return try read(element) }
            do {
                return try read(element)
            } catch {
                diagnostics.report((error as? ConfigurationError) ?? element.error("\(error)"), from: element)
            }
            return nil
        }
    }
}
