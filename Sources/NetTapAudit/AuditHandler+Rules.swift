import Foundation
import NetTapCore

extension AuditHandler {
    /// Audits a captured transaction after the fact: its request, the `Set-Cookie` fields of its redirect hops
    /// and response, and its captured response body.
    ///
    /// The same rules as ``handle(_:context:next:)`` apply to what the capture kept: a captured body cut short
    /// is scanned as far as it goes, while `image.oversized` uses the body's full byte count. A capture that a
    /// `Redactor` already cleaned still shows which credentials travelled in clear, but the pattern and personal
    /// data rules find nothing in `[redacted]`.
    ///
    /// - Parameter transaction: A transaction, for example from `CaptureLog.transactions` or a HAR import.
    /// - Returns: The findings, in the order the live handler would add them.
    /// - Complexity: O(scanned body bytes).
    public func findings(for transaction: CapturedTransaction) -> [Finding] {
        let request = transaction.request
        var findings = requestFindings(url: request.url, headers: request.headers, body: request.body?.data)
        for hop in transaction.redirects {
            findings += cookieFindings(url: hop.url, headers: hop.headers)
        }
        guard let response = transaction.response else { return findings }
        findings += cookieFindings(url: response.url, headers: response.headers)
        if let body = response.body, !body.data.isEmpty || body.totalByteCount > 0,
            request.method.uppercased() != "HEAD"
        {
            findings += responseBodyFindings(
                url: response.url,
                mimeType: ScannedValue.mimeType(response.headers["Content-Type"]),
                kept: body.data,
                totalBytes: Int(clamping: body.totalByteCount),
                isComplete: !body.isTruncated
            )
        }
        return findings
    }

    /// Whether a query item or body field name is password-like (see ``passwordLikeNames``).
    ///
    /// - Parameter name: The name as sent.
    /// - Returns: `true` for `password`, `user_password`, `client-secret`, `PWD`; `false` for `passenger`.
    public static func isPasswordLike(_ name: String) -> Bool {
        let folded = name.lowercased().filter { $0 != "_" && $0 != "-" }
        return passwordLikeNames.contains(folded) || folded.contains("password") || folded.contains("passwd")
            || folded.contains("passphrase") || folded.hasSuffix("secret")
    }

    /// Whether a cookie is a credential for the cookie rules: one the redactor does not except, and either named
    /// like a session or login cookie (`PHPSESSID`, `connect.sid`, `auth_token`, `remember_me`, `csrftoken`) or
    /// marked `HttpOnly` with a value shaped like a random token (16 characters or more, letters and digits mixed),
    /// as servers set session cookies under names of their own; a preference such as `theme=dark` or `lang=en` is
    /// not, `HttpOnly` or not.
    ///
    /// - Parameters:
    ///   - name: The cookie's name.
    ///   - isTokenShaped: Whether its value looks like a random token (``isTokenShaped(_:)``).
    ///   - isHTTPOnly: Whether its `Set-Cookie` has `HttpOnly` (`false` for a sent `Cookie`).
    ///   - header: `Cookie` or `Set-Cookie`.
    /// - Returns: `true` when the cookie carries a credential by these signs.
    func isCredentialCookie(_ name: String, isTokenShaped: Bool = false, isHTTPOnly: Bool, in header: String) -> Bool {
        guard secrets.isSecretCookie(name, in: header) else { return false }
        let folded = name.lowercased().filter { $0.isLetter }
        if Self.credentialCookieWords.contains(where: { folded.contains($0) }) { return true }
        return isHTTPOnly && isTokenShaped
    }

    /// Whether a cookie value looks like a random token: 16 characters or more with both letters and digits.
    static func isTokenShaped(_ value: Substring) -> Bool {
        let trimmed = value.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        return trimmed.count >= 16 && trimmed.contains(where: \.isLetter) && trimmed.contains(where: \.isNumber)
    }

    /// Parts of cookie names that mark a session, login or anti-forgery cookie (compared without case, digits or
    /// punctuation).
    static let credentialCookieWords = [
        "sess", "sid", "auth", "token", "jwt", "login", "logged", "remember", "csrf", "xsrf", "secret", "key", "pass",
        "credential", "identity", "saml", "oidc", "sso", "bearer",
    ]

