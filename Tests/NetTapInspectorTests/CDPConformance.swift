import Foundation

/// A checker of CDP messages against the protocol's published definitions (Fixtures/cdp-network.json): every
/// required parameter present, no parameter the definition does not declare, every value of the declared type,
/// enum values among those listed, objects of a `$ref` type checked property by property.
struct CDPConformance {
    private var events: [String: [[String: Any]]] = [:]
    private var types: [String: [String: Any]] = [:]

    init() throws {
        guard let url = Bundle.module.url(forResource: "cdp-network", withExtension: "json", subdirectory: "Fixtures"),
            let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any],
            let domains = root["domains"] as? [[String: Any]]
        else { throw CocoaError(.fileReadCorruptFile) }
        for domain in domains {
            let name = domain["domain"] as? String ?? ""
            for type in domain["types"] as? [[String: Any]] ?? [] {
                types["\(name).\(type["id"] as? String ?? "")"] = type
            }
            for event in domain["events"] as? [[String: Any]] ?? [] {
                events["\(name).\(event["name"] as? String ?? "")"] = event["parameters"] as? [[String: Any]] ?? []
            }
        }
    }

    /// The violations of one event message (`{"method":…,"params":{…}}`), each naming the JSON path.
    func violations(ofEvent text: String) -> [String] {
        guard let message = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let method = message["method"] as? String, let params = message["params"] as? [String: Any]
        else { return ["not an event message: \(text.prefix(80))"] }
        guard let parameters = events[method] else { return ["\(method): not a Network event NetTap may send"] }
        return check(params, against: parameters, domain: "Network", path: method)
    }

    private func check(
        _ object: [String: Any],
        against properties: [[String: Any]],
        domain: String,
        path: String
    )
        -> [String]
    {
        var problems: [String] = []
        let declared = Set(properties.compactMap { $0["name"] as? String })
        for key in object.keys where !declared.contains(key) { problems.append("\(path).\(key): not declared") }
        for property in properties {
            guard let name = property["name"] as? String else { continue }
            guard let value = object[name] else {
                if property["optional"] as? Bool != true { problems.append("\(path).\(name): required, missing") }
                continue
            }
            problems += check(value, as: property, domain: domain, path: "\(path).\(name)")
        }
        return problems
    }

    private func check(_ value: Any, as definition: [String: Any], domain: String, path: String) -> [String] {
        if let reference = definition["$ref"] as? String {
            let key = reference.contains(".") ? reference : "\(domain).\(reference)"
            guard let type = types[key] else { return ["\(path): unknown type \(reference)"] }
            return check(value, as: type, domain: String(key.split(separator: ".")[0]), path: path)
        }
        let type = definition["type"] as? String ?? ""
        switch type {
        case "string":
            guard let text = value as? String else { return ["\(path): not a string"] }
            if let allowed = definition["enum"] as? [String], !allowed.contains(text) {
                return ["\(path): \(text) is not one of \(allowed)"]
            }
            return []
        case "integer":
            guard let number = value as? NSNumber, !Self.isBoolean(value),
                number.doubleValue == number.doubleValue.rounded()
            else { return ["\(path): not an integer"] }
            return []
        case "number":
            return value is NSNumber && !Self.isBoolean(value) ? [] : ["\(path): not a number"]
        case "boolean":
            return Self.isBoolean(value) ? [] : ["\(path): not a boolean"]
        case "array":
            guard let items = value as? [Any] else { return ["\(path): not an array"] }
            let element = definition["items"] as? [String: Any] ?? [:]
            return items.enumerated().flatMap {
                check($0.element, as: element, domain: domain, path: "\(path)[\($0.offset)]")
            }
        case "object":
            guard let object = value as? [String: Any] else { return ["\(path): not an object"] }
            guard let properties = definition["properties"] as? [[String: Any]] else { return [] }
            return check(object, against: properties, domain: domain, path: path)
        default:
            return []
        }
    }

    /// Whether JSONSerialization read `true` or `false` (a number 0 or 1 also casts to `Bool`).
    private static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return value is Bool }
        return String(cString: number.objCType) == "c"
    }
}
