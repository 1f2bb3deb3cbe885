import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Writes stubs and responses as configuration JSON (the format is documented on ``MockConfiguration``).
struct MockConfigurationWriter {
    let baseDirectory: URL?

    func stub(_ stub: Stub, path: String) throws -> JSONValue {
        guard let match = stub.matcher.configuration else {
            throw ConfigurationError(
                path: "\(path).match",
                message: "stub \"\(stub.name)\": its matcher (\(stub.matcher.description)) has no JSON form"
            )
        }
        var object: [String: JSONValue] = ["name": .string(stub.name), "match": match]
        switch stub.responses {
        case .single(let value):
            object["response"] = try response(value, path: "\(path).response", stub: stub.name)
        case .alternatives(let alternatives, let active):
            object["alternatives"] = .array(
                try alternatives.enumerated().map { index, alternative in
                    var written = try response(
                        alternative.response,
                        path: "\(path).alternatives[\(index)]",
                        stub: stub.name
                    )
                    if case .object(var members) = written {
                        members["name"] = .string(alternative.name)
                        written = .object(members)
                    }
                    return written
                }
            )
            object["active"] = .string(active)
        case .sequence(let responses, let afterEnd):
            object["sequence"] = .array(
                try responses.enumerated().map { try response($1, path: "\(path).sequence[\($0)]", stub: stub.name) }
            )
            object["afterEnd"] = .string(afterEnd.rawValue)
        }
        if let state = stub.state {
            var written: [String: JSONValue] = ["machine": .string(state.machine)]
            if let requires = state.requires { written["requires"] = .string(requires) }
            if let moveTo = state.moveTo { written["moveTo"] = .string(moveTo) }
            object["state"] = .object(written)
        }
        if stub.isTemplated { object["templated"] = true }
        return .object(object)
    }

    func response(_ response: StubResponse, path: String, stub: String) throws -> JSONValue {
        var object: [String: JSONValue] = [:]
        switch response.kind {
        case .dynamic:
            throw ConfigurationError(path: path, message: "stub \"\(stub)\": a dynamic response has no JSON form")
        case .failure(let code):
            object["error"] = URLErrorNames.name(of: code).map(JSONValue.string) ?? .integer(Int64(code.rawValue))
        case .http:
            let location = response.headers.values(for: "Location")
            let isRedirect =
                location.count == 1 && response.body == .empty
                && [301, 302, 303, 307, 308].contains(response.statusCode)
            var headers = response.headers
            if isRedirect {
                object["redirect"] = .string(location[0])
                headers.remove(name: "Location")
                if response.statusCode != 302 { object["status"] = .integer(Int64(response.statusCode)) }
            } else if response.statusCode != 200 {
                object["status"] = .integer(Int64(response.statusCode))
            }
            if let template = response.statusTemplate { object["status"] = .string(template) }
            if !headers.isEmpty {
                object["headers"] = .array(
                    headers.map { .object(["name": .string($0.name), "value": .string($0.value)]) }
                )
            }
            switch response.body {
            case .data(let data) where data.isEmpty:
                break
            case .data(let data):
                if let text = String(data: data, encoding: .utf8) {
                    object["body"] = .string(text)
                } else {
                    object["base64"] = .string(data.base64EncodedString())
                }
            case .json(let value):
                object["json"] = value
            case .file(let url):
                object["file"] = .string(filePath(url))
            }
        }
        if let fault = response.fault, response.failure == nil { object["fault"] = fault.configuration }
        if response.latency > .zero { object["latencyMs"] = milliseconds(response.latency) }
        switch response.pacing {
        case .duration(let duration)?: object["durationMs"] = milliseconds(duration)
        case .bandwidth(let bytesPerSecond)?: object["bandwidth"] = .integer(Int64(bytesPerSecond))
        case nil: break
        }
        return .object(object)
    }

    /// The path relative to the base directory when the file is inside it, else absolute.
    private func filePath(_ url: URL) -> String {
        let path = url.standardizedFileURL.path
        guard let baseDirectory else { return path }
        let base = baseDirectory.standardizedFileURL.path
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    private func milliseconds(_ duration: Duration) -> JSONValue {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        if nanoseconds % 1_000_000 == 0 { return .integer(nanoseconds / 1_000_000) }
        return .number(Double(nanoseconds) / 1_000_000)
    }
}
