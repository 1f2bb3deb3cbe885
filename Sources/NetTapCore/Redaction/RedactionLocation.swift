import Foundation

/// One place where a ``Redactor`` replaced a value, for review: `request header Authorization`,
/// `query token`, `json $.user.password`, `response cookie session in Set-Cookie`.
///
/// Encoded (in a ``CapturedTransaction``'s ``CapturedTransaction/redactions`` and HAR exports) as an object with `kind`,
/// `name` and, when known, `part` (`request`, `response`, `redirect 1`) and `header`:
/// `{"part": "request", "kind": "json", "name": "$.user.password"}`.
public struct RedactionLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What kind of value was replaced.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A whole header field value (for `Authorization`, the credentials after the scheme).
        case header
        /// A cookie's value in a `Cookie` or `Set-Cookie` header.
        case cookie
        /// A URL query item's value.
        case query
        /// A JSON member's value.
        case json
        /// An `application/x-www-form-urlencoded` field's value.
        case form
        /// The password of a URL's user information (`https://user:password@host`).
        case userinfo
        /// A copy of a secret found elsewhere: a value already redacted by name (a token, a cookie value, a
        /// password) that appears again in a body or another header, for example echoed back by the server.
        /// The name says where: `body`, or the header field's name.
        case echo
        /// A value shaped like a known token or key (a JSON Web Token, an AWS access key ID, a Google API key, a
        /// Slack token, a private key block), whatever its name (``Redactor/redactsTokens``). The name says
        /// where: `url`, `body`, or the header field's name.
        case token
    }

    /// Which part of a transaction held the value.
    public enum Part: Sendable, Hashable, CustomStringConvertible {
        /// The request.
        case request
        /// The final response.
        case response
        /// A redirect hop, numbered from 1 in the order followed.
        case redirect(Int)

        /// `request`, `response` or `redirect 1`.
        public var description: String {
            switch self {
            case .request: "request"
            case .response: "response"
            case .redirect(let number): "redirect \(number)"
            }
        }

        /// Reads a ``description``: `request`, `response` or `redirect N` (N ≥ 1).
        ///
        /// - Parameter description: The text.
        public init?(description: String) {
            switch description {
            case "request": self = .request
            case "response": self = .response
            default:
                guard description.hasPrefix("redirect "), let number = Int(description.dropFirst("redirect ".count)),
                    number >= 1
                else { return nil }
                self = .redirect(number)
            }
        }
    }

    /// The part of a transaction, when the value came from one (``Redactor/redact(transaction:)``).
    public var part: Part?
    /// What kind of value was replaced.
    public var kind: Kind
    /// The header, cookie, query item or form field name, or the JSON path (`$.user.password`,
    /// `$.items[0].token`).
    public var name: String
    /// The header field whose value held it, for cookies and for query items of URL-valued headers.
    public var header: String?

    /// Creates a location.
    ///
    /// - Parameters:
    ///   - part: The transaction part, if any.
    ///   - kind: The kind of value.
    ///   - name: The name or JSON path.
    ///   - header: The containing header field, if any.
    public init(part: Part? = nil, kind: Kind, name: String, header: String? = nil) {
        self.part = part
        self.kind = kind
        self.name = name
        self.header = header
    }

    /// `[part ]kind name[ in header]`, for example `response cookie session in Set-Cookie`.
    public var description: String {
        var text = "\(kind.rawValue) \(name)"
        if let header { text += " in \(header)" }
        if let part { text = "\(part) " + text }
        return text
    }
}

extension RedactionLocation {
    private enum CodingKeys: String, CodingKey {
        case part, kind, name, header
    }

    /// Decodes `{"part", "kind", "name", "header"}`; `part` and `header` may be missing.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.dataCorrupted` for an unknown `kind` or `part`; `keyNotFound` without `kind` or
    ///   `name`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(Kind.self, forKey: .kind)
        name = try container.decode(String.self, forKey: .name)
        header = try container.decodeIfPresent(String.self, forKey: .header)
        if let text = try container.decodeIfPresent(String.self, forKey: .part) {
            guard let part = Part(description: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .part,
                    in: container,
                    debugDescription: "unknown part \"\(text)\"; expected request, response or redirect N"
                )
            }
            self.part = part
        } else {
            part = nil
        }
    }

    /// Encodes `{"part", "kind", "name", "header"}`, leaving out a missing part or header.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(part?.description, forKey: .part)
        try container.encode(kind, forKey: .kind)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(header, forKey: .header)
    }
}
