import Foundation
import NetTapCore

extension MockConfigurationReader {
    /// A templated stub's response with its templates compiled.
    ///
    /// Header values, a `body` or `json` body, a `redirect` and a string `status` are compiled; an error is reported
    /// at the JSON path of the string that holds the template.
    func compiled(_ response: StubResponse, _ node: ConfigNode) throws -> StubResponse {
        guard response.failure == nil else { return response }
        let status = try node.child("status")?.value.stringValue
        var copy = response
        do {
            copy.template = try ResponseTemplate(compiling: response, status: status)
        } catch {
            let place: ConfigNode
            if !error.path.isEmpty, let json = try node.child("json") {
                place = json.descendant(.string(error.error.template), at: json.path + error.path)
            } else {
                place = Self.locate(error.error.template, in: node) ?? node
            }
            throw place.error(error.error.description)
        }
        return copy
    }

    /// The first string equal to `text` in a node's value, as a node at its path (depth first, members by name).
    private static func locate(_ text: String, in node: ConfigNode) -> ConfigNode? {
        switch node.value {
        case .string(let value):
            return value == text ? node : nil
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                let child = node.descendant(element, at: JSONPath.appending(index, to: node.path))
                if let found = locate(text, in: child) { return found }
            }
            return nil
        case .object(let members):
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                let child = node.descendant(member, at: JSONPath.appending(key, to: node.path))
                if let found = locate(text, in: child) { return found }
            }
            return nil
        default:
            return nil
        }
    }
}
