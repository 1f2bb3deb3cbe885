import Foundation
import Testing

/// The image files in `Fixtures`, made with Pillow 13.0 (see `Fixtures/README.md`).
enum Fixture {
    static func data(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
        return try Data(contentsOf: url)
    }
}
