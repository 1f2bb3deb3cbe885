import Foundation

/// Why the inspector server could not start: one line naming the address and port.
package struct InspectorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for example `127.0.0.1:9229 is in use (EADDRINUSE); choose another port or 0 for a free one`.
    package var description: String

    init(_ description: String) {
        self.description = description
    }
}
