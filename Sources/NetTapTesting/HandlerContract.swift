import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Checks that a handler keeps the contract every handler must keep, whatever else it does (see
/// `TransactionHandler`'s implementation requirements).
///
/// Four cases run, each on a fresh handler in its own ``HandlerHarness``: an answer from below, a failure from
/// below, the app cancelling before the answer, and the app cancelling while the body streams. In each the
/// handler must call `next` at most once, return, fail only with a `URLError` or a cancellation, close the body
/// it read from below (read it to its end, or cancel it once the app has gone), leave its answer readable to the
/// end, and leave no sleep pending.
///
/// ```swift
/// @Test func myHandlerKeepsTheContract() async {
///     let violations = await HandlerContract.violations(of: { MyHandler() }, request: URLRequest(url: url))
///     #expect(violations == [])
/// }
/// ```
public enum HandlerContract {
    /// Runs the contract's cases on fresh handlers.
    ///
    /// Each case uses a clock on which every sleep comes due at once, so handlers that delay are checked without
    /// waiting.
    ///
    /// - Parameters:
    ///   - make: Makes a fresh handler for each case.
    ///   - request: The request sent.
    ///   - body: The body answered from below; 2 KiB of text by default.
    ///   - limit: How long each case waits, in real time, for the handler's work under way to end (see
    ///     ``HandlerHarness/finish(waitingUpTo:)``); 10 s by default.
    /// - Returns: One line per violation, naming the case; empty when the handler keeps the contract.
    public static func violations(
        of make: () -> any TransactionHandler,
        request: URLRequest,
        body: Data = Data(repeating: 0x61, count: 2048),
        waitingUpTo limit: Duration = .seconds(10)
    ) async -> [String] {
        var found: [String] = []
        for contractCase in ContractCase.all(body: body) {
            found += await check(contractCase, make(), request, limit)
        }
        return found
    }

    /// Runs one case: starts the request, plays `below` when the handler passes it on, reads a handler's own
    /// answer, and collects what went wrong and what was left over.
    private static func check(
        _ contractCase: ContractCase,
        _ handler: any TransactionHandler,
        _ request: URLRequest,
        _ limit: Duration
    ) async -> [String] {
        let clock = ManualClock()
        clock.jumpsToDeadlines = true
        let harness = HandlerHarness(handler: handler, clock: clock)
        var problems: [String] = []
        do {
            switch await harness.start(request) {
            case .passedOn: try await contractCase.below(harness)
            case .answered: try await contractCase.above(harness)
            case .failed(let error): throw error
            }
        } catch {
            if let problem = unacceptable(error) { problems.append(problem) }
        }
        do {
            try await harness.finish(waitingUpTo: limit)
        } catch let HandlerHarnessError.leftovers(found) {
            problems += found
        } catch {
            problems.append("finish failed: \(error)")
        }
        return problems.map { "\(contractCase.name): \($0)" }
    }

    /// Why an error a handler ended with breaks the contract; `nil` for a `URLError` or a cancellation.
    private static func unacceptable(_ error: any Error) -> String? {
        if error is URLError || error is CancellationError { return nil }
        return "failed with \(error) (\(type(of: error))); a handler fails with a URLError or a cancellation"
    }
}

/// One case of ``HandlerContract``: what happens below a handler that passed the request on, and above one that
/// answered itself.
private struct ContractCase: Sendable {
    let name: String
    let below: @Sendable (HandlerHarness) async throws -> Void
    let above: @Sendable (HandlerHarness) async throws -> Void

    static func all(body: Data) -> [ContractCase] {
        [
            ContractCase(name: "an answer from below") { harness in
                try await harness.respond(statusCode: 200, headers: ["Content-Type": "text/plain"], body: body)
                _ = try await harness.readBody()
            } above: { harness in
                _ = try await harness.readBody()
            },
            ContractCase(name: "a failure from below") { harness in
                try harness.fail(URLError(.cannotConnectToHost))
                _ = try await harness.answer()
                _ = try await harness.readBody()
            } above: { harness in
                _ = try await harness.readBody()
            },
            ContractCase(name: "the app cancelling before the answer") { harness in
                harness.cancel()
                _ = try await harness.answer()
            } above: { harness in
                harness.cancel()
            },
            ContractCase(name: "the app cancelling while the body streams") { harness in
                try harness.sendHead(statusCode: 200, headers: ["Content-Type": "text/plain"])
                harness.sendChunk(body.prefix(body.count / 2))
                harness.cancel()
                _ = try await harness.answer()
            } above: { harness in
                harness.cancel()
            },
        ]
    }
}
