import Foundation
import NetTapCore

/// Finds every error of a configuration document by reading it again and again, each time without the values
/// already reported.
///
/// A section's reader stops at its first problem, so after each round the member at every error's path is
/// removed from the document (an array element is removed and later paths are mapped back to the indexes in
/// the file), and the document is read again, until it reads cleanly (at most ``maximumRounds`` rounds).
///
/// An error at an object whose member was removed before (`missing required key "name"` after removing a
/// `name` that was a number) is a consequence, not another mistake: it is not reported. The removed member
/// comes back once as a placeholder of the kind its error asked for (`expected a string` gives a string), so
/// the rest of that object is still checked; when the placeholder fails too, the object is removed.
struct ConfigurationValidation {
    /// How many times the document is read at most.
    static let maximumRounds = 200

    /// The errors found, in document order.
    var errors: [ConfigurationError] = []
    /// The configuration, when the document has no error.
    var configuration: NetTapConfiguration?

    /// Validates a parsed document.
    ///
    /// - Parameters:
    ///   - root: The document's root node.
    ///   - text: The document's JSON text, for the document order of the errors; `nil` to keep the order found.
    ///   - baseDirectory: The folder relative paths resolve against.
    init(root: ConfigNode, text: Data?, baseDirectory: URL?) {
        var tree = TrackedValue(root.value)
        var removed: [[JSONPathComponent]: String] = [:]
        var placeholders: Set<[JSONPathComponent]> = []
        var found: [(error: ConfigurationError, place: [JSONPathComponent])] = []
        for round in 0..<Self.maximumRounds {
            let node = ConfigNode(value: tree.json, path: root.path, source: root.source)
            let (configuration, sectionErrors) = NetTapConfiguration.read(
                node,
                baseDirectory: baseDirectory,
                opensCache: false
            )
            if sectionErrors.isEmpty {
                if round == 0 { self.configuration = configuration }
                break
            }
            var removals: [[JSONPathComponent]] = []
            var restorations: [([JSONPathComponent], JSONValue)] = []
            var isStuck = false
            for (section, error) in sectionErrors {
                var reported = error
                var place: [JSONPathComponent]
                var causes: [[JSONPathComponent]: String] = [:]
                if error.source == root.source, error.line == nil, let current = JSONPath.components(of: error.path) {
                    let resolved = tree.originalPath(of: current)
                    place = resolved.original
                    reported.path = JSONPath.path(resolved.original + current.dropFirst(resolved.consumed))
                    causes = removed.filter { $0.key.count > place.count && Array($0.key.prefix(place.count)) == place }
                } else {
                    // An error in another file (a manifest): its section goes.
                    place = section.isEmpty ? [] : [.key(section)]
                }
                if place.isEmpty { isStuck = true }
                if placeholders.contains(place) {
                    // The placeholder did not do: drop it again; its object becomes a consequence next round.
                } else if !causes.isEmpty {
                    let members = causes.filter { $0.key.count == place.count + 1 && !placeholders.contains($0.key) }
                    let values = members.compactMap { cause in
                        Self.placeholder(for: cause.value).map { (cause.key, $0) }
                    }
                    if !values.isEmpty {
                        restorations += values
                        continue
                    }
                } else if !found.contains(where: { $0.error == reported }) {
                    found.append((reported, place))
                }
                removals.append(place)
                removed[place] = error.message
            }
            if isStuck { break }
            for place in removals { tree.remove(place[...]) }
            for (place, value) in restorations {
                tree.insert(value, at: place[...])
                placeholders.insert(place)
            }
        }
        let offsets = text.map(JSONTextLayout.valueOffsets(in:)) ?? [:]
        errors = found.enumerated().sorted { lhs, rhs in
            let left = offsets[JSONPath.path(lhs.element.place)] ?? Int.max
            let right = offsets[JSONPath.path(rhs.element.place)] ?? Int.max
            return (left, lhs.offset) < (right, rhs.offset)
        }.map(\.element.error)
    }

    /// A value of the kind a type error asked for (`expected a string, found a number` gives a string).
    private static func placeholder(for message: String) -> JSONValue? {
        let kinds: [(String, JSONValue)] = [
            ("expected a string", .string("nettap-placeholder")), ("expected an integer", .integer(1)),
            ("expected a number", .integer(1)), ("expected a boolean", .bool(false)),
            ("expected an object", .object([:])), ("expected an array", .array([])),
        ]
        return kinds.first { message.hasPrefix($0.0) }?.1
    }
}

/// A JSON value whose array elements remember their index in the file, so that elements can be removed and
/// paths still name the file's indexes.
private indirect enum TrackedValue {
    case scalar(JSONValue)
    case object([String: TrackedValue])
    case array([(index: Int, value: TrackedValue)])

    init(_ value: JSONValue) {
        switch value {
        case .object(let members): self = .object(members.mapValues(TrackedValue.init))
        case .array(let elements): self = .array(elements.enumerated().map { ($0.offset, TrackedValue($0.element)) })
        default: self = .scalar(value)
        }
    }

    /// The value as JSON, without what was removed.
    var json: JSONValue {
        switch self {
        case .scalar(let value): value
        case .object(let members): .object(members.mapValues(\.json))
        case .array(let elements): .array(elements.map(\.value.json))
        }
    }

    /// The file's path of the longest prefix of a path in the current value that exists.
    ///
    /// - Returns: That prefix with the file's array indexes, and how many steps of `path` it covers.
    func originalPath(of path: [JSONPathComponent]) -> (original: [JSONPathComponent], consumed: Int) {
        var node = self
        var original: [JSONPathComponent] = []
        for component in path {
            switch (node, component) {
            case (.object(let members), .key(let key)):
                guard let member = members[key] else { return (original, original.count) }
                original.append(component)
                node = member
            case (.array(let elements), .index(let index)):
                guard elements.indices.contains(index) else { return (original, original.count) }
                original.append(.index(elements[index].index))
                node = elements[index].value
            default:
                return (original, original.count)
            }
        }
        return (original, original.count)
    }

    /// Removes the value at a path given with the file's array indexes.
    mutating func remove(_ path: ArraySlice<JSONPathComponent>) {
        guard let first = path.first else { return }
        switch (self, first) {
        case (.object(var members), .key(let key)):
            if path.count == 1 { members[key] = nil } else { members[key]?.remove(path.dropFirst()) }
            self = .object(members)
        case (.array(var elements), .index(let index)):
            guard let position = elements.firstIndex(where: { $0.index == index }) else { return }
            if path.count == 1 {
                elements.remove(at: position)
            } else {
                elements[position].value.remove(path.dropFirst())
            }
            self = .array(elements)
        default:
            return
        }
    }

    /// Puts a value at a path given with the file's array indexes (its parent must exist).
    mutating func insert(_ value: JSONValue, at path: ArraySlice<JSONPathComponent>) {
        guard let first = path.first else { return }
        switch (self, first) {
        case (.object(var members), .key(let key)):
            if path.count == 1 {
                members[key] = TrackedValue(value)
            } else {
                members[key]?.insert(value, at: path.dropFirst())
            }
            self = .object(members)
        case (.array(var elements), .index(let index)):
            if path.count == 1 {
                let position = elements.firstIndex { $0.index > index } ?? elements.endIndex
                elements.insert((index, TrackedValue(value)), at: position)
            } else if let position = elements.firstIndex(where: { $0.index == index }) {
                elements[position].value.insert(value, at: path.dropFirst())
            }
            self = .array(elements)
        default:
            return
        }
    }
}
