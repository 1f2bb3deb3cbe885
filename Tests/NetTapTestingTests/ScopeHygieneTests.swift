import Foundation
import NetTapCore
import NetTapMocking
import NetTapReplay
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The text of an issue's comments.
private func text(of issue: Issue) -> String {
    issue.comments.map(\.rawValue).joined()
}

@Suite("withNetTap hygiene: stubs never used, entries never played, requests refused")
struct ScopeHygieneTests {
    let api = "https://api.nettap.example"

    @Test("a stub never used is reported at the tap.stub line that declared it, and a used one is not")
    func unusedStubAtItsDeclaration() async throws {
        let declared = #line + 4
        let file = #fileID
        try await withKnownIssue {
            try await withNetTap(checkUnusedStubs: true) { tap in
                tap.stub("unused", .path("/never"), .text("x"))
                tap.stub("used", .path("/a"), .text("a"))
                _ = try await tap.session.data(from: URL(string: api + "/a")!)
            }
        } matching: { issue in
            issue.sourceLocation?.line == declared && issue.sourceLocation?.fileID == file
                && text(of: issue).hasPrefix(
                    "1 stub(s) never used:\n  stub \"unused\" [path == /never], declared with tap.stub at \(file):\(declared):"
                )
                && !text(of: issue).contains("\"used\"")
        }
    }

    @Test("a stub named after its matcher is reported by its matcher alone")
    func unnamedStub() async throws {
        try await withKnownIssue {
            try await withNetTap(checkUnusedStubs: true) { tap in
                _ = tap.stub(.path("/never"), .text("x"))
            }
        } matching: { issue in
            text(of: issue).hasPrefix("1 stub(s) never used:\n  stub [path == /never], declared with tap.stub at ")
        }
    }

    @Test("stubs and scenario stubs given to withNetTap are reported together at the withNetTap line")
    func unusedArgumentsAtTheScopeLine() async throws {
        let scenario = Scenario(
            "down",
            stubs: [Stub("offline", matching: .any, response: .failure(.notConnectedToInternet))]
        )
        let scopeLine = #line + 2
        try await withKnownIssue {
            try await withNetTap(
                stubs: [Stub("config", matching: .path("/config"), response: .json(["theme": "dark"]))],
                scenarios: [scenario],
                checkUnusedStubs: true
            ) { _ in }
        } matching: { issue in
            let text = text(of: issue)
            return issue.sourceLocation?.line == scopeLine
                && text.hasPrefix("2 stub(s) never used:\n")
                && text.contains(
                    "stub \"config\" [path == /config], declared with the stubs: argument of withNetTap at"
                )
                && text.contains("stub \"offline\" in scenario \"down\" [any request], declared with the scenarios:")
        }
    }

    @Test("unused stubs are not checked by default")
    func offByDefault() async throws {
        try await withNetTap { tap in
            _ = tap.stub("unused", .path("/never"), .text("x"))
        }
    }

    @Test("a stub whose requests another stub answered says so")
    func shadowedStubSaysWhy() async throws {
        try await withKnownIssue {
            try await withNetTap(checkUnusedStubs: true) { tap in
                tap.stub("broad", .pathPrefix("/items"), .text("broad"))
                tap.stub("narrow", .path("/items/1"), .text("narrow"))
                _ = try await tap.session.data(from: URL(string: api + "/items/1")!)
                _ = try await tap.session.data(from: URL(string: api + "/items/1")!)
            }
        } matching: { issue in
            text(of: issue).contains(
                "stub \"broad\" [path starts with /items]"
            ) && text(of: issue).contains("its matcher selects 2 sent request(s), which it did not answer")
        }
    }

    @Test(
        "expectNoUnusedStubs reports a stub added through mocks at its own line, and the end check does not repeat it"
    )
    func explicitUnusedCheck() async throws {
        let checkLine = #line + 4
        try await withKnownIssue {
            try await withNetTap(checkUnusedStubs: true) { tap in
                tap.mocks.add(Stub("direct", matching: .path("/d"), response: .status(204)))
                #expect(tap.expectNoUnusedStubs() == false)
            }
        } matching: { issue in
            issue.sourceLocation?.line == checkLine
                && text(of: issue) == "1 stub(s) never used:\n  stub \"direct\" [path == /d], added through tap.mocks"
        }
    }

    @Test("an entry never played is reported at the withNetTap line with the cassette file and its JSON path")
    func unplayedEntryReported() async throws {
        let cassette = try CassetteFixture([(api + "/a", "a"), (api + "/b", "b")])
        let scopeLine = #line + 2
        try await withKnownIssue {
            try await withNetTap(cassette: cassette.file, recordMode: .none, checkUnplayedEntries: true) { tap in
                let (data, _) = try await tap.session.data(from: URL(string: api + "/a")!)
                #expect(String(decoding: data, as: UTF8.self) == "a")
                #expect(tap.cassette?.unplayedEntries.map(\.index) == [1])
            }
        } matching: { issue in
            issue.sourceLocation?.line == scopeLine
                && text(of: issue)
                    == "1 entry(ies) of cassette \(cassette.file.path) never played:\n"
                    + "  $.log.entries[1]: GET https://api.nettap.example/b (recorded 2024-01-01T00:00:00.000Z)"
        }
    }

