import Foundation
import NetTapCore
import NetTapShaping
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private let url = URL(string: "http://127.0.0.1:9/data")!

@Suite("ShapingHandler")
struct ShapingHandlerTests {
    @Test(
        "offline, DNS failure and server down fail with their URLError before anything is sent",
        arguments: [
            (NetworkProfile.Condition.offline, URLError.Code.notConnectedToInternet),
            (.dnsFailure, .cannotFindHost),
            (.serverDown, .cannotConnectToHost),
        ]
    )
    func conditionsFailBeforeSending(condition: NetworkProfile.Condition, code: URLError.Code) async throws {
        let transport = FakeTransport()
        let shaper = NetworkShaper(profile: NetworkProfile(condition: condition))
        let harness = PipelineHarness(handlers: [ShapingHandler(shaper: shaper)], transport: transport)
        let error = await #expect(throws: URLError.self) { try await harness.send(URLRequest(url: url)) }
        #expect(error?.code == code)
        #expect(transport.requests.isEmpty)
    }

    #if canImport(FoundationNetworking)
    /// libcurl's wording (FoundationNetworking copies curl's error buffer into the description): checked by hand
    /// with `curl http://nettap-check.invalid/` ("Could not resolve host: nettap-check.invalid"); the refused
    /// connection is compared with a real one in the integration tests.
    private static let wording: [NetworkProfile.Condition?: String] = [
        .offline: "The Internet connection appears to be offline.",
        .dnsFailure: "Could not resolve host: 127.0.0.1",
        .serverDown: "Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server",
        nil: "Recv failure: Connection reset by peer",
    ]
    #else
    private static let wording: [NetworkProfile.Condition?: String] = [
        .offline: "The Internet connection appears to be offline.",
        .dnsFailure: "A server with the specified hostname could not be found.",
        .serverDown: "Could not connect to the server.",
        nil: "The network connection was lost.",
    ]
    #endif

    @Test(
        "each simulated failure is worded as the platform words the real one, with an underlying error",
        arguments: [NetworkProfile.offline, .dnsFailure, .serverDown, .totalLoss]
    )
    func failureWording(profile: NetworkProfile) async throws {
        let harness = PipelineHarness(
            handlers: [ShapingHandler(shaper: NetworkShaper(profile: profile))],
            transport: FakeTransport()
        )
        let error = try #require(await #expect(throws: URLError.self) { try await harness.send(URLRequest(url: url)) })
        let expected = try #require(Self.wording[profile.condition])
        #expect(error.localizedDescription == expected)
        let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
        #expect(underlying?.domain == NSURLErrorDomain)
        #expect(underlying?.code == error.code.rawValue)
    }

