import Foundation
import NetTapCore
import NetTapMocking

/// What a ``NetTapTestScope`` knows about where its stubs were declared, and which problems a check has
/// already reported, so the check at the end of the scope does not report them again.
///
/// Thread safety: every member may be used from any thread.
final class ScopeLedger: Sendable {
    /// A stub's place in a mock set: its name and scenario (`nil` for a base stub).
    struct StubKey: Hashable, Sendable {
        var name: String
        var scenario: String?
    }

    /// Where a stub was declared, and how.
    struct Declaration: Sendable {
        var location: TestSourceLocation
        /// For example `tap.stub` or `the stubs: argument of withNetTap`.
        var how: String
    }

    private struct State {
        var declarations: [StubKey: Declaration] = [:]
        var reportedUnmatched = 0
        var reportedRefusals = 0
        var reportedStubs: Set<StubKey> = []
        var reportedEntries: Set<Int> = []
    }

    /// The `withNetTap` call.
    let origin: TestSourceLocation
    /// Whether unmatched requests become stubs (the `.record` policy): a stub the scope did not see declared
    /// is then a recording, not one a test wrote.
    let recordsStubs: Bool
    private let state = Locked(State())

    init(origin: TestSourceLocation, recordsStubs: Bool) {
        self.origin = origin
        self.recordsStubs = recordsStubs
    }

    /// Notes where a stub was declared; a later declaration of the same name and scenario replaces it.
    func declare(_ key: StubKey, at location: TestSourceLocation, how: String) {
        state.withLock { $0.declarations[key] = Declaration(location: location, how: how) }
    }

    /// Where a stub was declared, when the scope saw it.
    func declaration(of key: StubKey) -> Declaration? {
        state.withLock { $0.declarations[key] }
    }

    /// The items of a list that grows at its end which no check reported yet; a list shorter than what was
    /// reported was cleared since, and is new in full.
    static func unreported<Item>(_ items: [Item], reported: Int) -> ArraySlice<Item> {
        items.count < reported ? items[...] : items.dropFirst(reported)
    }

    /// How many unmatched requests and cassette refusals were reported.
    var reportedCounts: (unmatched: Int, refusals: Int) {
        state.withLock { ($0.reportedUnmatched, $0.reportedRefusals) }
    }

    /// Notes that the first `unmatched` unmatched requests and `refusals` refusals were reported.
    func markReported(unmatched: Int? = nil, refusals: Int? = nil) {
        state.withLock { state in
            if let unmatched { state.reportedUnmatched = unmatched }
            if let refusals { state.reportedRefusals = refusals }
        }
    }

    /// Whether a stub's non-use was reported.
    func wasReported(_ key: StubKey) -> Bool {
        state.withLock { $0.reportedStubs.contains(key) }
    }

    /// Whether a cassette entry's non-use was reported.
    func wasReported(entry index: Int) -> Bool {
        state.withLock { $0.reportedEntries.contains(index) }
    }

    /// Notes that stubs and entries were reported unused.
    func markReported(stubs: [StubKey] = [], entries: [Int] = []) {
        state.withLock { state in
            state.reportedStubs.formUnion(stubs)
            state.reportedEntries.formUnion(entries)
        }
    }
}
