import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RequestMatcher {
    /// The keys a matcher object in configuration may hold.
    public static let configurationKeys: Set<String> = [
        "url", "scheme", "host", "port", "method", "path", "pathGlob", "pathExactly", "pathPrefix", "pathRegex",
        "query", "queryExactly", "headers", "headerContains", "body", "bodyBase64", "json", "jsonContains", "form",
        "graphql", "allOf", "anyOf", "not",
    ]

    /// The keys the object form of a matcher's `graphql` member may hold.
    public static let graphQLConfigurationKeys: Set<String> = ["operationName", "operationType"]

    /// Reads a matcher from NetTap configuration JSON: every key present must hold (`&&`).
    ///
    /// ```json
    /// {
    ///   "url": "https://*.example.com/api/**",   // RequestMatcher.url(_:)
    ///   "scheme": "https", "host": "*.example.com", "port": 8443, "method": "POST",
    ///   "path": "/users/*/posts",                  // a glob when a segment is * or **, else exact
    ///   "pathGlob": "/users", "pathExactly": "/files/*", "pathPrefix": "/api", "pathRegex": "^/v[0-9]+/",
    ///   "query": {"page": "2", "q": null, "tag": ["a", "b"]}, "queryExactly": true,
    ///   "headers": {"Accept": "application/json", "Authorization": null},
    ///   "headerContains": {"User-Agent": "Mozilla"},
    ///   "body": "text", "bodyBase64": "AAEC", "json": {"id": 1}, "jsonContains": {"user": {"id": 1}},
    ///   "form": {"user": "x"},
    ///   "graphql": {"operationName": "GetCart", "operationType": "query"},   // or "graphql": "GetCart"
    ///   "allOf": [{…}, {…}], "anyOf": [{…}, {…}], "not": {…}
    /// }
    /// ```
    ///
    /// Each key maps to the factory of the same name (`json` to ``jsonBody(_:)``, `jsonContains` to
    /// ``jsonBodyContains(_:)``, `form` to ``formFields(_:)``, `graphql` to ``graphQL(operation:type:)``, `headers` to ``header(_:_:)`` per member,
    /// `query` with `queryExactly` to ``query(items:exactly:)``; a `null` query or header value means
    /// "present"); `null` for `json` and `jsonContains` is the JSON value `null`, for any other key the same
    /// as leaving it out. `{}` is ``any``. Parts are
    /// combined in the order of the list above, so specificity is the sum of the parts' scores, and the
    /// matcher's ``configuration`` is `node.value` as given.
    /// - Parameter node: The matcher object, for example the `match` member of a stub.
    /// - Throws: ``ConfigurationError`` naming the file and the JSON path of the offending value: an
    ///   unknown key (with a "did you mean" suggestion), a value of the wrong type, a path not starting
    ///   with `/`, a port outside 1…65535, an empty `anyOf`, or an invalid regular expression or URL pattern
    ///   (with the ``MatcherError`` text).
    package init(configuration node: ConfigNode) throws {
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        var parts = try Self.locationParts(of: node)
        parts += try Self.queryAndHeaderParts(of: node)
        parts += try Self.bodyParts(of: node)
        parts += try Self.combinedParts(of: node)
        self = parts.dropFirst().reduce(parts.first ?? .any, &&)
        configuration = node.value
    }

    /// The parts from `url`, `scheme`, `host`, `port`, `method` and the path keys, in that order.
    private static func locationParts(of node: ConfigNode) throws -> [RequestMatcher] {
        var parts: [RequestMatcher] = []
        if let url = try node.present("url") {
            parts.append(try url.pattern { try .url($0) })
        }
        if let scheme = try node.string("scheme") { parts.append(.scheme(scheme)) }
        if let host = try node.present("host") { parts.append(.host(try host.hostPattern())) }
        if let port = try node.present("port") {
            let number = try port.intValue()
            guard (1...65_535).contains(number) else { throw port.error("port \(number) is outside 1…65535") }
            parts.append(.port(number))
        }
        if let method = try node.string("method") { parts.append(.method(method)) }
        if let path = try node.present("path") {
            let text = try path.pathValue()
            parts.append(PathGlob.hasWildcardSegment(text) ? .pathGlob(text) : .path(text))
        }
        if let glob = try node.present("pathGlob") { parts.append(.pathGlob(try glob.pathValue())) }
        if let exact = try node.present("pathExactly") { parts.append(.path(try exact.pathValue())) }
        if let prefix = try node.present("pathPrefix") { parts.append(.pathPrefix(try prefix.pathValue())) }
        if let regex = try node.present("pathRegex") {
            parts.append(try regex.pattern { try .pathRegex($0) })
        }
        return parts
    }

    /// The parts from `query` (with `queryExactly`), `headers` and `headerContains`, in that order.
    private static func queryAndHeaderParts(of node: ConfigNode) throws -> [RequestMatcher] {
        var parts: [RequestMatcher] = []
        let exactly = try node.bool("queryExactly") ?? false
        if let query = try node.present("query") {
            parts.append(.query(items: try query.queryItems(), exactly: exactly))
        } else if exactly {
            parts.append(.query(items: [], exactly: true))
        }
        for (name, value) in try node.present("headers")?.members() ?? [] {
            parts.append(.header(name, value.value == .null ? nil : try value.stringValue()))
        }
        for (name, value) in try node.present("headerContains")?.members() ?? [] {
            parts.append(.headerContains(name, try value.stringValue()))
        }
        return parts
    }

    /// The parts from `body`, `bodyBase64`, `json`, `jsonContains`, `form` and `graphql`, in that order.
    private static func bodyParts(of node: ConfigNode) throws -> [RequestMatcher] {
        var parts: [RequestMatcher] = []
        if let body = try node.string("body") { parts.append(.body(body)) }
        if let encoded = try node.present("bodyBase64") {
            guard let data = Data(base64Encoded: try encoded.stringValue()) else {
                throw encoded.error("expected base64 (RFC 4648) text")
            }
            parts.append(.body(data))
        }
        if let json = try node.child("json") { parts.append(.jsonBody(json.value)) }
        if let json = try node.child("jsonContains") { parts.append(.jsonBodyContains(json.value)) }
        if let form = try node.present("form") {
            var fields: [String: String] = [:]
            for (name, value) in try form.members() { fields[name] = try value.stringValue() }
            parts.append(.formFields(fields))
        }
        if let graphQL = try node.present("graphql") { parts.append(try graphQL.graphQLMatcher()) }
        return parts
    }

    /// The parts from the nested matchers of `allOf`, `anyOf` (one part: their `||`) and `not`, in that order.
    private static func combinedParts(of node: ConfigNode) throws -> [RequestMatcher] {
        var parts = try node.each("allOf", RequestMatcher.init(configuration:))
        if let anyOf = try node.present("anyOf") {
            let alternatives = try anyOf.elements().map(RequestMatcher.init(configuration:))
            guard let first = alternatives.first else {
                throw anyOf.error("expected at least one matcher; an empty anyOf matches nothing")
            }
            parts.append(alternatives.dropFirst().reduce(first, ||))
        }
        if let negated = try node.present("not") { parts.append(!(try RequestMatcher(configuration: negated))) }
        return parts
    }
}

