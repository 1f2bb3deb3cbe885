import Foundation

extension CapturedTransaction: CustomStringConvertible {
    /// One line: `GET https://api.example.com/v1/cart → 200 (mock, 12.3 ms)`; a failure shows its error, a
    /// transaction under way its state.
    public var description: String {
        var outcome: String
        switch state {
        case .failed, .cancelled:
            outcome = error.map { "\(state.rawValue): \($0)" } ?? state.rawValue
        case .pending:
            outcome = "pending"
        case .receiving, .completed:
            outcome = response.map { "\($0.statusCode)" } ?? state.rawValue
            if state == .receiving { outcome += " receiving" }
        }
        var details = [answeredBy]
        if let end = timings.end { details.append("\(end.formatted(.number.precision(.fractionLength(1)))) ms") }
        return "\(request) → \(outcome) (\(details.joined(separator: ", ")))"
    }
}

extension CapturedRequest: CustomStringConvertible {
    /// `POST https://api.example.com/v1/login` and, with a body, its size: `(44 bytes)`.
    public var description: String {
        "\(method) \(url.absoluteString)" + (body.map { " (\($0))" } ?? "")
    }
}

extension CapturedResponse: CustomStringConvertible {
    /// `200 HTTP/1.1, 3 header fields, 1,024 bytes`.
    public var description: String {
        let count = headers.count
        var text = "\(statusCode) \(httpVersion), \(count) header field\(count == 1 ? "" : "s")"
        if let body { text += ", \(body)" }
        return text
    }
}

extension CapturedBody: CustomStringConvertible {
    /// `1,024 bytes`, with `(100 kept)` when truncated.
    public var description: String {
        let total =
            "\(totalByteCount.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) bytes"
        return isTruncated ? "\(total) (\(data.count) kept)" : total
    }
}