    /// Whether personal data rules treat `host` as the app's own (see ``firstPartyHosts``).
    ///
    /// - Parameter host: A host name.
    /// - Returns: `true` when an entry matches it.
    /// - Complexity: O(number of first-party entries).
    public func isFirstParty(_ host: String) -> Bool {
        firstPartyPatterns.contains { $0.matches(host: host) }
    }

    // MARK: - Request

    func requestFindings(url: URL, headers: HeaderFields, body: Data?) -> [Finding] {
        var list = FindingList(disabled: disabledRules, url: url)
        let isPlaintext = url.scheme?.lowercased() == "http"
        if isPlaintext {
            plaintextHeaders(headers, url: url, into: &list)
        }
        for item in ScannedValue.queryItems(of: url) {
            if let name = item.name, Self.isPasswordLike(name) {
                list.add(
                    .queryPassword,
                    .medium,
                    at: item.location,
                    "the password-like query item \(name) puts a secret in the URL, which servers, proxies, "
                        + "browser history and Referer headers keep"
                )
            }
            scan(item, isQuery: true, isPlaintext: isPlaintext, into: &list)
        }
        if let body, !body.isEmpty, bodyScanLimit > 0 {
            let sample = body.prefix(bodyScanLimit)
            let mimeType = ScannedValue.mimeType(headers["Content-Type"])
            if ScannedValue.isTextLike(mimeType: mimeType, sample: sample) {
                for value in ScannedValue.bodyValues(sample, mimeType: mimeType, place: "body") {
                    scan(value, isQuery: false, isPlaintext: isPlaintext, into: &list)
                }
            }
        }
        return list.findings
    }

    private func plaintextHeaders(_ headers: HeaderFields, url: URL, into list: inout FindingList) {
        let severity = list.plaintextSeverity
        for field in headers where !field.value.isEmpty {
            let lowered = field.name.lowercased()
            let location = "header \(field.name)"
            if lowered == "authorization" || lowered == "proxy-authorization" {
                let scheme = String(field.value.split(separator: " ", maxSplits: 1).first ?? "")
                if scheme.lowercased() == "basic" {
                    list.add(
                        .plaintextBasicAuth,
                        severity,
                        at: location,
                        "Basic credentials (a user name and password, only base64-encoded) are sent over plaintext "
                            + "http to \(list.host); \(list.exposure("them"))",
                        ["kind": "basic"]
                    )
                } else {
                    list.add(
                        .plaintextCredentials,
                        severity,
                        at: location,
                        "the \(field.name) header (\(scheme) credentials) is sent over plaintext http to "
                            + "\(list.host); \(list.exposure("it"))",
                        ["kind": scheme.lowercased()]
                    )
                }
            } else if lowered == "cookie" {
                plaintextCookies(field, into: &list)
            } else if secrets.isSecret(field.name, at: .header) {
                list.add(
                    .plaintextCredentials,
                    severity,
                    at: location,
                    "the \(field.name) header, a credential by its name, is sent over plaintext http to \(list.host); "
                        + list.exposure("it"),
                    ["kind": "header"]
                )
            }
        }
        if url.user != nil || url.password != nil {
            list.add(
                .plaintextCredentials,
                severity,
                at: "url userinfo",
                "the URL carries user credentials over plaintext http to \(list.host)",
                ["kind": "userinfo"]
            )
        }
    }

    /// The credential cookies of a `Cookie` field sent over plaintext http, as one finding naming them.
    private func plaintextCookies(_ field: HeaderFields.Field, into list: inout FindingList) {
        let names = field.value.split(separator: ";").compactMap { pair -> String? in
            let name = pair.split(separator: "=", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces)
            return name?.isEmpty == false ? name : nil
        }
        .filter { isCredentialCookie($0, isHTTPOnly: false, in: "Cookie") }
        guard !names.isEmpty else { return }
        list.add(
            .plaintextCredentials,
            list.plaintextSeverity,
            at: "header \(field.name)",
            "cookies are sent over plaintext http to \(list.host); \(list.exposure("them"))",
            ["kind": "cookie", "cookies": names.joined(separator: ", ")]
        )
    }

