import Foundation

extension Redactor {
    /// The values shaped like known tokens and keys (``TokenPattern``) in a URL, header values and a body,
    /// whole, as ``redactsTokens`` replaces them.
    ///
    /// The URL is searched as written and percent-decoded; a JSON body (one that parses) in its string values,
    /// any other UTF-8 body as text; binary bodies are skipped. A body holding no token marker (`eyJ`, `AKIA`,
    /// `ASIA`, `AIza`, `xox`, `-----BEGIN`) and no `\u` escape is not parsed: the usual body costs one pass.
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - headers: The header fields.
    ///   - body: The body bytes, if any.
    /// - Returns: The tokens found; empty when none.
    static func tokenValues(url: URL, headers: HeaderFields, body: Data?) -> Set<String> {
        tokenValues(url: url, headers: headers).union(tokenValues(inBody: body))
    }

    /// The tokens of ``tokenValues(url:headers:body:)`` in a URL and header values only.
    static func tokenValues(url: URL, headers: HeaderFields) -> Set<String> {
        var found: Set<String> = []
        let text = url.absoluteString
        found.formUnion(TokenPattern.allTokens(in: text))
        if text.utf8.contains(UInt8(ascii: "%")), let decoded = text.removingPercentEncoding, decoded != text {
            found.formUnion(TokenPattern.allTokens(in: decoded))
        }
        for field in headers { found.formUnion(TokenPattern.allTokens(in: field.value)) }
        return found
    }

    /// The tokens of ``tokenValues(url:headers:body:)`` in a body only.
    static func tokenValues(inBody body: Data?) -> Set<String> {
        guard let body, !body.isEmpty, TokenPattern.mayHoldToken(body) else { return [] }
        if let value = try? JSONValue(data: body) {
            return stringLeaves(of: value).reduce(into: Set<String>()) { $0.formUnion(TokenPattern.allTokens(in: $1)) }
        }
        guard let text = String(data: body, encoding: .utf8) else { return [] }
        return TokenPattern.allTokens(in: text)
    }

    /// Every string in a JSON value, object member names aside.
    private static func stringLeaves(of value: JSONValue) -> [String] {
        switch value {
        case .string(let text): [text]
        case .array(let elements): elements.flatMap(stringLeaves(of:))
        case .object(let members): members.values.flatMap(stringLeaves(of:))
        default: []
        }
    }
}
