import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RequestMatcher {
    /// Matches the request body byte for byte; specificity 6.
    ///
    /// A request without a body has an empty body. Configuration: `{"body": "text"}` when the bytes are
    /// UTF-8, else `{"bodyBase64": "…"}` (RFC 4648 base64).
    /// - Parameter data: The exact body.
    /// - Returns: The matcher.
    /// - Complexity: O(*n*) per request in the body size.
    public static func body(_ data: Data) -> RequestMatcher {
        let text = String(data: data, encoding: .utf8)
        return RequestMatcher(
            description: "body == \(text.map(MatchReason.quoted) ?? "\(data.count) bytes")",
            specificity: 6,
            configuration: text.map { ["body": .string($0)] } ?? ["bodyBase64": .string(data.base64EncodedString())],
            evaluate: { request in
                let actual = request.httpBody ?? Data()
                if actual == data { return .matched }
                return .missed(Self.bodyDifference(actual: actual, expected: data))
            },
            distance: { request in
                let actual = request.httpBody ?? Data()
                if actual == data { return 0 }
                // Bytes that are not UTF-8 compare as replacement characters: near enough to rank.
                return MatchDistance.text(
                    String(decoding: actual, as: UTF8.self),
                    String(decoding: data, as: UTF8.self)
                )
            }
        )
    }

    /// Matches the request body as exactly this text in UTF-8; specificity 6.
    ///
    /// Configuration: `{"body": "text"}`.
    /// - Parameter string: The exact body text.
    /// - Returns: The matcher.
    /// - Complexity: O(*n*) per request in the body size.
    public static func body(_ string: String) -> RequestMatcher {
        body(Data(string.utf8))
    }

    /// A short reason naming how the bodies differ.
    private static func bodyDifference(actual: Data, expected: Data) -> String {
        if actual.isEmpty { return "request had no body, expected \(expected.count) bytes" }
        let limit = 40
        if let actualText = String(data: actual, encoding: .utf8),
            let expectedText = String(data: expected, encoding: .utf8),
            actualText.count <= limit, expectedText.count <= limit
        {
            return "body was \(MatchReason.quoted(actualText)), expected \(MatchReason.quoted(expectedText))"
        }
        let firstDifference = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        return "body was \(actual.count) bytes, expected \(expected.count) bytes, first difference at byte "
            + "\(firstDifference ?? Swift.min(actual.count, expected.count))"
    }
}
