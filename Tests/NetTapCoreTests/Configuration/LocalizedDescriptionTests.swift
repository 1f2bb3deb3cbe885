import Foundation
import NetTapCore
import Testing

@Suite("Errors people see: localizedDescription names the input and the place")
struct LocalizedDescriptionTests {
    @Test("a configuration error's localizedDescription is its one-line description")
    func configuration() throws {
        let error = ConfigurationError(
            source: "nettap.json",
            path: "$.mocks.stubs[0].name",
            message: "expected a string"
        )
        #expect(error.localizedDescription == "nettap.json: $.mocks.stubs[0].name: expected a string")
        let thrown: any Error = error
        #expect(thrown.localizedDescription == error.description)
    }

    @Test("a matcher error's localizedDescription is its one-line description")
    func matcher() throws {
        do {
            _ = try RequestMatcher.pathRegex("(a")
            Issue.record("a bad regex was accepted")
        } catch {
            #expect(error.localizedDescription.hasPrefix("invalid regular expression \"(a\""))
        }
    }
}
