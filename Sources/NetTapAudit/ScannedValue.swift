import Foundation
import NetTapCore

/// One value the audit looks at, with where it was found.
struct ScannedValue: Sendable, Hashable {
    /// The finding location: `query password`, `body $.user.token`, `body password` (a form field), `body`
    /// (text that is neither JSON nor a form), with `response ` in front for a response body.
    var location: String
    /// The query item, form field or JSON member name; `nil` for array elements and plain text.
    var name: String?
    /// The value as text (a JSON number in its decimal form).
    var text: String
    /// Whether the value is a JSON number.
    var isNumber = false
    /// Whether this stands for a named JSON object or array (`"secret": {…}`): only rules by name apply to it;
    /// its leaves are scanned on their own.
    var isContainer = false

    /// The items of a URL's query (`+` read as a space, percent-decoded); items without a value are skipped.
    static func queryItems(of url: URL) -> [ScannedValue] {
        guard let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery else {
            return []
        }
        return formFields(query).compactMap { name, value in
            value.isEmpty ? nil : ScannedValue(location: "query \(name)", name: name, text: value)
        }
    }

    /// The values of a text body: JSON leaves by JSON path, form fields by name, or the whole text.
    ///
    /// - Parameters:
    ///   - data: The body bytes already cut to the scan limit.
    ///   - mimeType: The lower-cased media type without parameters; empty when unknown.
    ///   - place: `body` for a request, `response body` for a response.
    /// - Returns: The values, each with its location.
    static func bodyValues(_ data: Data, mimeType: String, place: String) -> [ScannedValue] {
        let text = String(decoding: data, as: UTF8.self)
        let looksLikeJSON = text.first { !$0.isWhitespace }.map { $0 == "{" || $0 == "[" } ?? false
        if mimeType.contains("json") || (mimeType.isEmpty && looksLikeJSON), let json = try? JSONValue(data: data) {
            var values: [ScannedValue] = []
            collect(json, path: JSONPath.root, name: nil, place: place, into: &values)
            return values
        }
        if mimeType == "application/x-www-form-urlencoded" {
            return formFields(text).compactMap { name, value in
                value.isEmpty ? nil : ScannedValue(location: "\(place) \(name)", name: name, text: value)
            }
        }
        return text.isEmpty ? [] : [ScannedValue(location: place, name: nil, text: text)]
    }

    private static func collect(
        _ value: JSONValue,
        path: String,
        name: String?,
        place: String,
        into values: inout [ScannedValue]
    ) {
        switch value {
        case .string(let text) where !text.isEmpty:
            values.append(ScannedValue(location: "\(place) \(path)", name: name, text: text))
        case .integer(let number):
            values.append(ScannedValue(location: "\(place) \(path)", name: name, text: "\(number)", isNumber: true))
        case .number(let number):
            values.append(ScannedValue(location: "\(place) \(path)", name: name, text: "\(number)", isNumber: true))
        case .array(let elements):
            if let name, !elements.isEmpty {
                values.append(ScannedValue(location: "\(place) \(path)", name: name, text: "", isContainer: true))
            }
            for (index, element) in elements.enumerated() {
                collect(element, path: JSONPath.appending(index, to: path), name: nil, place: place, into: &values)
            }
        case .object(let members):
            if let name, !members.isEmpty {
                values.append(ScannedValue(location: "\(place) \(path)", name: name, text: "", isContainer: true))
            }
            for key in members.keys.sorted() {
                guard let member = members[key] else { continue }
                collect(member, path: JSONPath.appending(key, to: path), name: key, place: place, into: &values)
            }
        default:
            break
        }
    }

    /// `application/x-www-form-urlencoded` fields (WHATWG URL standard): `&`-separated, `+` a space, percent
    /// sequences decoded (a malformed one is kept as written).
    static func formFields(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&").map { part in
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decoded(pieces[0]), pieces.count > 1 ? decoded(pieces[1]) : "")
        }
    }

    private static func decoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// The lower-cased media type of a `Content-Type` value without parameters (`application/json`); empty for
    /// `nil`.
    static func mimeType(_ contentType: String?) -> String {
        guard let contentType else { return "" }
        let type = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Whether a body of this media type is text the pattern rules read: `text/*`, JSON, XML, JavaScript,
    /// forms, GraphQL and multipart forms; without a media type, bytes without a NUL byte.
    static func isTextLike(mimeType: String, sample: Data) -> Bool {
        if mimeType.isEmpty { return !sample.contains(0) }
        if mimeType.hasPrefix("text/") || mimeType.hasSuffix("+json") || mimeType.hasSuffix("+xml") { return true }
        return [
            "application/json", "application/xml", "application/javascript", "application/ecmascript",
            "application/x-javascript", "application/x-www-form-urlencoded", "application/graphql",
            "application/x-ndjson", "application/jsonl", "multipart/form-data",
        ]
        .contains(mimeType)
    }
}
