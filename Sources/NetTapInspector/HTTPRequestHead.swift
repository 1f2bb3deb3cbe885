import Foundation
import NetTapCore

/// The head of an HTTP/1.x request as the inspector server read it (RFC 9112 §3 and §5): request line and
/// header fields, in order.
package struct HTTPRequestHead: Sendable, Equatable {
    /// The method, as sent (methods are case-sensitive: `GET`).
    package var method: String
    /// The request target as sent, such as `/json/version` or `http://127.0.0.1:9229/json`.
    package var target: String
    /// The target's path, percent-encoded as sent; `/` for an absolute-form target without one.
    package var path: String
    /// The target's query, without `?`; `nil` without one.
    package var query: String?
    /// The authority of an absolute-form target (`127.0.0.1:9229`); `nil` for origin-form.
    package var targetAuthority: String?
    /// `HTTP/1.1` or `HTTP/1.0`.
    package var version: String
    /// The header fields, in order.
    package var fields: HeaderFields

    /// The authority the client addressed: an absolute-form target's, else the `Host` field (RFC 9112 §3.2.2).
    package var authority: String? { targetAuthority ?? fields["Host"] }

    /// Whether the field `name` holds `token` in its comma-separated list, ignoring case
    /// (`Connection: keep-alive, Upgrade` holds `upgrade`).
    package func field(_ name: String, containsToken token: String) -> Bool {
        fields.values(for: name).contains { value in
            value.split(separator: ",").contains {
                $0.trimmingCharacters(in: .whitespaces).caseInsensitiveCompare(token) == .orderedSame
            }
        }
    }
}
