import Foundation
import NetTapCore
import NetTapTesting
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// NetTapTesting under XCTest: failures arrive as XCTest failures at the test's file and line.
final class XCTestReportingTests: XCTestCase {
    private var failures: [(description: String, file: String, line: Int)] = []

    override func recordFailure(
        withDescription description: String,
        inFile filePath: String,
        atLine lineNumber: Int,
        expected: Bool
    ) {
        failures.append((description, filePath, lineNumber))
    }

    func testWrongCountIsAnXCTestFailureAtTheCallersLine() async throws {
        try await withNetTap { tap in
            tap.stub(.path("/a"), .text("a"))
            _ = try await tap.session.data(from: URL(string: "https://api.nettap.example/a")!)
            XCTAssertTrue(tap.expect(.path("/a"), count: 1))
            let line = #line + 1
            XCTAssertFalse(tap.expect(.path("/b"), count: 2))
            XCTAssertEqual(failures.count, 1)
            XCTAssertEqual(failures.first?.line, line)
            XCTAssertEqual(failures.first?.file, #filePath)
            XCTAssertTrue(
                failures.first?.description.contains("expected exactly 2 request(s) matching path == /b, got 0")
                    ?? false
            )
        }
    }

    func testUnmatchedRequestIsAnXCTestFailureAtTheScopeLine() async throws {
        let line = #line + 1
        try await withNetTap { tap in
            _ = try? await tap.session.data(from: URL(string: "https://api.nettap.example/nothing")!)
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failures.first?.line, line)
        XCTAssertTrue(
            failures.first?.description.contains("no stub matched GET https://api.nettap.example/nothing") ?? false
        )
    }
}
