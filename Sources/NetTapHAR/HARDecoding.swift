import Foundation
import NetTapCore

/// Turns HAR bytes into a ``HARDocument`` and every failure into a ``HARError`` that names the place.
enum HARDecoding {
    static func decode(_ data: Data, source: String, warnings: inout [HARWarning]) throws(HARError) -> HARDocument {
        let json = JSONSyntaxDiagnosis.strippingByteOrderMark(data)
        let log = HARWarningLog()
        do {
            let document = try HARWarningLog.$current.withValue(log) {
                try JSONDecoder().decode(HARDocument.self, from: json)
            }
            warnings = log.warnings
            return document
        } catch let error as DecodingError {
            throw harError(for: error, data: json, source: source)
        } catch {
            throw HARError(source: source, message: "cannot decode: \(error)")
        }
    }

    private static func harError(for error: DecodingError, data: Data, source: String) -> HARError {
        switch error {
        case .keyNotFound(let key, let context):
            return HARError(
                source: source,
                path: path(context.codingPath),
                message: "missing required field \"\(key.stringValue)\""
            )
        case .valueNotFound(_, let context):
            return HARError(
                source: source,
                path: path(context.codingPath),
                message: "found null where HAR 1.2 requires a value"
            )
        case .typeMismatch(let type, let context):
            return HARError(
                source: source,
                path: path(context.codingPath),
                message: mismatch(expected: type, context: context, data: data)
            )
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return syntaxError(data: data, source: source)
        case .dataCorrupted(let context):
            return HARError(source: source, path: path(context.codingPath), message: describe(context))
        @unknown default:
            return HARError(source: source, message: "cannot decode: \(error)")
        }
    }

    /// Asks `JSONSerialization` where the syntax error is, as JSONDecoder does not say.
    private static func syntaxError(data: Data, source: String) -> HARError {
        guard let diagnosis = JSONSyntaxDiagnosis.diagnose(data) else {
            return HARError(source: source, message: "invalid JSON: the data is not UTF-8 JSON")
        }
        return HARError(
            source: source,
            message: "invalid JSON: \(diagnosis.message)",
            line: diagnosis.line,
            column: diagnosis.column
        )
    }

    /// `expected an array, found a number` in place of Foundation's `Expected to decode Array<Any> but found
    /// number instead.`, which names Swift types; the lenient decoders' own texts (`expected a number`) get
    /// what was found added.
    private static func mismatch(expected type: Any.Type, context: DecodingError.Context, data: Data) -> String {
        let found = (try? JSONValue(data: data)).flatMap { value(at: context.codingPath, in: $0) }
        let foundText = found.map { ", found \($0.kindDescription)" } ?? ""
        if context.debugDescription.hasPrefix("expected") { return context.debugDescription + foundText }
        let expected: String
        switch type {
        case is String.Type: expected = "a string"
        case is Bool.Type: expected = "a boolean"
        case is Int.Type, is Int64.Type, is Int32.Type: expected = "an integer"
        case is Double.Type, is Float.Type: expected = "a number"
        default:
            let name = String(describing: type)
            expected = name.hasPrefix("Array") ? "an array" : name.hasPrefix("Dictionary") ? "an object" : "a value"
        }
        return "expected \(expected)" + foundText
    }

    /// The value at a coding path, or `nil` when the path leads nowhere.
    private static func value(at codingPath: [any CodingKey], in root: JSONValue) -> JSONValue? {
        var current = root
        for key in codingPath {
            switch current {
            case .array(let elements):
                guard let index = key.intValue, elements.indices.contains(index) else { return nil }
                current = elements[index]
            case .object(let members):
                guard let member = members[key.stringValue] else { return nil }
                current = member
            default:
                return nil
            }
        }
        return current
    }

    private static func describe(_ context: DecodingError.Context) -> String {
        let text = context.debugDescription
        guard let first = text.first else { return "unusable value" }
        return first.lowercased() + text.dropFirst()
    }

    /// A JSON path such as `$.log.entries[3].response.status`.
    static func path(_ codingPath: [any CodingKey]) -> String {
        JSONPath.path(codingPath)
    }
}
