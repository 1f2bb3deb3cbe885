import Foundation
import Testing

@testable import NetTapCore

@Suite("Random UUIDs for transaction identifiers")
struct UUIDRandomTests {
    @Test("version 4 and the RFC 9562 variant, as UUID() makes them, and no two alike in 10,000")
    func versionVariantAndUniqueness() {
        var seen = Set<UUID>()
        for _ in 0..<10_000 {
            let id = UUID.random()
            let text = id.uuidString
            let characters = Array(text)
            #expect(characters[14] == "4", "\(text)")
            #expect("89AB".contains(characters[19]), "\(text)")
            #expect(UUID(uuidString: text) == id)
            seen.insert(id)
        }
        #expect(seen.count == 10_000)
    }
}