    /// Applies the value rules to one query item or body value.
    private func scan(_ value: ScannedValue, isQuery: Bool, isPlaintext: Bool, into list: inout FindingList) {
        let place = isQuery ? "query item" : "body field"
        if isPlaintext, let name = value.name,
            Self.isPasswordLike(name) || secrets.isSecret(name, at: isQuery ? .queryItem : .bodyField)
        {
            list.add(
                .plaintextCredentials,
                list.plaintextSeverity,
                at: value.location,
                "the \(place) \(name), a credential by its name, is sent over plaintext http to \(list.host); "
                    + list.exposure("it"),
                ["kind": isQuery ? "query" : "body"]
            )
        }
        guard !value.isContainer else { return }
        if !value.isNumber {
            for pattern in TokenPattern.kinds(in: value.text) {
                let whereText = isQuery ? "in the query item \(value.name ?? "")" : "in the request body"
                list.add(
                    .tokenPattern,
                    isQuery ? .high : .medium,
                    at: value.location,
                    "\(pattern.titleWithArticle) is sent \(whereText) to \(list.host)",
                    ["kind": pattern.kind]
                )
            }
        }
        guard !disabledRules.isSuperset(of: [.piiEmail, .piiCard]) else { return }
        let thirdParty = personalDataSeverity(host: list.host)
        guard let severity = thirdParty.severity else { return }
        if !value.isNumber, PersonalData.containsEmail(value.text) {
            list.add(
                .piiEmail,
                severity,
                at: value.location,
                "an e-mail address is sent to \(thirdParty.description)",
                ["kind": "email"]
            )
        }
        if PersonalData.containsCardNumber(value.text) {
            list.add(
                .piiCard,
                severity,
                at: value.location,
                "a payment card number (passing the Luhn check) is sent to \(thirdParty.description)",
                ["kind": "card"]
            )
        }
    }

    /// The severity of personal data sent to `host` (`nil`: first party, not reported) and how to name the host.
    private func personalDataSeverity(host: String) -> (severity: Finding.Severity?, description: String) {
        if firstPartyHosts.isEmpty {
            return (.info, "\(host), which may be a third party (no first-party hosts are configured)")
        }
        if isFirstParty(host) { return (nil, host) }
        return (.medium, "the third-party host \(host)")
    }

    // MARK: - Response

    func cookieFindings(url: URL, headers: HeaderFields) -> [Finding] {
        var list = FindingList(disabled: disabledRules, url: url)
        let isPlaintext = url.scheme?.lowercased() == "http"
        for cookie in SetCookie.parse(headers.values(for: "Set-Cookie")) where !cookie.isDeletion {
            let location = "cookie \(cookie.name)"
            let isCredential = isCredentialCookie(
                cookie.name,
                isTokenShaped: cookie.hasTokenShapedValue,
                isHTTPOnly: cookie.isHTTPOnly,
                in: "Set-Cookie"
            )
            // A preference cookie (`theme=dark`) is neither a credential over http nor worth an attribute finding.
            guard isCredential else { continue }
            if isPlaintext {
                list.add(
                    .plaintextCredentials,
                    list.plaintextSeverity,
                    at: location,
                    "cookie \(cookie.name) is set over plaintext http by \(list.host); its value travels in clear "
                        + "with every request" + (list.isLoopback ? "; " + list.exposure("it") : ""),
                    ["kind": "set-cookie"]
                )
            }
            var missing: [String] = []
            if !isPlaintext && !cookie.isSecure { missing.append("Secure") }
            if !cookie.isHTTPOnly { missing.append("HttpOnly") }
            guard !missing.isEmpty else { continue }
            let reasons = missing.map { $0 == "Secure" ? "may be sent over plaintext http" : "scripts can read it" }
            list.add(
                .cookieInsecure,
                .medium,
                at: location,
                "cookie \(cookie.name) is set without \(missing.joined(separator: " and ")): "
                    + reasons.joined(separator: ", and "),
                ["missing": missing.joined(separator: ", ")]
            )
        }
        return list.findings
    }

