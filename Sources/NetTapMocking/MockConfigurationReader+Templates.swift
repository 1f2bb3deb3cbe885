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
            // Reading for `nettap config check` goes on past this stub: its other templates are checked too.
            if let diagnostics = node.diagnostics { Self.reportTemplateErrors(in: node, to: diagnostics) }
            throw place.error(error.error.description)
        }
        return copy
    }

    /// Reports the error of every string under a response's templated keys that does not compile, each at its
    /// own JSON path, so a check lists them all rather than the first.
    private static func reportTemplateErrors(in node: ConfigNode, to diagnostics: ConfigurationDiagnostics) {
        for key in ["status", "headers", "body", "json", "redirect"] {
            guard let child = try? node.child(key) else { continue }
            for (text, place) in strings(in: child) {
                do {
                    _ = try TextTemplate(parsing: text)
                } catch {
                    diagnostics.report(place.error(error.description), from: place)
                }
            }
        }
    }

    /// The first string equal to `text` in a node's value, as a node at its path (depth first, members by name).
    private static func locate(_ text: String, in node: ConfigNode) -> ConfigNode? {
        strings(in: node).first { $0.0 == text }?.1
    }

    /// Every string in a node's value with its node, depth first, members by name.
    private static func strings(in node: ConfigNode) -> [(String, ConfigNode)] {
        switch node.value {
        case .string(let value):
            return [(value, node)]
        case .array(let elements):
            return elements.enumerated().flatMap { index, element in
                strings(in: node.descendant(element, at: JSONPath.appending(index, to: node.path)))
            }
        case .object(let members):
            return members.sorted { $0.key < $1.key }.flatMap { key, member in
                strings(in: node.descendant(member, at: JSONPath.appending(key, to: node.path)))
            }
        default:
            return []
        }
    }
}
