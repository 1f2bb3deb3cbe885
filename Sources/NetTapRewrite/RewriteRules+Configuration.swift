import Foundation
import NetTapCore

extension RewriteRules {
    /// The keys of the `rewrite` section.
    public static let configurationKeys: Set<String> = [
        "mapRemote", "requestHeaders", "responseHeaders", "responseBody", "bodyBufferLimit",
    ]

    /// Reads the `rewrite` section of `nettap.json`.
    ///
    /// ```json
    /// {
    ///   "mapRemote": [{"from": "https://api.example.com/v1", "to": "http://127.0.0.1:8080/staging/v1"}],
    ///   "requestHeaders": [{"set": {"X-Debug": "1"}, "remove": ["Authorization"], "match": {"host": "api.example.com"}}],
    ///   "responseHeaders": [{"remove": ["Server"]}],
    ///   "responseBody": [
    ///     {"replace": "https://cdn.example.com", "with": "http://127.0.0.1:8080"},
    ///     {"jsonPath": "$.user.name", "value": "Test User"},
    ///     {"jsonPath": "$.ads", "remove": true, "match": {"path": "/home"}}
    ///   ],
    ///   "bodyBufferLimit": "8 MiB"
    /// }
    /// ```
    /// Every key is optional; each rule's `match` (a `RequestMatcher` configuration) defaults to every request. A
    /// map remote rule may have `"preserveHost": true`. A header rule's `remove`, `set` and `add` apply in that
    /// order. The DocC article "Rewriting requests and responses" describes each key.
    ///
    /// - Parameter node: The section, for example `$.rewrite`.
    /// - Throws: `ConfigurationError` naming the file and the JSON path of an unknown key (with a did-you-mean), a
    ///   wrong type, a bad URL prefix, header name, JSON path or matcher, or a body rule that is neither kind.
    package init(configuration node: ConfigNode) throws {
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        let mapRemote = try node.each("mapRemote", MapRemote.init(configuration:))
        let requestHeaders = try node.each("requestHeaders", HeaderEdit.rules(configuration:)).flatMap { $0 }
        let responseHeaders = try node.each("responseHeaders", HeaderEdit.rules(configuration:)).flatMap { $0 }
        let responseBody = try node.each("responseBody", BodyReplacement.init(configuration:))
        let limit = try node.byteCount("bodyBufferLimit") ?? Self.defaultBodyBufferLimit
        self.init(
            mapRemote: mapRemote,
            requestHeaders: requestHeaders,
            responseHeaders: responseHeaders,
            responseBody: responseBody,
            bodyBufferLimit: limit
        )
    }
}

extension ConfigNode {
    /// The matcher at `match`, or `.any` when there is none.
    fileprivate func ruleMatcher() throws -> RequestMatcher {
        guard let match = try child("match"), match.value != .null else { return .any }
        return try RequestMatcher(configuration: match)
    }

    /// The error of a rule's input, at this node.
    fileprivate func error(_ failure: RewriteRuleError) -> ConfigurationError {
        error(failure.description)
    }
}

extension MapRemote {
    /// The keys of a map remote rule object.
    package static let configurationKeys: Set<String> = ["from", "to", "match", "preserveHost"]

    /// Reads a rule: `{"from": "https://api.example.com", "to": "http://127.0.0.1:8080", "match": {…},
    /// "preserveHost": false}`.
    ///
    /// - Parameter node: The rule object.
    /// - Throws: `ConfigurationError` at `from` or `to` for a URL that is no prefix NetTap maps, at `match` for a bad
    ///   matcher, or for an unknown key.
    package init(configuration node: ConfigNode) throws {
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        let fromNode = try node.requiredChild("from")
        let toNode = try node.requiredChild("to")
        let from = try fromNode.stringValue()
        let to = try toNode.stringValue()
        let matcher = try node.ruleMatcher()
        let preserves = try node.bool("preserveHost") ?? false
        do {
            try self.init(from: from, to: to, matching: matcher, preservesHostHeader: preserves)
        } catch {
            // The error names the URL it is about: report it at that member.
            throw (error.input == from ? fromNode : toNode).error(error)
        }
    }
}

