import Foundation

extension Redactor {
    /// Replaces secret fields in a JSON (RFC 8259) or `application/x-www-form-urlencoded` body.
    ///
    /// JSON: every object member whose name is secret, at any depth and inside arrays, gets the string
    /// placeholder instead of its value (`null` stays `null`); the result is printed again with sorted keys
    /// (only when something was replaced). Form: secret fields get `%5Bredacted%5D`, the rest keeps its
    /// spelling. A body is JSON when `contentType` is `application/json`, `text/json` or `…+json`, or when
    /// there is no content type and the bytes parse as a JSON object or array; it is a form when `contentType`
    /// says so, or when there is none and the bytes are only what a form encoder writes (`a=1&b=two`). Other bodies, and JSON that does
    /// not parse (a truncated capture), are returned unchanged. So is, without being parsed, a body in which no
    /// body field rule's name text appears (ignoring ASCII case; a `\u` escape in JSON or a `%` in a form is
    /// parsed anyway, as it could spell a name differently): the usual response costs one pass over its bytes.
    ///
    /// - Parameters:
    ///   - body: The body bytes.
    ///   - contentType: The `Content-Type` field value, for example `application/json; charset=utf-8`.
    /// - Returns: The redacted bytes and one location per replaced value (`json $.user.password`,
    ///   `form password`).
    /// - Complexity: O(body size + fields × rules).
    public func redact(body: Data, contentType: String?) -> Redacted<Data> {
        // Trimmed without NSString (`trimmingCharacters(in:)` cost a microsecond per captured body).
        let head = (contentType ?? "").prefix { $0 != ";" }
        let start = head.firstIndex { !$0.isWhitespace } ?? head.endIndex
        let end = head.lastIndex { !$0.isWhitespace }.map(head.index(after:)) ?? start
        let mediaType = head[start..<end].lowercased()
        if mediaType == "application/x-www-form-urlencoded" || (mediaType.isEmpty && Self.looksLikeForm(body)) {
            guard mayHoldSecretField(body, prefilter: ruleIndex.formBodyPrefilter),
                let text = String(data: body, encoding: .utf8)
            else { return Redacted(value: body) }
            let redacted = redactPairs(text, kind: .form, target: .bodyField)
            return redacted.didRedact
                ? Redacted(value: Data(redacted.value.utf8), locations: redacted.locations) : Redacted(value: body)
        }
        let isJSON =
            mediaType == "application/json" || mediaType == "text/json" || mediaType.hasSuffix("+json")
            || (mediaType.isEmpty && Self.looksLikeJSONContainer(body))
        guard isJSON, mayHoldSecretField(body, prefilter: ruleIndex.jsonBodyPrefilter),
            let value = try? JSONValue(data: body)
        else { return Redacted(value: body) }
        var locations: [RedactionLocation] = []
        let redacted = redactJSON(value, path: "$", locations: &locations)
        guard !locations.isEmpty, let data = try? redacted.data() else { return Redacted(value: body) }
        return Redacted(value: data, locations: locations)
    }

    private func redactJSON(_ value: JSONValue, path: String, locations: inout [RedactionLocation]) -> JSONValue {
        switch value {
        case .object(let members):
            var result: [String: JSONValue] = [:]
            for key in members.keys.sorted() {
                guard let member = members[key] else { continue }
                let memberPath = path + Self.pathComponent(key)
                if isSecret(key, at: .bodyField) {
                    if member != .null && member != .string(Self.placeholder) {
                        locations.append(RedactionLocation(kind: .json, name: memberPath))
                        result[key] = .string(Self.placeholder)
                    } else {
                        result[key] = member
                    }
                } else {
                    result[key] = redactJSON(member, path: memberPath, locations: &locations)
                }
            }
            return .object(result)
        case .array(let elements):
            return .array(
                elements.enumerated().map { redactJSON($1, path: path + "[\($0)]", locations: &locations) }
            )
        default:
            return value
        }
    }

    /// `.name` for identifier-like keys, else `["key"]`.
    private static func pathComponent(_ key: String) -> String {
        let isIdentifier =
            !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !(key.first?.isNumber ?? true)
        if isIdentifier { return "." + key }
        let escaped = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "[\"\(escaped)\"]"
    }

    /// Whether a body may hold a field a body field rule covers: it contains, ignoring ASCII case, the fixed
    /// text of some rule (``RedactionPattern/requiredText``), or an escape (`\u` in JSON, `%` in a form) that
    /// could spell a name differently (the body kind's `prefilter`), or a rule has no fixed text (no prefilter).
    ///
    /// Lets the common body without any secret-looking name skip parsing.
    ///
    /// - Complexity: O(body size), one pass.
    private func mayHoldSecretField(_ body: Data, prefilter: NeedleSet?) -> Bool {
        guard ruleIndex.hasBodyFieldRules else { return false }
        guard let prefilter else { return true }
        return body.withUnsafeBytes { prefilter.occurs(in: $0.bindMemory(to: UInt8.self)) }
    }

    /// Whether a body without a content type reads as `application/x-www-form-urlencoded`.
    ///
    /// Only the bytes a form encoder writes (letters, digits, `-._~*%+=&`) and at least one `name=value` pair
    /// count. A HAR entry whose
    /// `postData.mimeType` says "form" but whose headers carry no `Content-Type` is redacted as a form this way.
    static func looksLikeForm(_ body: Data) -> Bool {
        guard !body.isEmpty, body.count <= 1_048_576 else { return false }
        return body.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            return bytes.contains(UInt8(ascii: "=")) && bytes.allSatisfy { formBytes[Int($0)] }
        }
    }

    /// Whether a byte may appear in what a form encoder writes: letters, digits and `-._~*%+=&`.
    private static let formBytes: [Bool] = (0..<256).map { value in
        let byte = UInt8(value)
        return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (0x30...0x39).contains(byte)
            || Array("-._~*%+=&".utf8).contains(byte)
    }

    /// Whether the first non-blank byte opens an object or array.
    private static func looksLikeJSONContainer(_ body: Data) -> Bool {
        guard let first = body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return false }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }
}
