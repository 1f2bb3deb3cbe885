import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Stub {
    /// Narrows a stub recorded from `request` to the GraphQL operation it asked for, so that stubs saved from
    /// several operations of one endpoint (`POST /graphql`) each answer their own.
    ///
    /// Only a request naming one operation is narrowed: an anonymous operation or a batch keeps the matcher it has.
    /// The default name (`POST /graphql`) gets the operation's name after it, since stubs' names are unique.
    ///
    /// - Parameter request: The recorded request, its body captured.
    mutating func narrowToGraphQLOperation(of request: CapturedRequest) {
        guard
            let graphQL = GraphQLRequest(request),
            !graphQL.isBatch, let operation = graphQL.operations.first, let name = operation.name
        else { return }
        matcher = matcher && .graphQL(operation: name, type: operation.type)
        self.name += " " + name
    }
}
