import Foundation

/// One place where a ``Redactor`` replaced a value, for review: `request header Authorization`,
/// `query token`, `json $.user.password`, `response cookie session in Set-Cookie`.
public struct RedactionLocation: Sendable, Hashable, CustomStringConvertible {
    /// What kind of value was replaced.
    public enum Kind: String, Sendable, Hashable {
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
