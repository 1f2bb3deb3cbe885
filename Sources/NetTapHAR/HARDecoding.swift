import Foundation
import NetTapCore

/// Turns HAR bytes into a ``HARDocument`` and every failure into a ``HARError`` that names the place.
enum HARDecoding {
    static func decode(_ data: Data, source: String) throws(HARError) -> HARDocument {
        let json = JSONSyntaxDiagnosis.strippingByteOrderMark(data)
        do {
            return try JSONDecoder().decode(HARDocument.self, from: json)
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
            return HARError(source: source, path: path(context.codingPath), message: "value is null")
        case .typeMismatch(_, let context):
            return HARError(source: source, path: path(context.codingPath), message: describe(context))
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