extension ConfigNode {
    /// A string that makes a matcher, with a ``MatcherError`` turned into an error at this place.
    fileprivate func pattern(_ make: (String) throws -> RequestMatcher) throws -> RequestMatcher {
        let text = try stringValue()
        do {
            return try make(text)
        } catch let error as MatcherError {
            throw self.error(error.description)
        }
    }

    /// A `graphql` member: an operation name, or `{"operationName": …, "operationType": …}` (either or both).
    fileprivate func graphQLMatcher() throws -> RequestMatcher {
        if case .string(let name) = value {
            guard !name.isEmpty else { throw error("expected an operation name, found an empty string") }
            return .graphQL(operation: name)
        }
        guard case .object = value else {
            throw error(
                "expected an operation name or an object with \"operationName\" and \"operationType\", "
                    + "found \(value.messageText)"
            )
        }
        try rejectUnknownKeys(allowed: RequestMatcher.graphQLConfigurationKeys)
        let name = try string("operationName")
        var type: RequestMatcher.GraphQLOperationType?
        if let typeNode = try present("operationType") {
            let text = try typeNode.stringValue()
            guard let known = RequestMatcher.GraphQLOperationType(rawValue: text) else {
                throw typeNode.error("expected \"query\", \"mutation\" or \"subscription\", found \"\(text)\"")
            }
            type = known
        }
        return .graphQL(operation: name, type: type)
    }

    /// A path, which must start with `/`.
    fileprivate func pathValue() throws -> String {
        let text = try stringValue()
        guard text.hasPrefix("/") else { throw error("a path must start with \"/\", found \"\(text)\"") }
        return text
    }

    /// A host name or `*.`-wildcard.
    fileprivate func hostPattern() throws -> String {
        let text = try stringValue()
        let rest = text.hasPrefix("*.") ? text.dropFirst(2) : Substring(text)
        guard !rest.isEmpty, !rest.contains("*") else {
            throw error("expected a host name or \"*.\" followed by one, found \"\(text)\"")
        }
        return text
    }

    /// Query items from `{"name": "value" | null | ["value" | null, …]}`, in name order.
    fileprivate func queryItems() throws -> [URLQueryItem] {
        var items: [URLQueryItem] = []
        for (name, member) in try members() {
            let values = if case .array = member.value { try member.elements() } else { [member] }
            for value in values {
                items.append(URLQueryItem(name: name, value: value.value == .null ? nil : try value.stringValue()))
            }
        }
        return items
    }
}
