import Foundation
import NetTapCore

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

    /// Appends a value's UTF-8 bytes escaped for its place.
    func append(_ value: UnsafeBufferPointer<UInt8>, to output: inout [UInt8], isInJSONString: Bool) {
        switch self {
        case .none:
            output += value
        case .json where !isInJSONString:
            output += value
        case .json:
            JSONStringEscaping.append(value, to: &output)
        case .markup:
            for byte in value { Self.appendMarkup(byte, to: &output) }
        }
    }

    /// An HTML or XML entity for `&`, `<`, `>`, `"` and `'`, as Handlebars writes them.
    private static func appendMarkup(_ byte: UInt8, to output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "&"): output += Array("&amp;".utf8)
        case UInt8(ascii: "<"): output += Array("&lt;".utf8)
        case UInt8(ascii: ">"): output += Array("&gt;".utf8)
        case UInt8(ascii: "\""): output += Array("&quot;".utf8)
        case UInt8(ascii: "'"): output += Array("&#39;".utf8)
        default: output.append(byte)
        }
    }
}
