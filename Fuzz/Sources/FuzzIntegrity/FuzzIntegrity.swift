import Foundation
import FuzzSupport

@testable import NetTapCore
@testable import NetTapIntegrity

/// Reads the input as an integrity manifest and each of its NUL-separated fields as SRI metadata and hex.
///
/// The whole input goes to `IntegrityManifest(configuration:)` (a JSON object mapping URL paths to SRI values);
/// each field to `IntegrityMetadata(sri:)`, `IntegrityDigest(sri:)` and `IntegrityDigest.fromHex(_:)`, and an
/// accepted value is checked against the digest of the field's own bytes. A thrown error is a correct
/// rejection; a trap, hang or leak is a bug.
///
/// - Parameters:
///   - start: The input's first byte.
///   - count: The input's length in bytes.
/// - Returns: 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIntegrity(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    if let node = try? ConfigNode(parsing: input.data, source: "integrity.json"),
        let manifest = try? IntegrityManifest(configuration: node)
    {
        for (path, _) in (try? node.members()) ?? [] {
            _ = manifest.expectation(forPath: path)?.algorithm
        }
    }
    for (index, field) in input.fields.enumerated() {
        let text = input.string(index)
        _ = try? IntegrityDigest(sri: text)
        _ = IntegrityDigest.fromHex(text)?.description
        if let metadata = try? IntegrityMetadata(sri: text),
            let digest = try? IntegrityDigest.of(field, using: metadata.algorithm)
        {
            _ = metadata.accepts(digest)
        }
    }
    return 0
}
