import Foundation

/// A response template that cannot be used: it names the template, what is wrong and where.
///
/// ```
/// invalid template "id {{request.paht.2}}" at character 6: unknown placeholder "request.paht.2"; did you mean
/// "request.path.2"?
/// ```
///
/// Mock files report it as a `ConfigurationError` at the template's JSON path.
public struct TemplateError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The template as given.
    public var template: String
    /// What is wrong, for example `unknown placeholder "request.paht.2"`.
    public var message: String
    /// The 0-based offset in characters of the placeholder or fault in ``template``.
    public var offset: Int

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - template: The template as given.
    ///   - message: What is wrong.
    ///   - offset: The 0-based character offset of the fault.
    public init(template: String, message: String, offset: Int) {
        self.template = template
        self.message = message
        self.offset = offset
    }

    /// `invalid template "<template>" at character <offset + 1>: <message>`.
    public var description: String {
        let shown = template.count > 80 ? String(template.prefix(80)) + "…" : template
        return "invalid template \"\(shown)\" at character \(offset + 1): \(message)"
    }
}

extension TemplateError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}
