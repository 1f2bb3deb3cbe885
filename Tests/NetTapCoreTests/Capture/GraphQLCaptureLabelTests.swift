import Foundation
import Testing

@testable import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Every captured GraphQL request is labelled with its operation, whoever answers it")
struct GraphQLCaptureLabelTests {
    /// Records a request through a recorder, answered 200 by nobody in particular, and returns the capture.
    private func captured(
        _ request: URLRequest,
        context: TransactionContext = TransactionContext()
    ) async
        -> CapturedTransaction
    {
        let log = CaptureLog()
        let recorder = TransactionRecorder(
            request: request,
            body: request.httpBody,
            context: context,
            log: log,
            bodyByteLimit: 1 << 20
        )
        recorder.responseHead(HandlerResponse(statusCode: 200, url: request.url), requestURL: request.url!)
        recorder.finish(error: nil)
        let id = context.id
        return await log.waitForFinished { $0.id == id }
    }

    @Test("a POST of a GraphQL JSON body gets graphql.operation and graphql.type in the capture")
    func postLabelled() async throws {
        var post = URLRequest(url: URL(string: "https://api.example.com/graphql")!)
        post.httpMethod = "POST"
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(
            #"{"query":"mutation AddItem($sku: ID!) { addItem(sku: $sku) { id } }","variables":{}}"#.utf8
        )
        let transaction = await captured(post)
        #expect(transaction.annotations["graphql.operation"] == "AddItem")
        #expect(transaction.annotations["graphql.type"] == "mutation")
    }

    @Test("a GET with the document in the URL is labelled; a REST request is not")
    func getLabelled() async throws {
        let query = "query%20Me%20%7B%20me%20%7B%20id%20%7D%20%7D"
        let get = URLRequest(url: URL(string: "https://api.example.com/graphql?query=\(query)")!)
        let labelled = await captured(get)
        #expect(labelled.annotations["graphql.operation"] == "Me")
        #expect(labelled.annotations["graphql.type"] == "query")
        let rest = await captured(URLRequest(url: URL(string: "https://api.example.com/search?query=red+shoes")!))
        #expect(rest.annotations["graphql.operation"] == nil)
    }

    @Test("a handler's own graphql.operation annotation is kept")
    func handlerAnnotationWins() async throws {
        var post = URLRequest(url: URL(string: "https://api.example.com/graphql")!)
        post.httpMethod = "POST"
        post.httpBody = Data(#"{"query":"{ me }"}"#.utf8)
        let context = TransactionContext()
        context.annotate("graphql.operation", "Profile")
        let transaction = await captured(post, context: context)
        #expect(transaction.annotations["graphql.operation"] == "Profile")
        #expect(transaction.annotations["graphql.type"] == "query")
    }
}
