import Foundation

extension BodyFault {
    /// The keys of a fault object: `type` and `afterBytes`.
    package static let configurationKeys: Set<String> = ["type", "afterBytes"]

    /// The type names a file may use: `drop-connection` (or `dropConnection`), `truncate`, `stall`.
    package static let configurationTypeNames = ["drop-connection", "dropConnection", "truncate", "stall"]

    /// Reads a fault: `{"type": "drop-connection" | "truncate" | "stall", "afterBytes": 4096}`, or the type name
    /// alone for a fault before the first body byte (`"stall"`).
    ///
    /// `afterBytes` is a number of bytes or a size with its unit (`"4 KiB"`, see
    /// ``ConfigNode/byteCountValue(minimum:)``); 0 when absent.
    ///
    /// - Parameter node: The string or object, for example `$.mocks.stubs[0].response.fault`.
    /// - Throws: ``ConfigurationError`` naming the file and JSON path of an unknown type or key, a missing type, a
    ///   wrong type of value, or a size that is not one.
    package init(configuration node: ConfigNode) throws {
        if case .string = node.value {
            self = try Self.named(node, afterBytes: 0)
            return
        }
        guard case .object = node.value else {
            throw node.typeMismatch(expected: "a fault object such as {\"type\": \"truncate\", \"afterBytes\": 400}")
        }
        try node.rejectUnknownKeys(allowed: Self.configurationKeys)
        let bytes = try node.byteCount("afterBytes") ?? 0
        self = try Self.named(node.requiredChild("type"), afterBytes: Int64(bytes))
    }

    /// The fault in its configuration form: `{"type": "truncate", "afterBytes": 400}`.
    package var configuration: JSONValue {
        .object(["type": .string(typeName), "afterBytes": .integer(afterBytes)])
    }

    /// The fault a type name names.
    private static func named(_ node: ConfigNode, afterBytes bytes: Int64) throws -> BodyFault {
        let name = try node.stringValue()
        switch name {
        case "drop-connection", "dropConnection": return .dropConnection(afterBytes: bytes)
        case "truncate": return .truncate(afterBytes: bytes)
        case "stall": return .stall(afterBytes: bytes)
        default:
            throw node.error(
                "unknown fault \"\(name)\"; expected one of drop-connection (or dropConnection), truncate, stall"
            )
        }
    }
}
