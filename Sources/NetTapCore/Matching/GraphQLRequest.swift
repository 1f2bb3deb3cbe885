import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a GraphQL-over-HTTP request asks for: its operations, read from the body or the URL.
///
/// A request is GraphQL when one of these holds (first match wins):
/// - its `Content-Type` is `application/graphql` and its body is a GraphQL document;
/// - its body is a JSON object with a `query` holding a GraphQL document (`operationName` picks one of its
///   operations), or with an `operationName` beside `extensions` or `variables` (a persisted query, sent without
///   its document); or a JSON array of such objects (a batch, one operation each);
/// - its URL has a `query` item holding a GraphQL document, or an `operationName` item beside `extensions`
///   (GraphQL over HTTP's GET form).
///
/// The operation's name is `operationName` when given, else the name of the document's first operation; its type
/// is that of the operation so named (GraphQL spec §6.1). Documents are read with ``GraphQLTokenizer``, not parsed.
package struct GraphQLRequest: Sendable, Hashable {
    /// The annotation key of the operation names a capture is labelled with (`CapturedTransaction.annotations`):
    /// the name, `(anonymous)`, or for a batch every operation's, joined with `, `.
    package static let operationAnnotation = "graphql.operation"
    /// The annotation key of the operation types (`query`, `mutation`, `subscription`; a batch's distinct types
    /// joined with `, `), absent when unknown.
    package static let typeAnnotation = "graphql.type"
    /// What an operation without a name is labelled.
    package static let anonymous = "(anonymous)"

    /// The operations: one, or one per element of a batch.
    package var operations: [GraphQLOperation]
    /// Whether the body was a JSON array of requests.
    package var isBatch: Bool

    /// Reads a request; `nil` when it is not a GraphQL request.
    ///
    /// - Parameter request: The request, its body in `httpBody`.
    package init?(_ request: URLRequest) {
        self.init(
            url: request.url,
            contentType: request.value(forHTTPHeaderField: "Content-Type"),
            body: request.httpBody
        )
    }

    /// Reads a captured request (its captured body); `nil` when it is not a GraphQL request.
    ///
    /// - Parameter request: The request as captured or recorded.
    package init?(_ request: CapturedRequest) {
        self.init(url: request.url, contentType: request.headers["Content-Type"], body: request.body?.data)
    }

    /// Reads a request from its parts; `nil` when it is not a GraphQL request.
    ///
    /// - Parameters:
    ///   - url: The URL, for the GET form.
    ///   - contentType: The `Content-Type` field's value.
    ///   - body: The body.
    package init?(url: URL?, contentType: String?, body: Data?) {
        if let body, !body.isEmpty, let read = Self.read(body: body, contentType: contentType, url: url) {
            self = read
        } else if let url, let operation = Self.read(query: url) {
            self.init(operations: [operation], isBatch: false)
        } else {
            return nil
        }
    }

    private init(operations: [GraphQLOperation], isBatch: Bool) {
        self.operations = operations
        self.isBatch = isBatch
    }

    /// The capture labels: ``operationAnnotation`` always, ``typeAnnotation`` when every type is known.
    package var labels: [String: String] {
        var labels = [Self.operationAnnotation: operations.map { $0.name ?? Self.anonymous }.joined(separator: ", ")]
        let types = operations.compactMap(\.type)
        if types.count == operations.count {
            var distinct: [RequestMatcher.GraphQLOperationType] = []
            for type in types where !distinct.contains(type) { distinct.append(type) }
            labels[Self.typeAnnotation] = distinct.map(\.rawValue).joined(separator: ", ")
        }
        return labels
    }

    /// A captured transaction's operation and type: its `graphql.operation` and `graphql.type` annotations, or
    /// for a transaction without them (another tool's HAR entry) the operation read from its request.
    ///
    /// - Parameter transaction: The transaction.
    /// - Returns: The operation (``labels``' form) and its type, or `nil` when the request is not GraphQL.
    package static func label(of transaction: CapturedTransaction) -> (operation: String, type: String?)? {
        let annotations = transaction.annotations
        if let operation = annotations[operationAnnotation] {
            return (operation, annotations[typeAnnotation])
        }
        let request = transaction.request
        let read = GraphQLRequest(request)
        guard let labels = read?.labels, let operation = labels[operationAnnotation] else { return nil }
        return (operation, labels[typeAnnotation])
    }

    /// `mutation AddItem`, or the operation alone when its type is unknown.
    package static func text(of label: (operation: String, type: String?)) -> String {
        label.type.map { "\($0) \(label.operation)" } ?? label.operation
    }

    // MARK: - Reading

    /// The body's operations: a document (`application/graphql`) or JSON.
    private static func read(body: Data, contentType: String?, url: URL?) -> GraphQLRequest? {
        let mime = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        if mime == "application/graphql" {
            let name = url.flatMap { queryItems(of: $0)["operationName"] }
            guard let operation = operation(document: String(decoding: body, as: UTF8.self), name: name) else {
                return nil
            }
            return GraphQLRequest(operations: [operation], isBatch: false)
        }
        guard mentionsGraphQL(body), let json = try? JSONValue(data: body) else { return nil }
        switch json {
        case .object:
            return operation(json).map { GraphQLRequest(operations: [$0], isBatch: false) }
        case .array(let elements) where !elements.isEmpty:
            let operations = elements.compactMap(operation)
            return operations.count == elements.count ? GraphQLRequest(operations: operations, isBatch: true) : nil
        default:
            return nil
        }
    }

    /// Whether a body starts like JSON and holds `"query"` or `"operationName"`: cheap, before parsing it.
    private static func mentionsGraphQL(_ body: Data) -> Bool {
        guard let first = body.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
        else { return false }
        return body.range(of: Data("\"query\"".utf8)) != nil || body.range(of: Data("\"operationName\"".utf8)) != nil
    }

    /// The operation of one JSON request object.
    private static func operation(_ json: JSONValue) -> GraphQLOperation? {
        guard case .object(let members) = json else { return nil }
        let name = members["operationName"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        if let document = members["query"]?.stringValue {
            return operation(document: document, name: name)
        }
        guard let name, members["extensions"] != nil || members["variables"] != nil else { return nil }
        return GraphQLOperation(name: name, type: nil)
    }

    /// The operation of the URL's `query` (and `operationName`) items.
    private static func read(query url: URL) -> GraphQLOperation? {
        // Most URLs have neither item: a substring test spares them the parsing.
        guard let query = url.query(percentEncoded: true),
            contains(query, "query=") || contains(query, "operationName=")
        else { return nil }
        let items = queryItems(of: url)
        let name = items["operationName"].flatMap { $0.isEmpty ? nil : $0 }
        if let document = items["query"] { return operation(document: document, name: name) }
        guard let name, items["extensions"] != nil else { return nil }
        return GraphQLOperation(name: name, type: nil)
    }

    /// Whether `text` holds `needle`, compared byte for byte (Foundation's `contains` is far slower on Linux).
    private static func contains(_ text: String, _ needle: String) -> Bool {
        let haystack = Array(text.utf8)
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty, haystack.count >= pattern.count else { return pattern.isEmpty }
        for start in 0...(haystack.count - pattern.count) where haystack[start] == pattern[0] {
            if haystack[start..<(start + pattern.count)].elementsEqual(pattern) { return true }
        }
        return false
    }

    /// The operation `name` picks from a document (the first one when `name` is `nil`), or `nil` when the text is
    /// not a GraphQL document.
    private static func operation(document: String, name: String?) -> GraphQLOperation? {
        guard let operations = GraphQLOperation.operations(in: document) else { return nil }
        guard let name else { return operations.first }
        return GraphQLOperation(name: name, type: operations.first { $0.name == name }?.type)
    }

    /// The URL's query items by name, first value of each, percent-decoded with `+` as a space.
    private static func queryItems(of url: URL) -> [String: String] {
        var items: [String: String] = [:]
        for item in QueryItemMatching.actualItems(of: url) where items[item.name] == nil {
            items[item.name] = item.values?.last ?? ""
        }
        return items
    }
}
