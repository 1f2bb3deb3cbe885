import Foundation

/// A value in a configuration file together with where it is, so every error can name its place.
///
/// NetTap's JSON configuration (`nettap.json`) is read through nodes: each knows its JSON ``path`` and the
/// ``source`` file, and every typed accessor throws a ``ConfigurationError`` that names both when the value
/// is missing, has the wrong type or holds an unknown key.
///
/// ```swift
/// let root = try ConfigNode.load(contentsOf: URL(fileURLWithPath: "nettap.json"))
/// try root.rejectUnknownKeys(allowed: ["mocks", "shaping"])
/// for stub in try root.requiredChild("mocks").array("stubs") {     // $.mocks.stubs[0], …
///     let status = try stub.int("status") ?? 200                   // "expected an integer, found a string"
///     let matcher = try RequestMatcher(configuration: stub.requiredChild("match"))
/// }
/// ```
///
/// Object members are read by name; JSON object key order is not kept, so anything that lists members
/// (``keys``, ``members()``) sorts them by name.
package struct ConfigNode: Sendable, Equatable {
    /// The JSON value at this place.
    package var value: JSONValue
    /// The JSON path of the value, for example `$.mocks.stubs[2].match`; `$` for the document.
    package var path: String
    /// The input's name, usually the file name; `nil` for configuration built in code.
    package var source: String?
    /// Where this node and the nodes read from it report problems they can go on after, or `nil` to throw
    /// the first (see `ConfigurationDiagnostics`).
    package var diagnostics: ConfigurationDiagnostics?

    /// Wraps a value.
    ///
    /// - Parameters:
    ///   - value: The JSON value.
    ///   - path: Its JSON path; `$` for a whole document.
    ///   - source: The input's name for errors, or `nil`.
    package init(value: JSONValue, path: String = "$", source: String? = nil) {
        self.value = value
        self.path = path
        self.source = source
    }

    /// Whether two nodes hold the same value at the same place of the same input.
    package static func == (lhs: ConfigNode, rhs: ConfigNode) -> Bool {
        lhs.value == rhs.value && lhs.path == rhs.path && lhs.source == rhs.source
    }

    /// A node read from this one: same input and diagnostics, another value and path.
    package func descendant(_ value: JSONValue, at path: String) -> ConfigNode {
        var node = ConfigNode(value: value, path: path, source: source)
        node.diagnostics = diagnostics
        return node
    }

    /// Parses JSON text; a leading UTF-8 byte-order mark is skipped.
    ///
    /// - Parameters:
    ///   - data: UTF-8 JSON text (RFC 8259); any top-level value is accepted.
    ///   - source: The name used in errors, usually the file name, or `nil`.
    /// - Throws: ``ConfigurationError`` with the 1-based ``InputError/line`` and
    ///   ``InputError/column`` of a syntax error (`nettap.json:3:7: invalid JSON: …`), including a
    ///   trailing comma, which Foundation's parsers accept on some platforms but RFC 8259 does not.
    package init(parsing data: Data, source: String?) throws {
        let json = JSONSyntaxDiagnosis.strippingByteOrderMark(data)
        if let problem = JSONSyntaxDiagnosis.encodingProblem(in: json) {
            throw ConfigurationError(
                source: source,
                message: "invalid JSON: \(problem.message)",
                line: problem.line,
                column: problem.column
            )
        }
        let value: JSONValue
        do {
            value = try JSONValue(data: json)
        } catch {
            let diagnosis =
                JSONSyntaxDiagnosis.diagnose(json)
                ?? JSONSyntaxDiagnosis(message: "the data is not UTF-8 JSON", line: nil, column: nil)
            let end = JSONSyntaxDiagnosis.location(ofByteOffset: json.count, in: json)
            throw ConfigurationError(
                source: source,
                message: "invalid JSON: \(diagnosis.message)",
                line: diagnosis.line ?? end?.line,
                column: diagnosis.column ?? end?.column
            )
        }
        // Foundation accepts a comma before "}" or "]"; RFC 8259 does not.
        if let comma = JSONTextLayout.trailingCommaOffset(in: json),
            let location = JSONSyntaxDiagnosis.location(ofByteOffset: comma, in: json)
        {
            throw ConfigurationError(
                source: source,
                message: "invalid JSON: a comma before a closing bracket (trailing commas are not JSON, RFC 8259)",
                line: location.line,
                column: location.column
            )
        }
        self.init(value: value, source: source)
    }

    /// Reads and parses a JSON file.
    ///
    /// - Parameter url: A file URL; its last path component names the file in errors.
    /// - Returns: The document's root node, at path `$`.
    /// - Throws: ``ConfigurationError`` about the file itself (an empty ``InputError/path``) when it
    ///   cannot be read: `nettap.json: no such file`, `nettap.json: is a directory, not a file`,
    ///   `nettap.json: cannot be read: permission denied`; or one with line and column when it is not strict
    ///   RFC 8259 JSON (see ``init(parsing:source:)``).
    package static func load(contentsOf url: URL) throws -> ConfigNode {
        let name = url.lastPathComponent
        let data: Data
        do {
            data = try InputFile.read(url)
        } catch .missing {
            throw ConfigurationError(source: name, path: "", message: "no such file")
        } catch .directory {
            throw ConfigurationError(source: name, path: "", message: "is a directory, not a file")
        } catch {
            throw ConfigurationError(source: name, path: "", message: "cannot be read: \(error.reason)")
        }
        return try ConfigNode(parsing: data, source: name)
    }

    /// An error at this node's place.
    ///
    /// - Parameter message: What is wrong with the value, for example `port must be 1…65535`.
    /// - Returns: The error, naming ``source`` and ``path``.
    package func error(_ message: String) -> ConfigurationError {
        ConfigurationError(source: source, path: path, message: message)
    }

    /// A member of this object, including one whose value is `null`.
    ///
    /// - Parameter key: The member name.
    /// - Returns: The member's node, or `nil` when the object has no such member.
    /// - Throws: ``ConfigurationError`` when this value is not an object.
    package func child(_ key: String) throws -> ConfigNode? {
        guard let value = try objectMembers()[key] else { return nil }
        return descendant(value, at: JSONPath.appending(key, to: path))
    }

    /// A capability's section of a configuration document: the member `name` of a whole `nettap.json`, or the
    /// document itself when it holds only that section's keys (a stand-alone section file).
    ///
    /// - Parameters:
    ///   - name: The section's name, for example `files`.
    ///   - sectionKeys: The keys the section itself may have.
    /// - Returns: The section's node.
    /// - Throws: ``ConfigurationError`` at this node when it is not an object, or `no "files" section (the
    ///   file has: mocks, shaping)` when it is a document of other sections.
    package func section(_ name: String, sectionKeys: Set<String>) throws -> ConfigNode {
        if let member = try child(name) { return member }
        let keys = Set(try objectMembers().keys)
        guard keys.isSubset(of: sectionKeys) else {
            throw error(
                "no \"\(name)\" section (the file has: \(keys.sorted().joined(separator: ", "))); add one, or pass a "
                    + "file that holds only the \(name) section's keys (\(sectionKeys.sorted().joined(separator: ", ")))"
            )
        }
        return self
    }

    /// A member of this object that must be present and not `null`.
    ///
    /// - Parameter key: The member name.
    /// - Returns: The member's node.
    /// - Throws: ``ConfigurationError`` when this value is not an object, or (at this node's path)
    ///   `missing required key "name"` when the member is absent or `null`.
    package func requiredChild(_ key: String) throws -> ConfigNode {
        guard let node = try child(key), node.value != .null else {
            throw error("missing required key \"\(key)\"")
        }
        return node
    }

    /// The member names of this object, sorted.
    ///
    /// - Throws: ``ConfigurationError`` when this value is not an object.
    package var keys: [String] {
        get throws { try objectMembers().keys.sorted() }
    }

    /// The members of this object as nodes, sorted by name.
    ///
    /// - Returns: `(key, node)` pairs; each node's path names its member.
    /// - Throws: ``ConfigurationError`` when this value is not an object.
    /// - Complexity: O(*n* log *n*) in the number of members.
    package func members() throws -> [(key: String, node: ConfigNode)] {
        try objectMembers().keys.sorted().map { key in
            (key, descendant(value[key] ?? .null, at: JSONPath.appending(key, to: path)))
        }
    }

    /// The elements of this array as nodes.
    ///
    /// - Returns: The elements in order; each node's path ends in its index, such as `$.stubs[2]`.
    /// - Throws: ``ConfigurationError`` when this value is not an array.
    package func elements() throws -> [ConfigNode] {
        try recovering([]) {
            guard case .array(let elements) = value else { throw typeMismatch(expected: "an array") }
            return elements.enumerated().map { index, element in
                descendant(element, at: JSONPath.appending(index, to: path))
            }
        }
    }

    /// The object's members, or a type error naming this path (no members, when collecting diagnostics).
    private func objectMembers() throws -> [String: JSONValue] {
        try recovering([:]) {
            guard case .object(let members) = value else { throw typeMismatch(expected: "an object") }
            return members
        }
    }

    /// `expected <expected>, found <kind of value>` at this node's path.
    ///
    /// - Parameter expected: The wanted kind with its article, for example `a string`.
    /// - Returns: The error.
    package func typeMismatch(expected: String) -> ConfigurationError {
        error("expected \(expected), found \(value.kindDescription)")
    }
}

extension JSONValue {
    /// The value as a message quotes it: a number as written when it is whole (`0`, `-5`, not `0.0`), other
    /// numbers as Swift prints them (`0.5`, `1e+16`), anything else as compact JSON.
    package var messageText: String {
        switch self {
        case .integer(let integer): return String(integer)
        case .number(let number):
            if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
            return String(number)
        default: return description
        }
    }

    /// The kind of value with its article, for messages: `null`, `a boolean`, `a number`, `a string`,
    /// `an array`, `an object`.
    package var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
