extension RequestMatcher {
    /// The type of a GraphQL operation (GraphQL spec §2.3).
    public enum GraphQLOperationType: String, Sendable, Hashable, CaseIterable {
        /// A read-only fetch; also the shorthand `{ … }`.
        case query
        /// A write followed by a fetch.
        case mutation
        /// A long-lived request that answers as events happen.
        case subscription
    }
}

/// One GraphQL operation a request asks for: its name (`nil` for an anonymous one) and its type (`nil` when the
/// request does not show it: a persisted query sends a name without the document).
package struct GraphQLOperation: Sendable, Hashable {
    /// The operation's name, as `operationName` gives it or the document names it.
    package var name: String?
    /// The operation's type.
    package var type: RequestMatcher.GraphQLOperationType?

    /// Creates an operation.
    package init(name: String?, type: RequestMatcher.GraphQLOperationType?) {
        self.name = name
        self.type = type
    }

    /// The operations a GraphQL document defines, in order, read with ``GraphQLTokenizer`` (not parsed).
    ///
    /// Every top-level definition must be an operation (`query`, `mutation` or `subscription`, an optional name,
    /// variable definitions and directives, then a selection set), the shorthand query `{ … }`, or a fragment
    /// (skipped); anything else (a schema definition, text that is not GraphQL) gives `nil`, so a search API's
    /// `?query=mutation testing` is not taken for GraphQL.
    /// - Parameter document: The document's text.
    /// - Returns: The operations, at least one, or `nil`.
    package static func operations(in document: String) -> [GraphQLOperation]? {
        var tokenizer = GraphQLTokenizer(document)
        var operations: [GraphQLOperation] = []
        while let token = tokenizer.next() {
            switch token {
            case .punctuator(UInt8(ascii: "{")):
                guard tokenizer.skipGroup(openedBy: UInt8(ascii: "{")) else { return nil }
                operations.append(GraphQLOperation(name: nil, type: .query))
            case .name(let word):
                if let type = RequestMatcher.GraphQLOperationType(rawValue: word) {
                    guard let operation = readOperation(of: type, from: &tokenizer) else { return nil }
                    operations.append(operation)
                } else if word == "fragment" {
                    guard skipFragment(&tokenizer) else { return nil }
                } else {
                    return nil
                }
            default:
                return nil
            }
        }
        return operations.isEmpty ? nil : operations
    }

    /// Reads what follows an operation's keyword: an optional name, variable definitions and directives, then
    /// the selection set, skipped whole.
    private static func readOperation(
        of type: RequestMatcher.GraphQLOperationType,
        from tokenizer: inout GraphQLTokenizer
    ) -> GraphQLOperation? {
        var name: String?
        var token = tokenizer.next()
        if case .name(let word)? = token {
            name = word
            token = tokenizer.next()
        }
        while let current = token {
            switch current {
            case .punctuator(UInt8(ascii: "(")):
                guard tokenizer.skipGroup(openedBy: UInt8(ascii: "(")) else { return nil }
            case .punctuator(UInt8(ascii: "@")):
                guard case .name? = tokenizer.next() else { return nil }
            case .punctuator(UInt8(ascii: "{")):
                guard tokenizer.skipGroup(openedBy: UInt8(ascii: "{")) else { return nil }
                return GraphQLOperation(name: name, type: type)
            default:
                return nil
            }
            token = tokenizer.next()
        }
        return nil
    }

    /// Skips `Name on Type Directives? SelectionSet` after the keyword `fragment`.
    private static func skipFragment(_ tokenizer: inout GraphQLTokenizer) -> Bool {
        while let token = tokenizer.next() {
            switch token {
            case .punctuator(UInt8(ascii: "(")):
                guard tokenizer.skipGroup(openedBy: UInt8(ascii: "(")) else { return false }
            case .punctuator(UInt8(ascii: "{")):
                return tokenizer.skipGroup(openedBy: UInt8(ascii: "{"))
            case .name, .punctuator(UInt8(ascii: "@")):
                continue
            default:
                return false
            }
        }
        return false
    }
}
