import Foundation
import NetTapCore

/// The compiled templates of a response: its status, header values and body, parsed once when the stub is made
/// or loaded, rendered per request.
///
/// Header and body templates are kept with the text they were compiled from: a header or body changed after
/// compiling is answered as it is, never with a stale template.
struct ResponseTemplate: Sendable {
    /// A body template and the body it was compiled from.
    enum Body: Sendable {
        /// A UTF-8 text body.
        case text(TextTemplate, source: Data)
        /// A JSON body.
        case json(JSONTemplate, source: JSONValue)
    }

    /// The status template, when the status is one.
    var status: TextTemplate?
    /// The header value templates, by the value they were compiled from.
    var headers: [String: TextTemplate] = [:]
    /// The body template, for a text or JSON body with placeholders.
    var body: Body?
    /// Whether a template of the response has a `{{randomId}}`: the mock set then draws one with the match.
    private(set) var usesRandomId = false
    /// The `Content-Type` the response was compiled with, and the escaping it calls for (worked out once; a rendered
    /// type that differs is looked at again).
    private var compiledType: (value: String?, escaping: TemplateEscaping) = (nil, .none)

    /// Compiles a response's header values and body, and a status template.
    ///
    /// Values without placeholders are left out; a body that is not UTF-8 text or JSON (bytes that are not UTF-8,
    /// a file) is answered as it is.
    /// - Throws: ``JSONTemplate/Failure`` for the first template that cannot be compiled (its path is empty
    ///   outside a JSON body).
    init(compiling response: StubResponse, status: String?) throws(JSONTemplate.Failure) {
        do {
            self.status = try status.map(TextTemplate.init(parsing:))
            for field in response.headers where headers[field.value] == nil {
                let template = try TextTemplate(parsing: field.value)
                if template.hasPlaceholders { headers[field.value] = template }
            }
            if case .data(let data) = response.body, let text = String(data: data, encoding: .utf8) {
                let template = try TextTemplate(parsing: text)
                if template.hasPlaceholders { body = .text(template, source: data) }
            }
        } catch {
            throw JSONTemplate.Failure(error: error, path: "")
        }
        let type = response.headers["Content-Type"]
        compiledType = (type, TemplateEscaping.forContentType(type))
        if case .json(let value) = response.body {
            let template = try JSONTemplate(compiling: value)
            if !template.isLiteral { body = .json(template, source: value) }
        }
        usesRandomId = Self.usesRandomId(status: self.status, headers: headers, body: body)
    }

    private static func usesRandomId(status: TextTemplate?, headers: [String: TextTemplate], body: Body?) -> Bool {
        if status?.usesRandomId == true || headers.values.contains(where: \.usesRandomId) { return true }
        switch body {
        case .text(let template, _)?: return template.usesRandomId
        case .json(let template, _)?: return template.usesRandomId
        case nil: return false
        }
    }

    /// The response for one request: every template rendered, `Content-Length` dropped (the answer sets it from
    /// the rendered body), and a problem to note when the status did not render to one.
    ///
    /// - Returns: The plain response, and `nil` or a line such as `status rendered "abc", not a status from 100 to
    ///   999; answered 500`.
    func render(_ response: StubResponse, rendering: TemplateRendering) -> (StubResponse, problem: String?) {
        var rendered = response
        rendered.template = nil
        var problem: String?
        if let status {
            let text = rendering.render(status, escaping: .none).trimmingCharacters(in: .whitespaces)
            if let code = Int(text), (100...999).contains(code) {
                rendered.statusCode = code
            } else {
                rendered.statusCode = 500
                problem = "status rendered \"\(text)\", not a status from 100 to 999; answered 500"
            }
        }
        if !headers.isEmpty {
            rendered.headers = HeaderFields(
                response.headers.map { field in
                    guard let template = headers[field.value] else { return field }
                    // A value never breaks the header block: line breaks become spaces.
                    let value = rendering.render(template, escaping: .none)
                        .replacingOccurrences(of: "\r\n", with: " ")
                    return HeaderFields.Field(name: field.name, value: String(value.map { $0.isNewline ? " " : $0 }))
                }
            )
        }
        switch (body, response.body) {
        case (.text(let template, let source)?, .data(let data)) where data == source:
            let type = rendered.headers["Content-Type"]
            let escaping = type == compiledType.value ? compiledType.escaping : TemplateEscaping.forContentType(type)
            rendered.body = .data(Data(rendering.renderBytes(template, escaping: escaping)))
        case (.json(let template, let source)?, .json(let value)) where value == source:
            rendered.body = .json(template.render(rendering))
        default:
            break
        }
        rendered.headers.remove(name: "Content-Length")
        return (rendered, problem)
    }
}
