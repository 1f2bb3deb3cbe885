import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RewriteHandler {
    /// The request to pass on (mapped and with its header fields edited) and the map remote rule that took it.
    func rewritten(_ request: URLRequest, context: TransactionContext) -> (URLRequest, MapRemote?) {
        var sent = request
        var mapping: MapRemote?
        if let rule = rules.mapRemote.first(where: { $0.takes(request) }), let original = request.url,
            let mapped = rule.mappedURL(for: original)
        {
            mapping = rule
            sent.url = mapped
            if rule.preservesHostHeader {
                let host = URLPrefix.host(of: original) ?? ""
                sent.setValue(host + (original.port.map { ":\($0)" } ?? ""), forHTTPHeaderField: "Host")
            } else {
                // An explicit Host would still name the app's host: the transport sets the new one.
                sent.setValue(nil, forHTTPHeaderField: "Host")
            }
            context.annotate(Self.originalURLAnnotation, original.absoluteString)
            Self.note(rule: "map remote \(rule.label)", in: context)
        }
        var edited: [String] = []
        for edit in rules.requestHeaders where edit.matcher.matches(request) {
            if edit.apply(to: &sent) {
                edited.append(edit.label)
                Self.note(rule: "request header \(edit.label)", in: context)
            }
        }
        if !edited.isEmpty { context.annotate(Self.requestHeadersAnnotation, edited.joined(separator: "; ")) }
        return (sent, mapping)
    }

    /// Applies the response header edits whose matchers take `request`.
    func editResponseHeaders(of response: inout HandlerResponse, for request: URLRequest, context: TransactionContext) {
        var edited: [String] = []
        for edit in rules.responseHeaders where edit.matcher.matches(request) {
            if edit.apply(to: &response.headers) {
                edited.append(edit.label)
                Self.note(rule: "response header \(edit.label)", in: context)
            }
        }
        if !edited.isEmpty { context.annotate(Self.responseHeadersAnnotation, edited.joined(separator: "; ")) }
    }

    /// Adds a rule that changed something to ``rulesAnnotation``.
    static func note(rule label: String, in context: TransactionContext) {
        let earlier = context.annotations[rulesAnnotation]
        context.annotate(rulesAnnotation, earlier.map { "\($0); \(label)" } ?? label)
    }
}