    func responseBodyFindings(url: URL, mimeType: String, kept: Data, totalBytes: Int, isComplete: Bool) -> [Finding] {
        var list = FindingList(disabled: disabledRules, url: url)
        if mimeType.hasPrefix("image/"), totalBytes > imageSizeLimit {
            var details = ["bytes": "\(totalBytes)", "limit": "\(imageSizeLimit)", "mimeType": mimeType]
            var size = ""
            if let dimensions = ImageDimensions(reading: kept) {
                details["format"] = dimensions.format.rawValue
                details["width"] = "\(dimensions.width)"
                details["height"] = "\(dimensions.height)"
                size = " (\(dimensions.width)×\(dimensions.height) px)"
            }
            if !isComplete { details["complete"] = "false" }
            list.add(
                .imageOversized,
                .medium,
                at: "response body",
                "the \(mimeType) image from \(list.shownURL) is \(isComplete ? "" : "at least ")\(totalBytes) bytes"
                    + "\(size), more than the \(imageSizeLimit)-byte limit",
                details
            )
        }
        let sample = kept.prefix(bodyScanLimit)
        guard bodyScanLimit > 0, !sample.isEmpty, !mimeType.hasPrefix("image/"),
            ScannedValue.isTextLike(mimeType: mimeType, sample: sample)
        else { return list.findings }
        let isPlaintext = url.scheme?.lowercased() == "http"
        for value in ScannedValue.bodyValues(sample, mimeType: mimeType, place: "response body")
        where !value.isNumber && !value.isContainer {
            for pattern in TokenPattern.kinds(in: value.text) {
                let severity: Finding.Severity =
                    pattern.kind == TokenPattern.privateKey.kind ? .high : isPlaintext ? .medium : .info
                list.add(
                    .tokenPattern,
                    severity,
                    at: value.location,
                    "the response from \(list.host) contains \(pattern.titleWithArticle)"
                        + (isPlaintext ? ", sent over plaintext http" : ""),
                    ["kind": pattern.kind]
                )
            }
        }
        return list.findings
    }
}

/// The findings of one scan, at most one per rule, location and kind.
struct FindingList {
    let disabled: Set<AuditRule>
    let host: String
    /// The URL without query, user info and fragment: safe to show.
    let shownURL: String
    /// `low` for a loopback host, `high` otherwise.
    let plaintextSeverity: Finding.Severity
    /// Whether the request goes to this machine (`localhost`, `127.0.0.0/8`, `::1`).
    let isLoopback: Bool
    private(set) var findings: [Finding] = []
    private var seen: Set<String> = []

    init(disabled: Set<AuditRule>, url: URL) {
        self.disabled = disabled
        host = url.host ?? ""
        shownURL = Self.shown(url)
        isLoopback = LoopbackHost.contains(host)
        plaintextSeverity = isLoopback ? .low : .high
    }

    /// Who can read a secret sent in plaintext, for the finding's text: why a loopback host's finding is `low`.
    ///
    /// - Parameter pronoun: `it` or `them`, for the secret.
    /// - Returns: The clause that ends the finding's message.
    func exposure(_ pronoun: String) -> String {
        guard isLoopback else { return "anyone on the network path can read and replay \(pronoun)" }
        return "\(host) is this machine (loopback), so this is low: nobody else sees \(pronoun) here, but sent to any "
            + "other host, anyone on the network path could read and replay \(pronoun)"
    }

    mutating func add(
        _ rule: AuditRule,
        _ severity: Finding.Severity,
        at location: String,
        _ message: String,
        _ details: [String: String] = [:]
    ) {
        guard !disabled.contains(rule) else { return }
        let key = "\(rule.id)\u{0}\(location)\u{0}\(details["kind"] ?? "")"
        guard seen.insert(key).inserted else { return }
        var details = details
        details["url"] = shownURL
        findings.append(
            Finding(rule: rule.id, severity: severity, location: location, message: message, details: details)
        )
    }

    /// The URL as findings show it: without query, fragment and user info, which may hold the secrets found.
    static func shown(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.host ?? ""
        }
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        return components.string ?? (url.host ?? "")
    }
}
