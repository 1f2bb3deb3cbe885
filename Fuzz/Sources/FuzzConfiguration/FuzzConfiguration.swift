import Foundation
import FuzzSupport

@testable import NetTapConfiguration
@testable import NetTapCore

/// Parses the input as a `nettap.json` document and reads every section from it, without the file system.
///
/// Before reading, the document is made safe to read in a loop: the `cache` section is dropped (reading it
/// creates the cache folder), and every file path (the values of `path`, `file`, `directory` and `manifest`,
/// and the string values of a `files` object) loses a leading `/` or `~` and every `..`, so it resolves
/// inside a base folder that does not exist. A thrown `ConfigurationError` is a correct rejection; a trap,
/// hang or leak is a bug.
///
/// - Parameters:
///   - start: The input's first byte.
///   - count: The input's length in bytes.
/// - Returns: 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    guard let parsed = try? ConfigNode(parsing: input.data, source: "nettap.json") else { return 0 }
    var value = confined(parsed.value, key: nil)
    if case .object(var sections) = value {
        sections["cache"] = nil
        value = .object(sections)
    }
    let root = ConfigNode(value: value, source: "nettap.json")
    let base = URL(fileURLWithPath: "/nonexistent-nettap-fuzz", isDirectory: true)
    if let configuration = try? NetTapConfiguration(configuration: root, baseDirectory: base) {
        _ = configuration.sections
    }
    return 0
}

/// Keys whose string values NetTap reads as file or folder paths.
private let pathKeys: Set<String> = ["path", "file", "directory", "manifest"]

/// `value` with every file path made relative and free of `..`.
private func confined(_ value: JSONValue, key: String?) -> JSONValue {
    switch value {
    case .string(let text) where key.map(pathKeys.contains) == true:
        return .string(relativePath(text))
    case .object(let members):
        var result: [String: JSONValue] = [:]
        for (name, member) in members {
            if name == "files", case .object(let files) = member {
                result[name] = .object(files.mapValues { confinedFile($0) })
            } else {
                result[name] = confined(member, key: name)
            }
        }
        return .object(result)
    case .array(let elements):
        return .array(elements.map { confined($0, key: key) })
    default:
        return value
    }
}

private func confinedFile(_ value: JSONValue) -> JSONValue {
    if case .string(let text) = value { return .string(relativePath(text)) }
    return confined(value, key: nil)
}

private func relativePath(_ text: String) -> String {
    var path = text.replacingOccurrences(of: "..", with: "__")
    while let first = path.first, first == "/" || first == "~" { path.removeFirst() }
    return path
}
