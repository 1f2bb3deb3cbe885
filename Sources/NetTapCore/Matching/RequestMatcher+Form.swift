import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RequestMatcher {
    /// Matches an `application/x-www-form-urlencoded` body holding these fields (others are allowed).
    ///
    /// The body is decoded as HTML forms encode it: `+` is a space and `%XX` is a byte, so `user=Jo+Ann`
    /// and `user=Jo%20Ann` both hold `Jo Ann`. A field that repeats matches when any of its values is
    /// equal. The `Content-Type` header is not checked. Specificity: 3 per field.
    /// Configuration: `{"form": {"user": "x"}}`.
    /// - Parameter fields: Field names and their exact decoded values.
    /// - Returns: The matcher.
    /// - Complexity: O(*n*) per request in the body size.
    public static func formFields(_ fields: [String: String]) -> RequestMatcher {
        let expected = fields.sorted { $0.key < $1.key }
        let listed = expected.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        return RequestMatcher(
            description: "form has \(listed)",
            specificity: 3 * fields.count,
            configuration: ["form": .object(fields.mapValues(JSONValue.string))],
            evaluate: { Self.compareForm(of: $0, with: expected) },
            distance: { request in
                let text = request.httpBody.map { String(decoding: $0, as: UTF8.self) } ?? ""
                let actual = FormURLEncoding.fields(of: text)
                return expected.reduce(0.0) { total, field in
                    let values = actual.filter { $0.name == field.key }.map(\.value)
                    return total
                        + (values.map { MatchDistance.text($0, field.value) }.min() ?? MatchDistance.missing)
                }
            }
        )
    }

    /// Tests a form body's fields and names the first that is missing or different.
    private static func compareForm(
        of request: URLRequest,
        with expected: [(key: String, value: String)]
    ) -> MatchResult {
        guard let data = request.httpBody, !data.isEmpty else {
            return .missed("request had no body, expected form fields")
        }
        guard let text = String(data: data, encoding: .utf8) else { return .missed("body is not UTF-8 form data") }
        let actual = FormURLEncoding.fields(of: text)
        for (name, value) in expected {
            let values = actual.filter { $0.name == name }.map(\.value)
            guard !values.isEmpty else {
                let names = actual.map(\.name).joined(separator: ", ")
                let had = names.isEmpty ? "the body had no fields" : "fields were \(MatchReason.shortened(names))"
                return .missed("form had no field \(MatchReason.quoted(name)), \(had)")
            }
            if !values.contains(value) {
                let had = values.map(MatchReason.quoted).joined(separator: ", ")
                return .missed(
                    "form field \(MatchReason.quoted(name)) was \(had), expected \(MatchReason.quoted(value))"
                )
            }
        }
        return .matched
    }
}
