import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RequestMatcher {
    /// Matches a GraphQL request by operation name and type, since every operation goes to the same
    /// `POST /graphql`.
    ///
    /// The operation comes from the request as GraphQL over HTTP sends it: a JSON body's `operationName`, or when
    /// absent the name of the first operation of its `query` document (`query GetCart { … }`); a body of
    /// `Content-Type: application/graphql`; or the `query` and `operationName` items of a GET's URL. A batch (a JSON
    /// array) matches when every operation in it does. Anything else is not a GraphQL request and misses.
    ///
    /// Specificity: 20 for a name (an operation is what a path is to REST), plus 2 for a type; 1 when neither is
    /// given (any GraphQL request). Configuration: `{"graphql": {"operationName": "GetCart", "operationType":
    /// "query"}}`, or `{"graphql": "GetCart"}` for a name alone.
    ///
    /// ```swift
    /// let cart = RequestMatcher.path("/graphql") && .graphQL(operation: "GetCart")
    /// let writes = RequestMatcher.graphQL(type: .mutation)
    /// ```
    /// - Parameters:
    ///   - name: The operation's name, compared case-sensitively; `nil` for any name.
    ///   - type: The operation's type; `nil` for any.
    /// - Returns: The matcher.
    /// - Complexity: O(*n*) per request in the body size (the body is parsed for each test).
    public static func graphQL(operation name: String? = nil, type: GraphQLOperationType? = nil) -> RequestMatcher {
        var configuration: [String: JSONValue] = [:]
        if let name { configuration["operationName"] = .string(name) }
        if let type { configuration["operationType"] = .string(type.rawValue) }
        let wanted = GraphQLOperation(name: name, type: type)
        return RequestMatcher(
            description: graphQLDescription(wanted),
            specificity: name == nil && type == nil ? 1 : (name == nil ? 0 : 20) + (type == nil ? 0 : 2),
            configuration: ["graphql": .object(configuration)],
            evaluate: { request in
                guard let graphQL = GraphQLRequest(request) else {
                    return .missed("request was not GraphQL (no query document or operationName in its body or URL)")
                }
                for (index, operation) in graphQL.operations.enumerated() {
                    guard let reason = graphQLDifference(operation, from: wanted) else { continue }
                    let count = graphQL.operations.count
                    return .missed(
                        graphQL.isBatch ? "in a batch of \(count), operation \(index + 1): \(reason)" : reason
                    )
                }
                return .matched
            },
            distance: { request in
                guard let graphQL = GraphQLRequest(request) else {
                    return (name == nil ? MatchDistance.missing : MatchDistance.locationWeight)
                        + (type == nil ? 0 : MatchDistance.methodWeight)
                }
                return graphQL.operations.reduce(0.0) { $0 + graphQLDistance($1, from: wanted) }
            }
        )
    }

    /// `GraphQL mutation AddItem`, `GraphQL operation GetCart`, `GraphQL query`, or `GraphQL request`.
    private static func graphQLDescription(_ wanted: GraphQLOperation) -> String {
        switch (wanted.name, wanted.type) {
        case (let name?, let type?): "GraphQL \(type.rawValue) \(name)"
        case (let name?, nil): "GraphQL operation \(name)"
        case (nil, let type?): "GraphQL \(type.rawValue)"
        case (nil, nil): "GraphQL request"
        }
    }

    /// Why an operation is not the wanted one, or `nil` when it is.
    private static func graphQLDifference(_ operation: GraphQLOperation, from wanted: GraphQLOperation) -> String? {
        if let name = wanted.name, operation.name != name {
            let had = operation.name.map(MatchReason.quoted) ?? "anonymous"
            return "GraphQL operation was \(had), expected \(MatchReason.quoted(name))"
        }
        if let type = wanted.type, operation.type != type {
            let had = operation.type?.rawValue ?? "unknown (a persisted query, sent without its document)"
            return "GraphQL operation type was \(had), expected \(type.rawValue)"
        }
        return nil
    }

    /// The edit distances of the name and type that differ.
    private static func graphQLDistance(_ operation: GraphQLOperation, from wanted: GraphQLOperation) -> Double {
        var total = 0.0
        if let name = wanted.name {
            total += MatchDistance.locationWeight * MatchDistance.text(operation.name ?? "", name)
        }
        if let type = wanted.type {
            total += MatchDistance.methodWeight * MatchDistance.text(operation.type?.rawValue ?? "", type.rawValue)
        }
        return total
    }
}
