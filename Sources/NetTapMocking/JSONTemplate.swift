import NetTapCore

/// A JSON body whose strings may hold placeholders, compiled once.
///
/// Each string is a ``TextTemplate``; the JSON encoder escapes what it renders, so values never break the JSON.
/// A string that is exactly one placeholder of a request body field (`"{{request.body.$.id}}"`) takes that field's
/// JSON value with its type (number, boolean, object, array, `null`) when the field is there.
indirect enum JSONTemplate: Sendable, Hashable {
    /// A value without placeholders, answered as it is.
    case literal(JSONValue)
    /// A string with placeholders.
    case text(TextTemplate)
    /// An array with placeholders somewhere inside.
    case array([JSONTemplate])
    /// An object with placeholders somewhere inside (member names are never templates).
    case object([String: JSONTemplate])

    /// A template that failed to compile, and where in the JSON value it is.
    struct Failure: Error {
        /// The error.
        var error: TemplateError
        /// The path inside the value, such as `.user.name` or `[2]`; empty for the value itself.
        var path: String
    }

    /// Compiles a JSON value.
    ///
    /// - Throws: ``Failure`` for the first string that is not a valid template.
    init(compiling value: JSONValue, at path: String = "") throws(Failure) {
        switch value {
        case .string(let text):
            do {
                let template = try TextTemplate(parsing: text)
                self = template.hasPlaceholders ? .text(template) : .literal(value)
            } catch {
                throw Failure(error: error, path: path)
            }
        case .array(let elements):
            var compiled: [JSONTemplate] = []
            for (index, element) in elements.enumerated() {
                compiled.append(try JSONTemplate(compiling: element, at: JSONPath.appending(index, to: path)))
            }
            self = compiled.allSatisfy(\.isLiteral) ? .literal(value) : .array(compiled)
        case .object(let members):
            var compiled: [String: JSONTemplate] = [:]
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                compiled[key] = try JSONTemplate(compiling: member, at: JSONPath.appending(key, to: path))
            }
            self = compiled.values.allSatisfy(\.isLiteral) ? .literal(value) : .object(compiled)
        default:
            self = .literal(value)
        }
    }

    /// Whether a `{{randomId}}` is among the placeholders.
    var usesRandomId: Bool {
        switch self {
        case .literal: false
        case .text(let template): template.usesRandomId
        case .array(let elements): elements.contains { $0.usesRandomId }
        case .object(let members): members.values.contains { $0.usesRandomId }
        }
    }

    /// Whether there is no placeholder anywhere inside.
    var isLiteral: Bool {
        if case .literal = self { return true }
        return false
    }

    /// The value for one request.
    func render(_ rendering: TemplateRendering) -> JSONValue {
        switch self {
        case .literal(let value):
            return value
        case .text(let template):
            if let sole = template.soleInsertion, case .bodyField = sole.placeholder,
                let value = rendering.jsonValue(of: sole.placeholder)
            {
                return value
            }
            return .string(rendering.render(template, escaping: .none))
        case .array(let elements):
            return .array(elements.map { $0.render(rendering) })
        case .object(let members):
            return .object(members.mapValues { $0.render(rendering) })
        }
    }
}
