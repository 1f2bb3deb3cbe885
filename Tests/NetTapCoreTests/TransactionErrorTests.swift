import Foundation
import Testing

@testable import NetTapCore

@Suite("CapturedTransaction errors")
struct TransactionErrorTests {
    @Test("a URLError without a description gets the phrase Apple platforms use")
    func phrase() {
        let error = TransactionError(URLError(.timedOut))
        #expect(error.domain == NSURLErrorDomain)
        #expect(error.code == -1001)
        #expect(error.message == "The request timed out.")
        #expect(error.description == "NSURLErrorDomain -1001: The request timed out.")
    }

    @Test("an error's own description wins over the phrase")
    func ownDescription() {
        let error = TransactionError(
            URLError(
                .cannotConnectToHost,
                userInfo: [NSLocalizedDescriptionKey: "Failed to connect to 127.0.0.1 port 1"]
            )
        )
        #expect(error.code == -1004)
        #expect(error.message == "Failed to connect to 127.0.0.1 port 1")
    }

    @Test("other errors keep their domain and code")
    func otherErrors() {
        let error = TransactionError(CocoaError(.fileReadNoSuchFile))
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == CocoaError.fileReadNoSuchFile.rawValue)
        #expect(!error.message.isEmpty)
    }
}
