import Foundation
import NetTapCore

/// Changes a response body: replaces text, or sets or removes a JSON value by its path.
///
/// ```swift
/// let staging = try BodyReplacement.text("https://cdn.example.com", with: "http://127.0.0.1:8080")
/// let name = try BodyReplacement.jsonValue(at: "$.user.name", to: "Test User")
/// let noAds = try BodyReplacement.removingJSONValue(at: "$.ads", matching: .path("/home"))
/// ```
///
/// Text is replaced byte for byte in the UTF-8 body as the app receives it (decoded), every occurrence, also one
/// split across two chunks of a streamed body. A JSON rule edits only the values its path names and keeps every
/// other byte; a body that is not JSON, or has no value there, is left alone. The article "Rewriting requests and
/// responses" says how `Content-Length` is kept right and how much of a body is held.
public struct BodyReplacement: Sendable {
    /// What the rule changes.
    public enum Operation: Sendable, Hashable {
        /// Every occurrence of the first text becomes the second.
        case text(String, replacement: String)
        /// The values at the path become the value; a missing member named by the path's last step is added.
        case jsonValue(path: String, value: JSONValue)
        /// The values at the path are removed, with their member names.
        case jsonRemoval(path: String)
    }

    /// The prepared form of an operation.
    enum Prepared: Sendable {
        case text(needle: [UInt8], replacement: [UInt8])
        case setJSON(JSONValuePath, value: [UInt8])
        case removeJSON(JSONValuePath)
    }

    /// What the rule changes.
    public let operation: Operation
    /// Which responses the rule applies to (tested on the request as the app sent it); every one by default.
    public var matcher: RequestMatcher
    let prepared: Prepared

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - operation: What to change.
    ///   - matcher: Which responses the rule applies to; `.any` by default.
    /// - Throws: ``RewriteRuleError`` for empty search text, a JSON path that does not parse (or `$` to remove),
    ///   or a value JSON cannot hold (a number that is not finite).
    public init(_ operation: Operation, matching matcher: RequestMatcher = .any) throws(RewriteRuleError) {
        self.operation = operation
        self.matcher = matcher
        switch operation {
        case .text(let text, let replacement):
            guard !text.isEmpty else {
                throw RewriteRuleError(kind: .searchText, input: text, message: "the text to replace is empty")
            }
            prepared = .text(needle: Array(text.utf8), replacement: Array(replacement.utf8))
        case .jsonValue(let path, let value):
            if let number = Self.nonFiniteNumber(in: value) {
                throw RewriteRuleError(kind: .jsonValue, input: "\(number)", message: "JSON holds finite numbers only")
            }
            let bytes = (try? value.data()) ?? Data("null".utf8)
            prepared = .setJSON(try JSONValuePath(parsing: path), value: Array(bytes))
        case .jsonRemoval(let path):
            let parsed = try JSONValuePath(parsing: path)
            guard !parsed.steps.isEmpty else {
                throw RewriteRuleError(
                    kind: .jsonPath,
                    input: path,
                    message: "the document itself cannot be removed; set \"$\" to a value instead"
                )
            }
            prepared = .removeJSON(parsed)
        }
    }

    /// A rule that replaces every occurrence of `text` with `replacement`.
    ///
    /// - Parameters:
    ///   - text: The text to find; not empty.
    ///   - replacement: What replaces it; may be empty.
    ///   - matcher: Which responses the rule applies to; `.any` by default.
    /// - Returns: The rule.
    /// - Throws: ``RewriteRuleError`` when `text` is empty.
    public static func text(
        _ text: String,
        with replacement: String,
        matching matcher: RequestMatcher = .any
    ) throws(RewriteRuleError) -> BodyReplacement {
        try BodyReplacement(.text(text, replacement: replacement), matching: matcher)
    }

    /// A rule that sets the values at a JSON path.
    ///
    /// - Parameters:
    ///   - path: The path: `$.user.name`, `$.items[0].price`, `$.items[*].price`, `$["content-type"]`.
    ///   - value: The new value.
    ///   - matcher: Which responses the rule applies to; `.any` by default.
    /// - Returns: The rule.
    /// - Throws: ``RewriteRuleError`` for a path that does not parse or a value that is not finite.
    public static func jsonValue(
        at path: String,
        to value: JSONValue,
        matching matcher: RequestMatcher = .any
    ) throws(RewriteRuleError) -> BodyReplacement {
        try BodyReplacement(.jsonValue(path: path, value: value), matching: matcher)
    }

    /// A rule that removes the values at a JSON path.
    ///
    /// - Parameters:
    ///   - path: The path, at least one step below `$`.
    ///   - matcher: Which responses the rule applies to; `.any` by default.
    /// - Returns: The rule.
    /// - Throws: ``RewriteRuleError`` for a path that does not parse, or `$`.
    public static func removingJSONValue(
        at path: String,
        matching matcher: RequestMatcher = .any
    ) throws(RewriteRuleError) -> BodyReplacement {
        try BodyReplacement(.jsonRemoval(path: path), matching: matcher)
    }

    /// The first number in `value` that JSON cannot hold (infinite or not a number), or `nil`.
    private static func nonFiniteNumber(in value: JSONValue) -> Double? {
        switch value {
        case .number(let number): number.isFinite ? nil : number
        case .array(let elements): elements.lazy.compactMap(nonFiniteNumber(in:)).first
        case .object(let members): members.values.lazy.compactMap(nonFiniteNumber(in:)).first
        default: nil
        }
    }

    /// Whether the rule needs the whole body (JSON rules); text rules work on a stream.
    var needsWholeBody: Bool {
        if case .text = prepared { return false }
        return true
    }

    /// Whether the rule never changes the body's length (a text rule whose replacement is as long as its text).
    var preservesLength: Bool {
        if case .text(let needle, let replacement) = prepared { return needle.count == replacement.count }
        return false
    }

    /// `replace "staging" with "production"`, `set $.user.name`, `remove $.ads`, and the matcher when it is not `.any`.
    var label: String {
        let action =
            switch operation {
            case .text(let text, let replacement): "replace \(Self.quoted(text)) with \(Self.quoted(replacement))"
            case .jsonValue(let path, _): "set \(path)"
            case .jsonRemoval(let path): "remove \(path)"
            }
        return action + (matcher.isAny ? "" : " if \(matcher)")
    }

    /// The label, with the value a JSON rule sets (`set $.user.name to "Test User"`), for a listing of the rules;
    /// `[redacted]` when `redactor` holds the path's last member secret.
    func listing(redactor: Redactor) -> String {
        guard case .jsonValue(let path, let value) = operation else { return label }
        let member = path.split(whereSeparator: { ".[]\"'$*".contains($0) }).last.map(String.init) ?? ""
        let shown: String
        if redactor.isSecret(member, at: .bodyField) {
            shown = Redactor.placeholder
        } else if let text = value.stringValue {
            shown = Self.quoted(text)
        } else {
            let json = value.description
            shown = json.count > 40 ? json.prefix(39) + "…" : json
        }
        return "set \(path) to \(shown)" + (matcher.isAny ? "" : " if \(matcher)")
    }

    /// Text quoted for a label, cut after 40 characters.
    private static func quoted(_ text: String) -> String {
        let shown = text.count > 40 ? text.prefix(39) + "…" : Substring(text)
        return "\"\(shown)\""
    }
}
