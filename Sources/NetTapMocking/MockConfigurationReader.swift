import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads stubs and responses from configuration nodes (the format is documented on ``MockConfiguration``).
struct MockConfigurationReader {
    static let stubKeys: Set<String> = [
        "name", "match", "response", "alternatives", "active", "sequence", "afterEnd", "state", "templated",
    ]
    static let responseKeys: Set<String> = [
        "status", "headers", "body", "json", "base64", "file", "latencyMs", "durationMs", "bandwidth", "error",
        "redirect", "fault",
    ]
    /// The keys of a stub's `state`.
    static let stateKeys: Set<String> = ["machine", "requires", "moveTo"]

    let baseDirectory: URL?

    func stubs(in node: ConfigNode) throws -> [Stub] {
        var names: Set<String> = []
        return try node.each("stubs") { stubNode in
            let stub = try stub(stubNode)
            guard names.insert(stub.name).inserted else {
                throw try stubNode.requiredChild("name").error("stub \"\(stub.name)\" is defined twice here")
            }
            return stub
        }
    }

    func stub(_ node: ConfigNode) throws -> Stub {
        try node.rejectUnknownKeys(allowed: Self.stubKeys)
        let name = try node.requiredString("name")
        let matcher = try RequestMatcher(configuration: node.requiredChild("match"))
        let given = ["response", "alternatives", "sequence"].filter { (try? node.child($0)) != nil }
        guard given.count == 1, let kind = given.first else {
            throw node.error(
                given.isEmpty
                    ? "a stub needs one of \"response\", \"alternatives\" or \"sequence\""
                    : "a stub has only one of \"response\", \"alternatives\" or \"sequence\"; found "
                        + given.map { "\"\($0)\"" }.joined(separator: " and ")
            )
        }
        if kind != "alternatives", let active = try node.child("active") {
            throw active.error("\"active\" needs \"alternatives\"")
        }
        if kind != "sequence", let end = try node.child("afterEnd") {
            throw end.error("\"afterEnd\" needs \"sequence\"")
        }
        let templated = try node.bool("templated") ?? false
        var stub = Stub(name, matching: matcher, responses: try responses(node, kind: kind, templated: templated))
        if let stateNode = try node.child("state"), stateNode.value != .null { stub.state = try state(stateNode) }
        return stub
    }

    /// The responses of a stub of `kind` (`response`, `alternatives` or `sequence`).
    private func responses(_ node: ConfigNode, kind: String, templated: Bool) throws -> Stub.Responses {
        switch kind {
        case "alternatives":
            let elements = try node.requiredChild("alternatives").elements()
            guard !elements.isEmpty else {
                throw try node.requiredChild("alternatives").error("needs at least one alternative")
            }
            var alternatives: [Stub.Alternative] = []
            for element in elements {
                let alternativeName = try element.requiredString("name")
                guard !alternatives.contains(where: { $0.name == alternativeName }) else {
                    throw try element.requiredChild("name").error("alternative \"\(alternativeName)\" is defined twice")
                }
                let response = try response(element, extraKeys: ["name"], templated: templated)
                alternatives.append(Stub.Alternative(alternativeName, response))
            }
            let active = try node.string("active")
            if let active, !alternatives.contains(where: { $0.name == active }) {
                throw try node.requiredChild("active").error(
                    "no alternative named \"\(active)\"; the alternatives are "
                        + alternatives.map { "\"\($0.name)\"" }.joined(separator: ", ")
                )
            }
            let chosen = active ?? alternatives[0].name
            return .alternatives(alternatives, active: chosen)
        case "sequence":
            return try sequence(node, templated: templated)
        default:
            return .single(try response(node.requiredChild("response"), templated: templated))
        }
    }

    /// The responses of a sequence stub and what follows its last one.
    private func sequence(_ node: ConfigNode, templated: Bool) throws -> Stub.Responses {
        let sequenceNode = try node.requiredChild("sequence")
        let responses = try sequenceNode.elements().map { try response($0, templated: templated) }
        guard !responses.isEmpty else { throw sequenceNode.error("needs at least one response") }
        var afterEnd = Stub.SequenceEnd.repeatLast
        if let endNode = try node.child("afterEnd") {
            let text = try endNode.stringValue()
            guard let end = Stub.SequenceEnd(rawValue: text) else {
                throw endNode.error("expected \"repeatLast\" or \"cycle\", found \"\(text)\"")
            }
            afterEnd = end
        }
        return .sequence(responses, afterEnd: afterEnd)
    }

    /// A stub's `state`: `{"machine": …, "requires": …, "moveTo": …}`.
    private func state(_ node: ConfigNode) throws -> StubState {
        try node.rejectUnknownKeys(allowed: Self.stateKeys)
        let machine = try node.requiredString("machine")
        guard !machine.isEmpty else { throw try node.requiredChild("machine").error("a machine needs a name") }
        let requires = try node.string("requires")
        let moveTo = try node.string("moveTo")
        guard requires != nil || moveTo != nil else {
            throw node.error("a state needs \"requires\" (the state the stub applies in), \"moveTo\", or both")
        }
        return StubState(machine: machine, requires: requires, moveTo: moveTo)
    }

