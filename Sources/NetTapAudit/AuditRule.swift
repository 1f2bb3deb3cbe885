import Foundation
import NetTapCore

/// One check of the ``AuditHandler``, with the stable identifier its findings carry in `Finding.rule`.
///
/// | rule | severity | fires on |
/// | --- | --- | --- |
/// | `plaintext.credentials` | high (low to a loopback host) | a credential sent or set over `http` |
/// | `plaintext.basic-auth` | high (low to a loopback host) | `Authorization: Basic` over `http` |
/// | `query.password` | medium | a password-like item in a URL query |
/// | `token.pattern` | high in a query, medium in a request body | a JWT, AWS, Google or Slack key, a private key |
/// | `cookie.insecure` | medium | a credential cookie set without `Secure` (over `https`) or without `HttpOnly` |
/// | `pii.email`, `pii.card` | medium (info without a first-party list) | an e-mail address or card number sent to a third party |
/// | `image.oversized` | medium | an `image/*` response body larger than the limit |
/// | `tls.version` | high | an HTTPS exchange negotiated below TLS 1.2 |
/// | `tls.certificate-expiry` | medium (high once expired) | a server certificate that expires within 14 days |
///
/// Identifiers never change between releases, so reports and `disabledRules` lists stay valid.
public enum AuditRule: String, Sendable, Hashable, CaseIterable, Codable {
    /// `plaintext.credentials`: a credential or token travels over plaintext `http`.
    ///
    /// Fires on `Authorization` (other than Basic) and `Proxy-Authorization`, `Cookie`, any header the
    /// handler's redactor treats as secret (API key and token headers), user info in the URL, query items and
    /// body fields with secret names (the redactor's names and the password-like names), and every cookie a
    /// response sets over `http` (a cookie value is a credential as often as not, as the `Redactor` assumes).
    case plaintextCredentials = "plaintext.credentials"
    /// `plaintext.basic-auth`: `Authorization` or `Proxy-Authorization` with the Basic scheme over `http`.
    ///
    /// Basic credentials are the user name and password in base64 (RFC 7617), so anyone on the path reads them.
    case plaintextBasicAuth = "plaintext.basic-auth"
    /// `query.password`: a password-like item (``AuditHandler/passwordLikeNames``) in a URL query, over any
    /// scheme: URLs end up in server logs, proxies, browser history and `Referer` headers.
    case queryPassword = "query.password"
    /// `token.pattern`: a bearer token or key recognised by its shape in a query, a request body or a text
    /// response body.
    case tokenPattern = "token.pattern"
    /// `cookie.insecure`: a credential cookie set without `Secure` over `https`, or without `HttpOnly` over any scheme
    /// (RFC 6265 §4.1.2.5 and §4.1.2.6).
    case cookieInsecure = "cookie.insecure"
    /// `pii.email`: an e-mail address in a query or a request body to a third-party host.
    case piiEmail = "pii.email"
    /// `pii.card`: a payment card number (13 to 19 digits passing the Luhn check) in a query or a request body
    /// to a third-party host.
    case piiCard = "pii.card"
    /// `image.oversized`: an `image/*` response whose streamed body is larger than the image size limit.
    case imageOversized = "image.oversized"
    /// `tls.version`: an HTTPS exchange negotiated SSL 3, TLS 1.0 or TLS 1.1 (deprecated by RFC 8996).
    ///
    /// Seen where the transport reports the TLS session (the libcurl transport on Linux).
    case tlsVersion = "tls.version"
    /// `tls.certificate-expiry`: the server certificate expires within ``AuditHandler/certificateExpiryWarning``
    /// (14 days), or has expired.
    case tlsCertificateExpiry = "tls.certificate-expiry"

    /// The identifier written to `Finding.rule`, such as `plaintext.credentials`.
    public var id: String { rawValue }
}