    @Test("a timeout hangs on the clock, sends nothing, and ends when the request is cancelled")
    func timeoutHangsUntilCancelled() async throws {
        let clock = ManualClock()
        let transport = FakeTransport()
        let harness = PipelineHarness(
            handlers: [ShapingHandler(shaper: NetworkShaper(profile: .timeout))],
            transport: transport,
            clock: clock
        )
        let task = Task { try await harness.send(URLRequest(url: url)) }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(86_400 * 3))
        await clock.waitForSleepers(count: 1)
        #expect(transport.requests.isEmpty)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(transport.requests.isEmpty)
    }

    @Test("latency delays the request by exactly the profile's duration on the clock")
    func latencyIsExact() async throws {
        let clock = ManualClock()
        let sentAt = Locked<Duration?>(nil)
        let transport = FakeTransport { request in
            sentAt.withLock { $0 = clock.now.offset }
            return HandlerResponse(statusCode: 200)
        }
        let shaper = NetworkShaper(profile: NetworkProfile(latency: .milliseconds(300)))
        let harness = PipelineHarness(handlers: [ShapingHandler(shaper: shaper)], transport: transport, clock: clock)
        let task = Task { try await harness.send(URLRequest(url: url)) }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(299))
        #expect(clock.sleeperCount == 1)
        #expect(transport.requests.isEmpty)
        clock.advance(by: .milliseconds(1))
        let result = try await task.value
        #expect(result.statusCode == 200)
        #expect(sentAt.withLock { $0 } == .milliseconds(300))
    }

    /// Sends `count` requests one after the other, each waiting for its delay, and returns each delay.
    private func delays(seed: UInt64, count: Int, profile: NetworkProfile) async throws -> [Duration] {
        let clock = ManualClock()
        let handler = ShapingHandler(shaper: NetworkShaper(profile: profile), random: SeededRandom(seed: seed))
        let harness = PipelineHarness(handlers: [handler], transport: FakeTransport(), clock: clock)
        var delays: [Duration] = []
        for _ in 0..<count {
            let start = clock.now
            let task = Task { try await harness.send(URLRequest(url: url)) }
            await clock.waitForSleepers(count: 1)
            // Step in 1 ms until the request is through; the delay is the clock's advance.
            var finished = false
            while !finished {
                clock.advance(by: .milliseconds(1))
                finished = clock.sleeperCount == 0
            }
            _ = try await task.value
            delays.append(start.duration(to: clock.now))
        }
        return delays
    }

    @Test("jitter stays within latency…latency + jitter and repeats with the same seed")
    func jitterIsBoundedAndRepeatable() async throws {
        let profile = NetworkProfile(latency: .milliseconds(100), jitter: .milliseconds(50))
        let first = try await delays(seed: 42, count: 20, profile: profile)
        let second = try await delays(seed: 42, count: 20, profile: profile)
        let other = try await delays(seed: 43, count: 20, profile: profile)
        #expect(first == second)
        #expect(first != other)
        for delay in first {
            #expect(delay >= .milliseconds(100) && delay <= .milliseconds(150))
        }
        #expect(Set(first).count > 5)
    }

    private func lossCount(seed: UInt64, requests: Int, rate: Double) async -> (lost: Int, sent: Int) {
        let transport = FakeTransport()
        let handler = ShapingHandler(
            shaper: NetworkShaper(profile: NetworkProfile(failureRate: rate)),
            random: SeededRandom(seed: seed)
        )
        let harness = PipelineHarness(handlers: [handler], transport: transport)
        var lost = 0
        for _ in 0..<requests {
            do {
                _ = try await harness.send(URLRequest(url: url))
            } catch let error as URLError where error.code == .networkConnectionLost {
                lost += 1
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
        return (lost, transport.requests.count)
    }

    @Test("loss fails about the given share of 1,000 requests, the same ones for the same seed, sending none of them")
    func lossIsSeededAndNearTheRate() async throws {
        let first = await lossCount(seed: 7, requests: 1000, rate: 0.1)
        let second = await lossCount(seed: 7, requests: 1000, rate: 0.1)
        #expect(first.lost == second.lost)
        #expect((70...130).contains(first.lost))
        #expect(first.lost + first.sent == 1000)
        let all = await lossCount(seed: 1, requests: 50, rate: 1)
        #expect(all.lost == 50 && all.sent == 0)
    }

    @Test("upload bandwidth delays forwarding by body size over the upload rate")
    func uploadDelayIsProportional() async throws {
        let clock = ManualClock()
        let transport = FakeTransport()
        let shaper = NetworkShaper(profile: NetworkProfile(uploadBytesPerSecond: 1000))
        let harness = PipelineHarness(handlers: [ShapingHandler(shaper: shaper)], transport: transport, clock: clock)
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data(count: 2500)
        let task = Task { try await harness.send(request) }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(2499))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))
        _ = try await task.value
        #expect(transport.requests.first?.httpBody?.count == 2500)
    }

    @Test("100 KB at 10 KB/s arrives at exactly 10 s of clock time, a piece at least every 50 ms")
    func downloadPacing() async throws {
        let clock = ManualClock()
        let payload = Data((0..<100_000).map { UInt8($0 % 251) })
        let transport = FakeTransport(body: payload)
        let shaper = NetworkShaper(profile: NetworkProfile(downloadBytesPerSecond: 10_000))
        let pipeline = Pipeline(handlers: [ShapingHandler(shaper: shaper)], transport: transport)
        let response = try await pipeline.send(URLRequest(url: url), context: TransactionContext(clock: clock))
        var iterator = response.body.makeAsyncIterator()
        var received = Data()
        var steps = 0
        while received.count < payload.count {
            await clock.waitForSleepers(count: 1)
            clock.advance(by: .milliseconds(50))
            steps += 1
            let chunk = try #require(try await iterator.next())
            #expect(chunk.count <= 500)
            received.append(chunk)
            if steps < 200 { #expect(received.count < payload.count) }
        }
        #expect(try await iterator.next() == nil)
        #expect(received == payload)
        #expect(steps == 200)
        #expect(clock.now.offset == .seconds(10))
    }

    @Test("two uploads on one profile share its bandwidth: the second body crosses after the first")
    func uploadsShareTheLink() async throws {
        let clock = ManualClock()
        let sentAt = Locked<[Duration]>([])
        let transport = FakeTransport { _ in
            sentAt.withLock { $0.append(clock.now.offset) }
            return HandlerResponse(statusCode: 204)
        }
        let shaper = NetworkShaper(profile: NetworkProfile(latency: .milliseconds(100), uploadBytesPerSecond: 1000))
        let harness = PipelineHarness(handlers: [ShapingHandler(shaper: shaper)], transport: transport, clock: clock)
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data(count: 1000)
        // A constant copy: a `var` captured by two tasks is a data race to the region checker of a
        // `--sanitize=thread` build (the normal build accepts it).
        let upload = request
        let first = Task { try await harness.send(upload) }
        await clock.waitForSleepers(count: 1)
        let second = Task { try await harness.send(upload) }
        await clock.waitForSleepers(count: 2)
        clock.advance(by: .milliseconds(1_100))
        _ = try await first.value
        #expect(sentAt.current == [.milliseconds(1_100)], "1 s on the uplink, then 100 ms latency")
        clock.advance(by: .milliseconds(1_000))
        _ = try await second.value
        #expect(sentAt.current == [.milliseconds(1_100), .milliseconds(2_100)], "queued behind the first body")
    }

    @Test("a failure the shaper makes is answered by the shaper in the capture, not by the network")
    func failuresAreAnsweredByTheShaper() async throws {
        for profile in [NetworkProfile.offline, .dnsFailure, .serverDown, .totalLoss] {
            let harness = PipelineHarness(
                handlers: [ShapingHandler(shaper: NetworkShaper(profile: profile))],
                transport: FakeTransport()
            )
            let context = TransactionContext()
            await #expect(throws: URLError.self) {
                _ = try await harness.pipeline.send(URLRequest(url: url), context: context)
            }
            #expect(context.answeredBy == "shaping")
        }
    }

    @Test("cancelling a paced body stops the transfer at once and cancels the upstream body")
    func cancellationStopsPacing() async throws {
        let clock = ManualClock()
        let upstreamCancelled = Locked(false)
        let transport = FakeTransport { _ in
            HandlerResponse(
                statusCode: 200,
                body: .stream(expectedLength: nil) { writer in
                    writer.write(Data(count: 100_000))
                    writer.onCancel { upstreamCancelled.withLock { $0 = true } }
                }
            )
        }
        let shaper = NetworkShaper(profile: NetworkProfile(downloadBytesPerSecond: 10_000))
        let pipeline = Pipeline(handlers: [ShapingHandler(shaper: shaper)], transport: transport)
        let response = try await pipeline.send(URLRequest(url: url), context: TransactionContext(clock: clock))
        let reader = Task {
            var count = 0
            for try await chunk in response.body { count += chunk.count }
            return count
        }
        for _ in 0..<3 {
            await clock.waitForSleepers(count: 1)
            clock.advance(by: .milliseconds(50))
        }
        await clock.waitForSleepers(count: 1)
        reader.cancel()
        await #expect(throws: CancellationError.self) { try await reader.value }
        #expect(upstreamCancelled.withLock { $0 })
        // The producer's sleep was cancelled with the body: no one is left waiting on the clock.
        #expect(clock.sleeperCount == 0)
    }
}
