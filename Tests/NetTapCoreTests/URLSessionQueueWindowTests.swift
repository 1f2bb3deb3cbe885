import Foundation
import NetTapTesting
import Testing

@testable import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An app's handler that calls URLSession before its first `await`: it creates (and cancels) a task on another
/// session, which waits synchronously on URLSession's process-wide queue.
private struct CreatesTaskFirst: TransactionHandler {
    let name = "creates-task"
    let sideSession: URLSession

    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        let task = sideSession.dataTask(with: URL(string: "http://side.invalid/")!)
        task.cancel()
        context.answer(by: name)
        return HandlerResponse(statusCode: 200, body: .string("answered after creating a task"))
    }
}

/// Records whether its synchronous part ran inside the window.
private final class WindowProbe: TransactionHandler, StartsInline, @unchecked Sendable {
    let name = "probe"
    let sawWindow = Locked<Bool?>(nil)

    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        sawWindow.withLock { $0 = URLSessionQueueWindow.isCurrent }
        return try await next(request)
    }
}

/// A handler NetTap does not know, recording whether it started inside the window.
private final class UnknownProbe: TransactionHandler, @unchecked Sendable {
    let name = "unknown"
    let sawWindow = Locked<Bool?>(nil)

    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        sawWindow.withLock { $0 = URLSessionQueueWindow.isCurrent }
        context.answer(by: name)
        return HandlerResponse(statusCode: 204)
    }
}

@Suite("Handlers start on URLSession's queue only when they are known not to call URLSession")
struct URLSessionQueueWindowTests {
    @Test("the window is marked only while its body runs, and nests")
    func marksTheThread() {
        #expect(!URLSessionQueueWindow.isCurrent)
        var inside: [Bool] = []
        URLSessionQueueWindow.run {
            inside.append(URLSessionQueueWindow.isCurrent)
            URLSessionQueueWindow.run { inside.append(URLSessionQueueWindow.isCurrent) }
            inside.append(URLSessionQueueWindow.isCurrent)
        }
        #expect(inside == [true, true, true])
        #expect(!URLSessionQueueWindow.isCurrent)
    }

    #if compiler(>=6.2)
    @Test("leaving the window moves the task off the marked thread")
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    func leaveMovesTheTask() async {
        let (stream, continuation) = AsyncStream<(Bool, Bool)>.makeStream()
        URLSessionQueueWindow.run {
            _ = Task.immediate {
                let before = URLSessionQueueWindow.isCurrent
                await URLSessionQueueWindow.leave()
                continuation.yield((before, URLSessionQueueWindow.isCurrent))
                continuation.finish()
            }
        }
        var iterator = stream.makeAsyncIterator()
        let observed = await iterator.next()
        #expect(observed?.0 == true, "Task.immediate starts on the marked thread")
        #expect(observed?.1 == false)
    }
    #endif

    @Test("an app's handler that creates a URLSession task before awaiting answers instead of trapping")
    func appHandlerCallingURLSession() async throws {
        let interceptor = NetTapInterceptor()
        let side = URLSession(configuration: .ephemeral)
        defer { side.invalidateAndCancel() }
        interceptor.handlers = [CreatesTaskFirst(sideSession: side)]
        let session = interceptor.makeSession()
        defer { session.invalidateAndCancel() }
        let (data, response) = try await session.data(from: URL(string: "http://stub.invalid/")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == "answered after creating a task")
    }

    @Test("NetTap's own stages start inline; an unknown handler after them starts off the queue")
    func knownStagesInlineUnknownOff() async throws {
        let interceptor = NetTapInterceptor()
        let known = WindowProbe()
        let unknown = UnknownProbe()
        interceptor.handlers = [known, unknown]
        let session = interceptor.makeSession()
        defer { session.invalidateAndCancel() }
        let (_, response) = try await session.data(from: URL(string: "http://stub.invalid/")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 204)
        #if os(Linux)
        #expect(known.sawWindow.withLock { $0 } == true, "startLoading runs on URLSession's queue")
        #endif
        #expect(unknown.sawWindow.withLock { $0 } == false)
    }
}
