import Foundation
import NetTapCLI
import NetTapCore
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("nettap fetch --profile")
struct FetchProfileTests {
    @Test("--profile offline fails with URLError -1009, exits 1, and httpbin sees no request")
    func offline() async throws {
        let server = try await HTTPBin.shared()
        let base = server.baseURL.absoluteString
        let testID = "cli-profile-offline-\(UUID().uuidString)"
        let interceptor = NetTapInterceptor()
        let run = await runCLI(
            ["fetch", base + "/get", "--profile", "offline", "-H", "\(HTTPBin.testIDHeader): \(testID)"],
            interceptor: interceptor
        )
        #expect(run.exitCode == .failure)
        #expect(
            run.standardError
                == "nettap: fetch: \(base)/get: request failed: URLError -1009 (notConnectedToInternet): "
                + "The Internet connection appears to be offline.\n"
        )
        #expect(run.standardOutput.isEmpty)
        #expect(interceptor.handlers.isEmpty, "the shaping handler is gone after the request")
        // A later unshaped request with its own ID: once httpbin logged it, the shaped one had its chance.
        let barrierID = "cli-profile-barrier-\(UUID().uuidString)"
        let barrier = await runCLI(["fetch", base + "/get", "-H", "\(HTTPBin.testIDHeader): \(barrierID)"])
        #expect(barrier.exitCode == .success)
        #expect(await server.waitForRequests(withTestID: barrierID, count: 1).count == 1)
        #expect(server.requests(withTestID: testID).isEmpty, "httpbin saw no request")
    }

    @Test("--profile 3g (200 ms, 97,500 B/s) delivers 48,750 bytes from httpbin in at least 0.7 s")
    func threeG() async throws {
        let server = try await HTTPBin.shared()
        let base = server.baseURL.absoluteString
        let testID = "cli-profile-3g-\(UUID().uuidString)"
        let start = ContinuousClock.now
        let run = await runCLI([
            "fetch", base + "/bytes/48750", "--profile", "3G", "-H", "\(HTTPBin.testIDHeader): \(testID)",
        ])
        let elapsed = ContinuousClock.now - start
        #expect(run.exitCode == .success, "\(run.standardError)")
        #expect(run.standardOutput == "[binary body: 48750 bytes, application/octet-stream; -o PATH saves it]\n")
        #expect(run.standardError.hasSuffix(", answered by network, shaped by 3G\n"))
        #expect(run.standardError.hasPrefix("200 OK, 48750 bytes, "))
        // 200 ms latency + 48,750 bytes at 97,500 B/s = 0.7 s; an upper bound that only catches a hang.
        #expect(elapsed >= .milliseconds(650) && elapsed < .seconds(120), "took \(elapsed)")
        #expect(await server.waitForRequests(withTestID: testID, count: 1).map(\.path) == ["/bytes/48750"])
    }

    @Test("an unknown --profile name is a usage error that lists the preset names")
    func unknownName() async {
        let run = await runCLI(["fetch", "http://127.0.0.1:1/x", "--profile", "4g"])
        #expect(run.exitCode == .usage)
        let names =
            "100%-loss, 3g, dns-failure, dsl, edge, fast-3g, lte, none, offline, server-down, slow-3g, timeout, very-bad-network, wifi"
        #expect(run.standardError.hasPrefix("nettap: fetch: --profile \"4g\": "), "\(run.standardError)")
        #expect(run.standardError.contains("unknown profile; use one of \(names)"), "\(run.standardError)")
    }
}