extension HeaderEdit {
    /// The keys of a header rule object.
    package static let configurationKeys: Set<String> = ["remove", "set", "add", "match"]

    /// Reads a header rule: `{"remove": ["Server"], "set": {"X-Debug": "1"}, "add": {"Via": "nettap"}, "match": {…}}`,
    /// as one edit per field, removals first, then sets, then additions (each by name).
    ///
    /// - Parameter node: The rule object.
    /// - Returns: The edits.
    /// - Throws: `ConfigurationError` at the member of a bad name or value, for a rule with none of the three keys,
    ///   or for an unknown key.
    package static func rules(configuration node: ConfigNode) throws -> [HeaderEdit] {
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        let matcher = try node.ruleMatcher()
        var edits: [HeaderEdit] = []
        for name in try node.array("remove") {
            let text = try name.stringValue()
            do { edits.append(try .remove(text, matching: matcher)) } catch { throw name.error(error) }
        }
        for key in ["set", "add"] {
            guard let fields = try node.child(key), fields.value != .null else { continue }
            for (name, value) in try fields.members() {
                let text = try value.stringValue()
                let operation: Operation = key == "set" ? .set(text) : .add(text)
                do {
                    edits.append(try HeaderEdit(name: name, operation: operation, matching: matcher))
                } catch {
                    throw value.error(error)
                }
            }
        }
        let keys = try node.keys
        guard !edits.isEmpty || keys.contains(where: { ["remove", "set", "add"].contains($0) }) else {
            throw node.error("a header rule needs \"remove\" (names), \"set\" or \"add\" (name: value objects)")
        }
        return edits
    }
}

extension BodyReplacement {
    /// The keys of a body rule object.
    package static let configurationKeys: Set<String> = ["replace", "with", "jsonPath", "value", "remove", "match"]

    /// Reads a body rule: `{"replace": "text", "with": "other"}`, `{"jsonPath": "$.a", "value": …}` or
    /// `{"jsonPath": "$.a", "remove": true}`, each with an optional `match`.
    ///
    /// - Parameter node: The rule object.
    /// - Throws: `ConfigurationError` at the member at fault: empty text, a JSON path that does not parse, a rule of
    ///   both kinds or of neither, a JSON rule with both `value` and `remove` or neither, or an unknown key.
    package init(configuration node: ConfigNode) throws {
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        let matcher = try node.ruleMatcher()
        let replace = try node.child("replace")
        let path = try node.child("jsonPath")
        let operation: Operation
        if let replace, path == nil {
            let text = try replace.stringValue()
            let replacement = try node.requiredString("with")
            guard !text.isEmpty else { throw replace.error("the text to replace is empty") }
            operation = .text(text, replacement: replacement)
        } else if let path, replace == nil {
            operation = try Self.jsonOperation(node, path: path)
        } else {
            throw node.error(
                replace == nil
                    ? "a body rule needs \"replace\" (with \"with\") or \"jsonPath\" (with \"value\" or \"remove\": true)"
                    : "a body rule either replaces text (\"replace\") or edits a JSON value (\"jsonPath\"), not both"
            )
        }
        do {
            try self.init(operation, matching: matcher)
        } catch {
            throw (path ?? replace ?? node).error(error)
        }
    }

    /// The JSON operation of a rule with a `jsonPath`: set (`value`, which may be `null`) or remove.
    private static func jsonOperation(_ node: ConfigNode, path: ConfigNode) throws -> Operation {
        let text = try path.stringValue()
        let removes = try node.bool("remove") ?? false
        let value = try node.child("value")
        switch (value, removes) {
        case (let value?, false): return .jsonValue(path: text, value: value.value)
        case (nil, true): return .jsonRemoval(path: text)
        case (.some, true):
            throw node.error("a JSON rule either sets \"value\" or has \"remove\": true, not both")
        case (nil, false):
            throw node.error("a JSON rule needs \"value\" (the new value, null included) or \"remove\": true")
        }
    }
}
