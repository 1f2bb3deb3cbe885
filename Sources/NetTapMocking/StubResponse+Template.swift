import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StubResponse {
    /// A copy whose header values and body (UTF-8 text or JSON) are response templates, and optionally its status.
    ///
    /// Placeholders are compiled here, once; each answer fills them from the request. A response that is not
    /// templated answers `{{` literally.
    ///
    /// ```swift
    /// let user = try StubResponse.json(["id": "{{request.path.2}}", "requestId": "{{randomId}}"]).templated()
    /// let echo = try StubResponse.text("hello {{request.query.name default=\"you\"}}").templated()
    /// let created = try StubResponse.status(201, headers: ["Location": "/items/{{randomId}}"]).templated()
    /// ```
    ///
    /// The placeholders (`request.method`, `request.url`, `request.scheme`, `request.host`, `request.port`,
    /// `request.path`, `request.path.N`, `request.query.NAME`, `request.header.NAME`, `request.body`,
    /// `request.body.$.FIELD`, `randomId`, `now`), escaping and missing values are described in the “Mocks and mock
    /// files” article. The answer's `Content-Length` is that of the rendered body. A failure or a dynamic response
    /// has nothing to template and is returned as it is; a file body, or bytes that are not UTF-8, are answered as
    /// they are.
    /// - Parameter status: A template the status renders from, for example `{{request.query.status default="200"}}`
    ///   (a rendering that is not a status from 100 to 999 answers 500 and notes why in the `template`
    ///   annotation); `nil` keeps ``statusCode``.
    /// - Returns: The templated response.
    /// - Throws: ``TemplateError`` naming the first template that cannot be compiled and the placeholder: an unknown
    ///   placeholder, a `{{` not closed, an unknown argument, a bad index or JSON path. In a JSON body its
    ///   ``TemplateError/message`` starts with the JSON path of the string (`at .user.name: …`).
    public func templated(status: String? = nil) throws -> StubResponse {
        guard case .http = kind else { return self }
        var copy = self
        do {
            copy.template = try ResponseTemplate(compiling: self, status: status)
        } catch {
            var located = error.error
            if !error.path.isEmpty { located.message = "at \(error.path): \(located.message)" }
            throw located
        }
        return copy
    }

    /// Whether the response is templated (``templated(status:)``).
    public var isTemplated: Bool { template != nil }

    /// The template the status renders from, when there is one.
    public var statusTemplate: String? { template?.status?.source }

    /// The plain response for a request: templates rendered, or `self` when not templated; with a problem to note.
    func rendered(for request: URLRequest, environment: TemplateEnvironment) -> (StubResponse, problem: String?) {
        guard let template else { return (self, nil) }
        return template.render(self, rendering: TemplateRendering(request: request, environment: environment))
    }

    /// Whether the response is templated with a `{{randomId}}`.
    var usesRandomId: Bool { template?.usesRandomId ?? false }
}
