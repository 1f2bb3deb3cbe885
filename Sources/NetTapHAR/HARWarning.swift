import Foundation
import NetTapCore

/// A value of a HAR file that NetTap read otherwise than HAR 1.2 spells it, or left out, instead of refusing the
/// file: real exporters write a request's `cookies` as an object, a header `value` as an array, `cache` as `[]`.
///
/// ```
/// $.log.entries[0].request.cookies: expected an array, found an object; left out
/// ```
///
/// ``HARDocument/load(contentsOf:warnings:)`` collects them; ``HARDocument/loadStrictly(contentsOf:)`` refuses a
/// file that has any (a cassette a test replays must be read as written).
public struct HARWarning: Sendable, Hashable, CustomStringConvertible {
    /// The JSON path of the value, for example `$.log.entries[0].request.headers[2].value`.
    public var path: String
    /// What is not as HAR 1.2 writes it, for example `expected a string, found an array of 2 strings`.
    public var problem: String
    /// What NetTap did instead of refusing the file, for example `joined, one per line` or `left out`.
    public var resolution: String

    /// Creates a warning.
    ///
    /// - Parameters:
    ///   - path: The JSON path of the value.
    ///   - problem: What is not as HAR 1.2 writes it.
    ///   - resolution: What NetTap did with it.
    public init(path: String, problem: String, resolution: String) {
        self.path = path
        self.problem = problem
        self.resolution = resolution
    }

    /// `path: problem; resolution`.
    public var description: String { "\(path): \(problem); \(resolution)" }
}

/// The warnings of the reading in progress: the lenient decoders add to it through ``current``.
final class HARWarningLog: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [HARWarning] = []

    /// The log of the reading running on this task, if any.
    @TaskLocal static var current: HARWarningLog?

    /// The warnings so far, in reading order.
    var warnings: [HARWarning] {
        lock.lock()
        defer { lock.unlock() }
        return collected
    }

    /// Adds a warning to the current reading's log (nothing when no reading collects).
    static func warn(at codingPath: [any CodingKey], _ problem: String, _ resolution: String) {
        guard let log = current else { return }
        log.lock.lock()
        log.collected.append(HARWarning(path: JSONPath.path(codingPath), problem: problem, resolution: resolution))
        log.lock.unlock()
    }
}
