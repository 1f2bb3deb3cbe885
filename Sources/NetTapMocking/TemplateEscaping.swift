import Foundation

/// How inserted values are escaped, chosen by the answer's `Content-Type`.
///
/// `{{…}}` escapes, `{{{…}}}` never does. Escaping only ever applies to a body: header values and the status are
/// written as they render (header values with line breaks replaced by spaces).
enum TemplateEscaping: Sendable, Equatable {
    /// Values as they are: `text/plain` and any type not below, headers, the status.
    case none
    /// JSON (`application/json`, `…+json`): inside a JSON string, `"`, `\` and control characters are escaped
    /// (RFC 8259 §7); outside one, values go in as they are, so `{"id": {{request.path.1}}}` writes a number.
    case json
    /// HTML and XML (`text/html`, `…/xml`, `…+xml`): `&`, `<`, `>`, `"` and `'` become entities, as Handlebars does.
    case markup

    /// The escaping for a `Content-Type` field value.
    static func forContentType(_ contentType: String?) -> TemplateEscaping {
        guard let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        else { return .none }
        if type == "application/json" || type.hasSuffix("+json") || type == "text/json" { return .json }
        if type == "text/html" || type.hasSuffix("/xml") || type.hasSuffix("+xml") { return .markup }
        return .none
    }

    /// A value escaped for its place.
    func escape(_ value: String, isInJSONString: Bool) -> String {
        switch self {
        case .none: value
        case .json: isInJSONString ? Self.jsonString(value) : value
        case .markup: Self.markup(value)
        }
    }

    private static func jsonString(_ value: String) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func markup(_ value: String) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for character in value {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
