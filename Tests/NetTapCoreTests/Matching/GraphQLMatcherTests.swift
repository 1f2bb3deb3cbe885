import Foundation
import Testing

@testable import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("GraphQL: operations read from documents and requests, the operation matcher and its configuration")
struct GraphQLMatcherTests {
    private static let endpoint = "https://api.example.com/graphql"

    /// A POST of a GraphQL JSON body.
    private func post(_ json: String, contentType: String = "application/json") -> URLRequest {
        request(Self.endpoint, method: "POST", headers: ["Content-Type": contentType], body: json)
    }

    @Test("a document's operations are read by keyword and name, skipping fragments, comments and strings")
    func documentOperations() {
        let document = """
            # a comment with query Fake { x }
            fragment Parts on Cart @include(if: true) { items { id } }
            query GetCart($id: ID! = "{not a brace") @cached(ttl: 60) { cart(id: $id) { ...Parts note(text: \"\"\"}\"\"\") } }
            mutation AddItem($input: AddInput = {sku: "a", qty: 1}) { addItem(input: $input) { id } }
            subscription OnPrice { price }
            """
        let operations = GraphQLOperation.operations(in: document)
        #expect(
            operations == [
                GraphQLOperation(name: "GetCart", type: .query),
                GraphQLOperation(name: "AddItem", type: .mutation),
                GraphQLOperation(name: "OnPrice", type: .subscription),
            ]
        )
        #expect(GraphQLOperation.operations(in: "{ me { id } }") == [GraphQLOperation(name: nil, type: .query)])
        #expect(GraphQLOperation.operations(in: "query { me }") == [GraphQLOperation(name: nil, type: .query)])
    }

    @Test(
        "text that is not an executable document is not GraphQL",
        arguments: [
            "mutation testing", "shoes", "query GetCart", "type Query { me: User }", "query A { x ", "{ a ) }", "",
        ]
    )
    func notADocument(text: String) {
        #expect(GraphQLOperation.operations(in: text) == nil)
    }

    @Test("a request names its operation: operationName first, else the document's first operation, with its type")
    func requestOperations() throws {
        let named = try #require(
            GraphQLRequest(post(#"{"query":"query A { a } mutation B { b }","operationName":"B","variables":{}}"#))
        )
        #expect(named.operations == [GraphQLOperation(name: "B", type: .mutation)])
        let first = try #require(GraphQLRequest(post(#"{"query":"query A { a } mutation B { b }"}"#)))
        #expect(first.operations == [GraphQLOperation(name: "A", type: .query)])
        let persisted = try #require(
            GraphQLRequest(post(#"{"operationName":"GetCart","extensions":{"persistedQuery":{"version":1}}}"#))
        )
        #expect(persisted.operations == [GraphQLOperation(name: "GetCart", type: nil)])
        let document = try #require(GraphQLRequest(post("mutation Pay { pay }", contentType: "application/graphql")))
        #expect(document.operations == [GraphQLOperation(name: "Pay", type: .mutation)])
        let get = try #require(
            GraphQLRequest(request(Self.endpoint + "?query=query%20Me%20%7B%20me%20%7D&operationName=Me"))
        )
        #expect(get.operations == [GraphQLOperation(name: "Me", type: .query)])
        let batch = try #require(GraphQLRequest(post(#"[{"query":"query A { a }"},{"query":"{ b }"}]"#)))
        #expect(batch.isBatch)
        #expect(batch.labels == ["graphql.operation": "A, (anonymous)", "graphql.type": "query"])
        #expect(persisted.labels == ["graphql.operation": "GetCart"])
    }

    @Test("REST requests that mention query are not GraphQL")
    func restIsNotGraphQL() {
        #expect(GraphQLRequest(post(#"{"query":"red shoes","page":2}"#)) == nil)
        #expect(GraphQLRequest(request("https://shop.example.com/search?query=mutation+testing")) == nil)
        #expect(GraphQLRequest(post(#"{"operationName":"X"}"#)) == nil)
        #expect(GraphQLRequest(post(#"[{"query":"query A { a }"}, {"q": 1}]"#)) == nil)
        #expect(GraphQLRequest(request(Self.endpoint)) == nil)
    }

    @Test("the matcher tells operations on one endpoint apart by name and type, and explains a miss")
    func matcher() {
        let cart = RequestMatcher.path("/graphql") && .graphQL(operation: "GetCart")
        let getCart = post(#"{"query":"query GetCart { cart { id } }"}"#)
        let addItem = post(#"{"query":"mutation AddItem { addItem { id } }","operationName":"AddItem"}"#)
        #expect(cart.matches(getCart))
        #expect(cart.explain(addItem) == .missed(#"GraphQL operation was "AddItem", expected "GetCart""#))
        #expect(RequestMatcher.graphQL(type: .mutation).matches(addItem))
        #expect(
            RequestMatcher.graphQL(type: .mutation).explain(getCart)
                == .missed("GraphQL operation type was query, expected mutation")
        )
        #expect(
            RequestMatcher.graphQL().explain(request(Self.endpoint))
                == .missed("request was not GraphQL (no query document or operationName in its body or URL)")
        )
        #expect(RequestMatcher.graphQL(operation: "GetCart").description == "GraphQL operation GetCart")
        #expect(RequestMatcher.graphQL(operation: "AddItem", type: .mutation).description == "GraphQL mutation AddItem")
        #expect(RequestMatcher.graphQL(operation: "A").specificity == 20)
        #expect(RequestMatcher.graphQL(operation: "A", type: .query).specificity == 22)
        #expect(RequestMatcher.graphQL().specificity == 1)
    }

    @Test("a batch matches only when every operation in it does")
    func batch() {
        let batch = post(#"[{"query":"query A { a }"},{"query":"query B { b }"}]"#)
        #expect(RequestMatcher.graphQL(type: .query).matches(batch))
        #expect(
            RequestMatcher.graphQL(operation: "A").explain(batch)
                == .missed(#"in a batch of 2, operation 2: GraphQL operation was "B", expected "A""#)
        )
    }

    @Test("graphql reads from configuration as a name or an object, and writes back the same shape")
    func configuration() throws {
        let byName = try RequestMatcher(configuration: ConfigNode(value: ["graphql": "GetCart"]))
        #expect(byName.description == "GraphQL operation GetCart")
        let full = try RequestMatcher(
            configuration: ConfigNode(
                value: ["path": "/graphql", "graphql": ["operationName": "AddItem", "operationType": "mutation"]]
            )
        )
        #expect(full.description == "path == /graphql && GraphQL mutation AddItem")
        #expect(
            RequestMatcher.graphQL(operation: "A", type: .query).configuration
                == ["graphql": ["operationName": "A", "operationType": "query"]]
        )
        let written = try #require((RequestMatcher.path("/graphql") && .graphQL(operation: "A")).configuration)
        let reread = try RequestMatcher(configuration: ConfigNode(value: written))
        #expect(reread.matches(post(#"{"query":"query A { a }"}"#)))
    }

    @Test(
        "a bad graphql member names its JSON path",
        arguments: [
            (#"{"graphql": {"operationType": "read"}}"#, #"$.graphql.operationType: expected "query", "mutation""#),
            (#"{"graphql": {"name": "A"}}"#, #"$.graphql.name: unknown key "name""#),
            (#"{"graphql": 3}"#, "$.graphql: expected an operation name or an object"),
            (#"{"graphql": ""}"#, "$.graphql: expected an operation name, found an empty string"),
        ]
    )
    func configurationErrors(json: String, expected: String) throws {
        let node = try ConfigNode(parsing: Data(json.utf8), source: "nettap.json")
        let error = #expect(throws: ConfigurationError.self) { try RequestMatcher(configuration: node) }
        #expect(error?.description.contains(expected) == true, "\(error?.description ?? "")")
    }
}
