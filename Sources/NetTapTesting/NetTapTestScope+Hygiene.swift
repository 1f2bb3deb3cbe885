import Foundation
import NetTapCore
import NetTapMocking
import NetTapReplay

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetTapTestScope {
    /// Checks that every stub answered at least one request; reports each stub that never did, at the line
    /// that declared it.
    ///
    /// A stub declared with ``stub(_:_:_:fileID:filePath:line:column:)`` is reported at that call, one from
    /// `withNetTap`'s `stubs:` or `scenarios:` at the `withNetTap` line, and one added through ``mocks``
    /// directly at this call. Scenario stubs count too, active or not. Under the `.record` unmatched policy, a
    /// stub the scope did not see declared is a recording, and is left out.
    /// Hits count from when a stub was added, or from the last `MockSet.resetCounters()`. The check
    /// `withNetTap(checkUnusedStubs: true)` makes when the scope ends leaves out what this call reported.
    /// - Parameters:
    ///   - fileID: The caller's file ID (leave the default).
    ///   - filePath: The caller's file path (leave the default).
    ///   - line: The caller's line (leave the default).
    ///   - column: The caller's column (leave the default).
    /// - Returns: Whether every stub was used.
    @discardableResult
    public func expectNoUnusedStubs(
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: Int = #line,
        column: Int = #column
    ) -> Bool {
        let location = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        return checkUnusedStubs(at: location, onlyUnreported: false)
    }

    /// Checks that every entry of the scope's cassette was played; reports the entries no request replayed,
    /// naming the cassette file and each entry's JSON path, method and URL.
    ///
    /// Passes when the scope has no cassette, or its mode replays nothing (see
    /// `ReplayHandler.unplayedEntries`). The check `withNetTap(checkUnplayedEntries: true)` makes when the
    /// scope ends leaves out what this call reported.
    /// - Parameters:
    ///   - fileID: The caller's file ID (leave the default).
    ///   - filePath: The caller's file path (leave the default).
    ///   - line: The caller's line (leave the default).
    ///   - column: The caller's column (leave the default).
    /// - Returns: Whether every entry was played.
    @discardableResult
    public func expectNoUnplayedEntries(
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: Int = #line,
        column: Int = #column
    ) -> Bool {
        let location = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        return checkUnplayedEntries(at: location, onlyUnreported: false)
    }

    /// Reports the stubs with no hits, grouped by the line that declared them (this location when unknown).
    ///
    /// - Returns: Whether there were none.
    func checkUnusedStubs(at location: TestSourceLocation, onlyUnreported: Bool) -> Bool {
        let unused = mocks.stubHits.filter { $0.hits == 0 }.map {
            (key: ScopeLedger.StubKey(name: $0.stub.name, scenario: $0.scenario), stub: $0.stub)
        }
        .filter { !onlyUnreported || !ledger.wasReported($0.key) }
        .filter { !ledger.recordsStubs || ledger.declaration(of: $0.key) != nil }
        guard !unused.isEmpty else { return true }
        ledger.markReported(stubs: unused.map(\.key))
        let requests = journal.requests
        var groups: [(location: TestSourceLocation, lines: [String])] = []
        for (key, stub) in unused {
            let declaration = ledger.declaration(of: key)
            let place = declaration?.location ?? location
            let line = Self.describeUnused(stub, key: key, declaration: declaration, requests: requests)
            if let index = groups.firstIndex(where: { $0.location.description == place.description }) {
                groups[index].lines.append(line)
            } else {
                groups.append((place, [line]))
            }
        }
        for group in groups {
            let text = group.lines.map { "  " + $0 }.joined(separator: "\n")
            TestFailure.record("\(group.lines.count) stub(s) never used:\n" + text, at: group.location)
        }
        return false
    }

    /// Reports the cassette entries no request replayed.
    ///
    /// - Returns: Whether there were none.
    func checkUnplayedEntries(at location: TestSourceLocation, onlyUnreported: Bool) -> Bool {
        guard let cassette else { return true }
        let unplayed = cassette.unplayedEntries.filter { !onlyUnreported || !ledger.wasReported(entry: $0.index) }
        guard !unplayed.isEmpty else { return true }
        ledger.markReported(entries: unplayed.map(\.index))
        let lines = unplayed.map { "  " + $0.description }
        TestFailure.record(
            "\(unplayed.count) entry(ies) of cassette \(cassette.fileURL.path) never played:\n"
                + lines.joined(separator: "\n"),
            at: location
        )
        return false
    }

    /// Runs the checks `withNetTap` makes when the scope ends, each leaving out what an earlier call
    /// reported.
    func checkAtEnd(unmatched: Bool, stubMisses: Bool, unusedStubs: Bool, unplayedEntries: Bool) {
        let location = ledger.origin
        if unmatched { _ = checkUnmatched(at: location, stubMisses: stubMisses, onlyUnreported: true) }
        if unusedStubs { _ = checkUnusedStubs(at: location, onlyUnreported: true) }
        if unplayedEntries { _ = checkUnplayedEntries(at: location, onlyUnreported: true) }
    }

    /// `stub "cart" in scenario "x" [path == /cart], declared with tap.stub at Tests/CartTests.swift:12:9`, and
    /// how many sent requests its matcher selects, when some do.
    private static func describeUnused(
        _ stub: Stub,
        key: ScopeLedger.StubKey,
        declaration: ScopeLedger.Declaration?,
        requests: [URLRequest]
    ) -> String {
        // A stub named after its matcher (`tap.stub(matcher, response)`) is shown by the matcher alone.
        let isNamedByMatcher = stub.name == stub.matcher.description
        var text = isNamedByMatcher ? "stub" : "stub \"\(stub.name)\""
        if let scenario = key.scenario { text += " in scenario \"\(scenario)\"" }
        text += " [\(stub.matcher.description)]"
        if let declaration {
            text += ", declared with \(declaration.how) at \(declaration.location)"
        } else {
            text += ", added through tap.mocks"
        }
        let selected = requests.filter(stub.matcher.matches).count
        if selected > 0 {
            text +=
                "; its matcher selects \(selected) sent request(s), which it did not answer (another stub won, "
                + "its scenario was not active, or they came before it was added)"
        }
        return text
    }
}