    @Test("with every entry played, the unplayed check passes, and a replayed request is not unmatched")
    func everyEntryPlayed() async throws {
        let cassette = try CassetteFixture([(api + "/a", "a")])
        try await withNetTap(cassette: cassette.file, recordMode: .none, checkUnplayedEntries: true) { tap in
            _ = try await tap.session.data(from: URL(string: api + "/a")!)
            #expect(tap.expectNoUnplayedEntries())
            #expect(tap.expectNoUnmatchedRequests())
            #expect(tap.unmatchedRequests.count == 1, "no stub matched it: the cassette answered it")
        }
    }

    @Test("a request the cassette refuses is reported at the withNetTap line with the closest entry and what differed")
    func refusalReportedWithNearMiss() async throws {
        let cassette = try CassetteFixture(name: "api.har", [(api + "/items?page=1", "one")])
        let scopeLine = #line + 2
        try await withKnownIssue {
            try await withNetTap(cassette: cassette.file, recordMode: .none) { tap in
                let error = await #expect(throws: URLError.self) {
                    _ = try await tap.session.data(from: URL(string: api + "/items?page=2")!)
                }
                #expect(error?.code == .resourceUnavailable)
            }
        } matching: { issue in
            let text = text(of: issue)
            return issue.sourceLocation?.line == scopeLine
                && text.hasPrefix(
                    "1 request(s) the cassette api.har could not answer:\n  cassette api.har: no recorded"
                )
                && text.contains(
                    "closest is entry 0, GET https://api.nettap.example/items?page=1: query page=2, recorded page=1"
                )
        }
    }

    @Test("with playback repeats off, a repeated request is refused and reported naming the entry played")
    func repeatRefusedAndReported() async throws {
        let cassette = try CassetteFixture(name: "once.har", [(api + "/a", "a")])
        try await withKnownIssue {
            try await withNetTap(cassette: cassette.file, recordMode: .none, allowPlaybackRepeats: false) { tap in
                _ = try await tap.session.data(from: URL(string: api + "/a")!)
                let error = await #expect(throws: URLError.self) {
                    _ = try await tap.session.data(from: URL(string: api + "/a")!)
                }
                #expect(error?.localizedDescription.contains("matches only entry 0, played already") == true)
            }
        } matching: { issue in
            text(of: issue).contains("1 request(s) the cassette once.har could not answer")
                && text(of: issue).contains("playback repeats are off (allowPlaybackRepeats false, record mode none)")
        }
    }

    @Test("expectNoUnmatchedRequests on the scope's last line takes the report there, and the end check adds none")
    func unmatchedReportedWhereAsked() async throws {
        let lastLine = #line + 5
        try await withKnownIssue {
            try await withNetTap { tap in
                tap.stub("cart", .path("/cart"), .json(["items": []]))
                _ = try? await tap.session.data(from: URL(string: api + "/carts")!)
                tap.expectNoUnmatchedRequests()
            }
        } matching: { issue in
            issue.sourceLocation?.line == lastLine
                && text(of: issue).contains("1 request(s) matched no stub")
                && text(of: issue).contains("closest: stub \"cart\"")
        }
    }

    @Test("a request unmatched after an explicit check is still reported when the scope ends")
    func laterUnmatchedStillReported() async throws {
        let scopeLine = #line + 2
        try await withKnownIssue {
            try await withNetTap { tap in
                _ = try? await tap.session.data(from: URL(string: api + "/first")!)
                tap.expectNoUnmatchedRequests()
                _ = try? await tap.session.data(from: URL(string: api + "/second")!)
            }
        } matching: { issue in
            let text = text(of: issue)
            return (issue.sourceLocation?.line == scopeLine && text.contains("/second") && !text.contains("/first"))
                || (issue.sourceLocation?.line == scopeLine + 2 && text.contains("/first"))
        }
    }

    @Test("withNetTap passes reRecordInterval to its cassette")
    func reRecordIntervalReachesTheCassette() async throws {
        let cassette = try CassetteFixture([(api + "/a", "a")])
        try await withNetTap(cassette: cassette.file, recordMode: .none, reRecordInterval: .seconds(86_400)) { tap in
            #expect(tap.cassette?.isExpired == true)
            #expect(tap.cassette?.reRecordInterval == .seconds(86_400))
            let (data, _) = try await tap.session.data(from: URL(string: api + "/a")!)
            #expect(String(decoding: data, as: UTF8.self) == "a")
        }
    }
}
