import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sets, adds or removes one header field of a request or a response, as Charles's Rewrite tool does.
///
/// ```swift
/// let debug = try HeaderEdit.set("X-Debug", to: "1")
/// let noServer = try HeaderEdit.remove("Server", matching: .host("api.example.com"))
/// ```
///
/// Names are compared case-insensitively. Which list a rule is in (``RewriteRules/requestHeaders`` or
/// ``RewriteRules/responseHeaders``) says which side it changes.
public struct HeaderEdit: Sendable {
    /// What the rule does to the field.
    public enum Operation: Sendable, Hashable {
        /// Replaces every field of the name with one field of this value (adding it when there is none).
        case set(String)
        /// Adds a field of this value after those already there.
        case add(String)
        /// Removes every field of the name.
        case remove
    }

    /// The field name, for example `X-Debug`.
    public let name: String
    /// What the rule does.
    public let operation: Operation
    /// Which requests the rule applies to (tested on the request as the app sent it); every one by default.
    public var matcher: RequestMatcher

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - name: The field name: an HTTP token.
    ///   - operation: What to do to the field.
    ///   - matcher: Which requests the rule applies to; `.any` by default.
    /// - Throws: ``RewriteRuleError`` when the name is not a token or a value holds a line break or another
    ///   control character.
    public init(name: String, operation: Operation, matching matcher: RequestMatcher = .any) throws(RewriteRuleError) {
        guard !name.isEmpty, HTTPToken.isToken(Array(name.utf8)) else {
            throw RewriteRuleError(
                kind: .headerName,
                input: name,
                message: "a header name is a token (letters, digits and !#$%&'*+-.^_`|~)"
            )
        }
        switch operation {
        case .set(let value), .add(let value):
            if let bad = value.unicodeScalars.firstIndex(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }) {
                let offset = value.unicodeScalars.distance(from: value.unicodeScalars.startIndex, to: bad)
                throw RewriteRuleError(
                    kind: .headerValue,
                    input: value,
                    message: "a header value holds no line break or control character (at character \(offset + 1))",
                    offset: offset
                )
            }
        case .remove:
            break
        }
        self.name = name
        self.operation = operation
        self.matcher = matcher
    }

    /// A rule that replaces every field named `name` with one field of `value`.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The value.
    ///   - matcher: Which requests the rule applies to; `.any` by default.
    /// - Returns: The rule.
    /// - Throws: ``RewriteRuleError`` for a name that is not a token or a value with a control character.
    public static func set(
        _ name: String,
        to value: String,
        matching matcher: RequestMatcher = .any
    ) throws(RewriteRuleError) -> HeaderEdit {
        try HeaderEdit(name: name, operation: .set(value), matching: matcher)
    }

    /// A rule that adds a field named `name` after those already there.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The value.
    ///   - matcher: Which requests the rule applies to; `.any` by default.
    /// - Returns: The rule.
    /// - Throws: ``RewriteRuleError`` for a name that is not a token or a value with a control character.
    public static func add(
        _ name: String,
        value: String,
        matching matcher: RequestMatcher = .any
    ) throws(RewriteRuleError) -> HeaderEdit {
        try HeaderEdit(name: name, operation: .add(value), matching: matcher)
    }

    /// A rule that removes every field named `name`.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - matcher: Which requests the rule applies to; `.any` by default.
    /// - Returns: The rule.
    /// - Throws: ``RewriteRuleError`` for a name that is not a token.
    public static func remove(
        _ name: String,
        matching matcher: RequestMatcher = .any
    ) throws(RewriteRuleError)
        -> HeaderEdit
    {
        try HeaderEdit(name: name, operation: .remove, matching: matcher)
    }

    /// Applies the rule to header fields.
    ///
    /// - Parameter fields: The fields to change.
    /// - Returns: Whether anything changed.
    @discardableResult
    func apply(to fields: inout HeaderFields) -> Bool {
        let before = fields
        switch operation {
        case .set(let value): fields.set(name: name, value: value)
        case .add(let value): fields.add(name: name, value: value)
        case .remove: fields.remove(name: name)
        }
        return fields != before
    }

    /// Applies the rule to a request's header fields (an added field joins the ones there with `,`, as
    /// `URLRequest.addValue(_:forHTTPHeaderField:)` does).
    ///
    /// - Parameter request: The request to change.
    /// - Returns: Whether anything changed.
    @discardableResult
    func apply(to request: inout URLRequest) -> Bool {
        let before = request.value(forHTTPHeaderField: name)
        switch operation {
        case .set(let value): request.setValue(value, forHTTPHeaderField: name)
        case .add(let value): request.addValue(value, forHTTPHeaderField: name)
        case .remove: request.setValue(nil, forHTTPHeaderField: name)
        }
        return request.value(forHTTPHeaderField: name) != before
    }

    /// `set X-Debug: 1`, `add Via: nettap`, `remove Server`, for a listing of the rules: the value shown unless
    /// `redactor` holds the field secret (`set Authorization: [redacted]`).
    func listing(redactor: Redactor) -> String {
        let shown = { (value: String) in redactor.isSecret(name, at: .header) ? Redactor.placeholder : value }
        let text =
            switch operation {
            case .set(let value): "set \(name): \(shown(value))"
            case .add(let value): "add \(name): \(shown(value))"
            case .remove: "remove \(name)"
            }
        return text + (matcher.isAny ? "" : " if \(matcher)")
    }

    /// `set X-Debug`, `add Via`, `remove Server`: the field's name, never its value (it may be a secret).
    var label: String {
        let verb =
            switch operation {
            case .set: "set"
            case .add: "add"
            case .remove: "remove"
            }
        return "\(verb) \(name)" + (matcher.isAny ? "" : " if \(matcher)")
    }
}
