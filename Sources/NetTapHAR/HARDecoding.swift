import Foundation

/// Turns HAR bytes into a ``HARDocument`` and every failure into a ``HARError`` that names the place.
enum HARDecoding {
    static func decode(_ data: Data, source: String) throws(HARError) -> HARDocument {
        let json = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
        do {
            return try JSONDecoder().decode(HARDocument.self, from: Data(json))
        } catch let error as DecodingError {
            throw harError(for: error, data: Data(json), source: source)
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
        if data.isEmpty {
            return HARError(source: source, message: "invalid JSON: the file is empty", line: 1, column: 1)
        }
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            let text = detail ?? error.localizedDescription
            let (line, column) = location(of: offset(in: text), in: data)
            return HARError(source: source, message: "invalid JSON: \(text)", line: line, column: column)
        }
        return HARError(source: source, message: "invalid JSON: the data is not UTF-8 JSON")
    }

    /// The byte offset in a Foundation message such as `Invalid value around character 22.`.
    private static func offset(in message: String) -> Int? {
        guard let range = message.range(of: "character ") else { return nil }
        return Int(message[range.upperBound...].prefix { $0.isNumber })
    }

    /// The 1-based line and column of a byte offset; `(nil, nil)` when the offset is unknown.
    private static func location(of offset: Int?, in data: Data) -> (Int?, Int?) {
        guard let offset, offset >= 0, offset <= data.count else { return (nil, nil) }
        let before = String(decoding: data.prefix(offset), as: UTF8.self)
        let lines = before.split(separator: "\n", omittingEmptySubsequences: false)
        return (lines.count, (lines.last?.count ?? 0) + 1)
    }

    private static func describe(_ context: DecodingError.Context) -> String {
        let text = context.debugDescription
        guard let first = text.first else { return "unusable value" }
        return first.lowercased() + text.dropFirst()
    }

    /// A JSON path such as `$.log.entries[3].response.status`.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var result = "$"
        for key in codingPath {
            if let index = key.intValue {
                result += "[\(index)]"
            } else if key.stringValue.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
                result += "." + key.stringValue
            } else {
                result += "[\"\(key.stringValue)\"]"
            }
        }
        return result
    }
}
