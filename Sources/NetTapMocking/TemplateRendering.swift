import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The values templates insert for one request, each read at most once (path segments, query items, the body's
/// JSON, the random id) and only when a template asks for it.
///
/// Made for one answer and used on one task: not shared.
final class TemplateRendering {
    /// A value as the request has it: text, or a JSON value of its body.
    enum Value {
        case text(String)
        case json(JSONValue)
    }

    private let request: URLRequest
    /// The request's URL, read once (each read of `URLRequest.url` costs on Linux).
    private let url: URL?
    private let environment: TemplateEnvironment
    private var segments: [String]?
    private var queryItems: [(name: String, value: String)]?
    private var bodyJSON: JSONValue??

    /// Prepares the values of a request.
    init(request: URLRequest, environment: TemplateEnvironment) {
        self.request = request
        self.url = request.url
        self.environment = environment
    }

    /// A template rendered: literal text as written, each placeholder's value (or its default when missing)
    /// escaped as `escaping` says.
    func render(_ template: TextTemplate, escaping: TemplateEscaping) -> String {
        String(decoding: renderBytes(template, escaping: escaping), as: UTF8.self)
    }

    /// ``render(_:escaping:)`` as UTF-8, the form a body is answered in (built in bytes: no string per piece).
    func renderBytes(_ template: TextTemplate, escaping: TemplateEscaping) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(template.source.utf8.count + 64)
        for part in template.parts {
            switch part {
            case .literal(let bytes):
                result += bytes
            case .value(let insertion):
                var value = text(of: insertion.placeholder) ?? insertion.fallback
                if insertion.isRaw {
                    result += value.utf8
                } else {
                    value.withUTF8 { escaping.append($0, to: &result, isInJSONString: insertion.isInJSONString) }
                }
            }
        }
        return result
    }

    /// A body field's JSON value, or `nil` when the body is not JSON or has no such field.
    func jsonValue(of placeholder: TemplatePlaceholder) -> JSONValue? {
        guard case .bodyField(let path) = placeholder, let root = parsedBody() else { return nil }
        return path.value(in: root)
    }

    /// A placeholder's text, or `nil` when the request has no such value (a JSON `null` included).
    private func text(of placeholder: TemplatePlaceholder) -> String? {
        guard let value = value(of: placeholder) else { return nil }
        switch value {
        case .text(let text):
            return text
        case .json(.string(let text)):
            return text
        case .json(.null):
            return nil
        case .json(let json):
            return json.description
        }
    }

    private func value(of placeholder: TemplatePlaceholder) -> Value? {
        switch placeholder {
        case .method: return .text((request.httpMethod ?? "GET").uppercased())
        case .url: return url.map { .text($0.absoluteString) }
        case .scheme: return url?.scheme.map(Value.text)
        case .host: return url?.host.map(Value.text)
        case .port: return url.flatMap(RequestMatcher.effectivePort(of:)).map { .text(String($0)) }
        case .path: return url.map { .text(RequestMatcher.path(of: $0)) }
        case .pathSegment(let index): return pathSegments().dropFirst(index).first.map(Value.text)
        case .query(let name, let index):
            return query().filter { $0.name == name }.dropFirst(index).first.map { .text($0.value) }
        case .header(let name): return request.value(forHTTPHeaderField: name).map(Value.text)
        case .body: return request.httpBody.map { .text(String(decoding: $0, as: UTF8.self)) }
        case .bodyField: return jsonValue(of: placeholder).map(Value.json)
        case .randomId: return .text(environment.randomId)
        case .now(let format): return .text(Self.text(of: environment.now, format: format))
        }
    }

    private func pathSegments() -> [String] {
        if let segments { return segments }
        // Split before decoding, so an encoded "/" (%2F) stays inside its segment.
        let encoded = url?.path(percentEncoded: true) ?? ""
        let read = encoded.split(separator: "/").map { segment in
            segment.utf8.contains(UInt8(ascii: "%"))
                ? segment.removingPercentEncoding ?? String(segment) : String(segment)
        }
        segments = read
        return read
    }

    private func query() -> [(name: String, value: String)] {
        if let queryItems { return queryItems }
        let read = FormURLEncoding.fields(of: url?.query(percentEncoded: true) ?? "")
        queryItems = read
        return read
    }

    private func parsedBody() -> JSONValue? {
        if let bodyJSON { return bodyJSON }
        let parsed = request.httpBody.flatMap { try? JSONValue(data: JSONSyntaxDiagnosis.strippingByteOrderMark($0)) }
        bodyJSON = .some(parsed)
        return parsed
    }

    private static func text(of date: Date, format: TemplatePlaceholder.DateFormat) -> String {
        switch format {
        case .iso8601: date.formatted(.iso8601)
        case .epoch: String(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
        case .unix: String(Int64(date.timeIntervalSince1970.rounded(.down)))
        }
    }
}
