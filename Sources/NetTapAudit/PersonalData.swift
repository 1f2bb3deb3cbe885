import Foundation

/// Recognises the personal data the `pii.email` and `pii.card` rules report.
enum PersonalData {
    /// An e-mail address (RFC 5322 §3.4.1 `addr-spec`, restricted to the characters real addresses use): up to
    /// 64 characters of local part, `@`, one to eight dot-terminated labels and a 2–24 letter top-level domain.
    ///
    /// Labels end in a dot, which their class excludes, so matching is linear.
    private static let email = try? NSRegularExpression(
        pattern:
            #"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.){1,8}([A-Za-z]{2,24})(?![A-Za-z0-9-])"#
    )

    /// Top-level domains that are really file extensions (`icon@2x.png`).
    private static let fileExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "svg", "pdf", "js", "css"]

    /// A run of 13 to 19 digits starting with 2–6, optionally grouped by single spaces or dashes.
    private static let cardCandidate = try? NSRegularExpression(
        pattern: #"(?<![0-9])[2-6](?:[ -]?[0-9]){12,18}(?![0-9])"#
    )

    /// Whether `text` holds an e-mail address.
    static func containsEmail(_ text: String) -> Bool {
        guard text.contains("@"), let email else { return false }
        let range = NSRange(text.startIndex..., in: text)
        for match in email.matches(in: text, range: range) {
            guard let tld = Range(match.range(at: 1), in: text) else { continue }
            if !fileExtensions.contains(text[tld].lowercased()) { return true }
        }
        return false
    }

    /// Whether `text` holds a payment card number.
    ///
    /// A candidate is 13 to 19 digits (ISO/IEC 7812-1) whose first digit is a major industry identifier of the
    /// card networks (2 and 5 Mastercard, 3 American Express, Diners Club and JCB, 4 Visa, 6 Discover and
    /// UnionPay), passing the Luhn check (ISO/IEC 7812-1 Annex B). Grouped numbers must use one separator kind,
    /// a first group of 4 digits and further groups of 3 to 6 (`4111 1111 1111 1111`, `3782-822463-10005`), so
    /// lists of small numbers are not taken for a card.
    static func containsCardNumber(_ text: String) -> Bool {
        guard let cardCandidate, text.contains(where: \.isNumber) else { return false }
        let range = NSRange(text.startIndex..., in: text)
        for match in cardCandidate.matches(in: text, range: range) {
            guard let found = Range(match.range, in: text) else { continue }
            if isCardNumber(text[found]) { return true }
        }
        return false
    }

    /// Whether a candidate (digits with optional separators) has a card number's grouping and passes Luhn.
    static func isCardNumber(_ candidate: Substring) -> Bool {
        let separators = Set(candidate.filter { !$0.isNumber })
        if separators.count > 1 { return false }
        if let separator = separators.first {
            let groups = candidate.split(separator: separator, omittingEmptySubsequences: false).map(\.count)
            guard groups.first == 4, groups.dropFirst().allSatisfy({ (3...6).contains($0) }) else { return false }
        }
        let digits = candidate.compactMap(\.wholeNumberValue)
        return (13...19).contains(digits.count) && passesLuhn(digits)
    }

    /// The Luhn (mod 10) check of ISO/IEC 7812-1 Annex B: doubling every second digit from the right.
    ///
    /// - Parameter digits: The digits, most significant first.
    /// - Returns: Whether the sum is a multiple of 10.
    static func passesLuhn(_ digits: [Int]) -> Bool {
        var sum = 0
        for (offset, digit) in digits.reversed().enumerated() {
            if offset % 2 == 1 {
                let doubled = digit * 2
                sum += doubled > 9 ? doubled - 9 : doubled
            } else {
                sum += digit
            }
        }
        return !digits.isEmpty && sum % 10 == 0
    }
}
