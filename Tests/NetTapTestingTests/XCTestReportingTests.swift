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

    func testUnusedStubIsAnXCTestFailureAtTheLineThatDeclaredIt() async throws {
        var declared = 0
        try await withNetTap(checkUnusedStubs: true) { tap in
            declared = #line + 1
            tap.stub("unused", .path("/never"), .text("x"))
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failures.first?.line, declared)
        XCTAssertEqual(failures.first?.file, #filePath)
        XCTAssertTrue(failures.first?.description.contains("stub \"unused\" [path == /never]") ?? false)
    }

    func testUnplayedEntryAndRefusalAreXCTestFailuresAtTheScopeLine() async throws {
        let cassette = try CassetteFixture(name: "xc.har", [("https://api.nettap.example/a", "a")])
        let line = #line + 1
        try await withNetTap(cassette: cassette.file, recordMode: .none, checkUnplayedEntries: true) { tap in
            _ = try? await tap.session.data(from: URL(string: "https://api.nettap.example/b")!)
        }
        XCTAssertEqual(failures.count, 2)
        XCTAssertEqual(failures.map(\.line), [line, line])
        XCTAssertTrue(
            failures.first?.description.contains("1 request(s) the cassette xc.har could not answer") ?? false
        )
        XCTAssertTrue(failures.first?.description.contains("path /b, recorded /a") ?? false)
        XCTAssertTrue(
            failures.last?.description.contains("$.log.entries[0]: GET https://api.nettap.example/a") ?? false
        )
    }

    func testExplicitUnmatchedCheckIsTheOnlyReportAndPointsAtItsLine() async throws {
        var checkLine = 0
        try await withNetTap { tap in
            _ = try? await tap.session.data(from: URL(string: "https://api.nettap.example/nothing")!)
            checkLine = #line + 1
            XCTAssertFalse(tap.expectNoUnmatchedRequests())
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failures.first?.line, checkLine)
        XCTAssertTrue(
            failures.first?.description.contains("no stub matched GET https://api.nettap.example/nothing") ?? false
        )
    }
}