    func response(_ node: ConfigNode, extraKeys: Set<String> = [], templated: Bool = false) throws -> StubResponse {
        try node.rejectUnknownKeys(allowed: Self.responseKeys.union(extraKeys))
        let bodyKeys = ["body", "json", "base64", "file"].filter { (try? node.child($0)) != nil }
        if bodyKeys.count > 1 {
            throw node.error(
                "a response has at most one of \"body\", \"json\", \"base64\" or \"file\"; found "
                    + bodyKeys.map { "\"\($0)\"" }.joined(separator: " and ")
            )
        }
        if try node.child("durationMs") != nil, try node.child("bandwidth") != nil {
            throw node.error("a response has at most one of \"durationMs\" or \"bandwidth\"")
        }
        var response: StubResponse
        if let errorNode = try node.child("error") {
            for key in ["status", "headers", "redirect", "fault"] + bodyKeys where try node.child(key) != nil {
                throw try node.requiredChild(key).error("a response with \"error\" has no \"\(key)\"")
            }
            response = .failure(try errorCode(errorNode))
        } else {
            response = try httpResponse(node, templated: templated)
        }
        if let fault = try node.child("fault"), fault.value != .null {
            response.fault = try BodyFault(configuration: fault)
        }
        try pace(&response, node)
        return templated ? try compiled(response, node) : response
    }

    /// Status, headers, redirect and body; a string status is a template (only in a templated stub).
    private func httpResponse(_ node: ConfigNode, templated: Bool) throws -> StubResponse {
        var response: StubResponse
        let headers = try node.child("headers").map(headers) ?? [:]
        let statusNode = try node.child("status")
        if let statusNode, case .string = statusNode.value, !templated {
            throw statusNode.error(
                "expected an integer, found a string; a status template needs \"templated\": true on the stub"
            )
        }
        let status = statusNode?.value.stringValue != nil ? nil : try node.int("status")
        if let redirect = try node.string("redirect") {
            response = .redirect(to: redirect, statusCode: status ?? 302)
            for field in headers where field.name.lowercased() != "location" {
                response.headers.add(name: field.name, value: field.value)
            }
        } else {
            response = StubResponse(statusCode: status ?? 200, headers: headers)
        }
        if let status, !(100...999).contains(status) {
            throw try node.requiredChild("status").error("expected a status from 100 to 999, found \(status)")
        }
        response.body = try body(node)
        return response
    }

    /// Latency and body pacing.
    private func pace(_ response: inout StubResponse, _ node: ConfigNode) throws {
        if let latency = try node.child("latencyMs") { response.latency = try milliseconds(latency) }
        if let duration = try node.child("durationMs") { response.pacing = .duration(try milliseconds(duration)) }
        if let bandwidth = try node.child("bandwidth") {
            let value = try bandwidth.intValue()
            guard value > 0 else {
                throw bandwidth.error("expected a positive number of bytes per second, found \(value)")
            }
            response.pacing = .bandwidth(bytesPerSecond: value)
        }
    }

    private func body(_ node: ConfigNode) throws -> StubBody {
        if let text = try node.string("body") { return .text(text) }
        if let json = try node.child("json") { return .json(json.value) }
        if let base64Node = try node.child("base64") {
            guard let data = Data(base64Encoded: try base64Node.stringValue(), options: .ignoreUnknownCharacters) else {
                throw base64Node.error("invalid base64")
            }
            return .data(data)
        }
        if let fileNode = try node.child("file") {
            let path = try fileNode.stringValue()
            let url =
                path.hasPrefix("/")
                ? URL(fileURLWithPath: path)
                : URL(fileURLWithPath: path, relativeTo: baseDirectory).standardizedFileURL
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue
            else {
                throw fileNode.error("file not found: \(url.path)")
            }
            return .file(url)
        }
        return .empty
    }

    private func headers(_ node: ConfigNode) throws -> HeaderFields {
        var headers = HeaderFields()
        if case .array = node.value {
            for element in try node.elements() {
                try element.rejectUnknownKeys(allowed: ["name", "value"])
                headers.add(name: try element.requiredString("name"), value: try element.requiredString("value"))
            }
            return headers
        }
        for (name, valueNode) in try node.members() {
            if case .array = valueNode.value {
                for value in try valueNode.elements() { headers.add(name: name, value: try value.stringValue()) }
            } else {
                headers.add(name: name, value: try valueNode.stringValue())
            }
        }
        return headers
    }

    /// What follows `unknown URLError code "…"`: a suggestion, or the list of valid names.
    private static func hint(forUnknownCode name: String) -> String {
        if let suggestion = URLErrorNames.suggestion(for: name) { return "; did you mean \"\(suggestion)\"?" }
        return "; expected a URLError.Code member name (" + URLErrorNames.codes.keys.sorted().joined(separator: ", ")
            + ") or its number, such as -1009"
    }

    private func errorCode(_ node: ConfigNode) throws -> URLError.Code {
        if case .string(let name) = node.value {
            guard let code = URLErrorNames.code(named: name) else {
                throw node.error("unknown URLError code \"\(name)\"" + Self.hint(forUnknownCode: name))
            }
            return code
        }
        let number = try node.intValue()
        // Failable in FoundationNetworking (unknown numbers), not on Apple platforms: written to build on both.
        let known: URLError.Code? = URLError.Code(rawValue: number)
        guard let code = known else {
            throw node.error(
                "unknown URLError code \(number); write a URLError.Code member name such as \"timedOut\" or a "
                    + "known number such as -1001"
            )
        }
        return code
    }

    private func milliseconds(_ node: ConfigNode) throws -> Duration {
        let value = try node.doubleValue()
        guard value >= 0, value.isFinite else {
            throw node.error("expected a non-negative number of milliseconds, found \(node.value.messageText)")
        }
        // Beyond this the nanosecond count does not fit 64 bits (converting it would crash).
        guard value <= Self.maximumMilliseconds else {
            throw node.error(
                "expected at most \(Int64(Self.maximumMilliseconds)) milliseconds, found \(node.value.messageText)"
            )
        }
        return .nanoseconds(Int64((value * 1_000_000).rounded()))
    }

    /// The largest latency or body duration a mock file may give: about 104 days, in milliseconds.
    static let maximumMilliseconds: Double = 9_000_000_000
}
