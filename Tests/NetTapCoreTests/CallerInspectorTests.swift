import Foundation
import Testing

@testable import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private final class DataDelegate: NSObject, URLSessionDataDelegate {}

/// These tests fail loudly when swift-corelibs-foundation renames the internals NetTap reads on Linux (`session`, `workQueue`, `knownBody`, the task registry's `behaviours`).
///
/// When they fail, NetTap still works but falls back to its safe paths; update `CallerInspector` for the new toolchain.
@Suite("Caller inspection (Linux internals)")
struct CallerInspectorTests {
    let url = URL(string: "http://127.0.0.1:9/never")!

    #if canImport(FoundationNetworking)
    /// Inspects on the task's work queue, as `startLoading` does: the session registers a new task
    /// asynchronously on that queue, so this also waits for the registration.
    private func inspectOnWorkQueue(_ task: URLSessionTask) async throws -> CallerInfo {
        let queue = try #require(CallerInspector.inspect(task).workQueue)
        return await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: CallerInspector.inspect(task)) }
        }
    }

    @Test("a delegate session's plain data task streams to the delegate")
    func delegateTaskStreams() async throws {
        let session = URLSession(configuration: .default, delegate: DataDelegate(), delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: url)
        let info = try await inspectOnWorkQueue(task)
        #expect(info.session === session)
        #expect(info.workQueue != nil)
        #expect(info.delivery == .streamToDelegate)
        #expect(info.isDownload == false)
    }

    @Test("a completion-handler task gets one buffer even when the session has a data delegate")
    func completionHandlerBuffers() async throws {
        let session = URLSession(configuration: .default, delegate: DataDelegate(), delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: url) { _, _, _ in }
        #expect(try await inspectOnWorkQueue(task).delivery == .singleBuffer)
    }

    @Test("a session without delegate gets one buffer")
    func noDelegateBuffers() {
        let session = URLSession(configuration: .default)
        defer { session.invalidateAndCancel() }
        #expect(CallerInspector.inspect(session.dataTask(with: url)).delivery == .singleBuffer)
    }

    @Test("an upload task's data body is visible")
    func uploadData() throws {
        let session = URLSession(configuration: .default)
        defer { session.invalidateAndCancel() }
        var request = URLRequest(url: url)
        request.httpMethod = "PUT"
        let task = session.uploadTask(with: request, from: Data("payload".utf8))
        guard case .data(let data) = CallerInspector.inspect(task).uploadBody else {
            Issue.record("upload body not found")
            return
        }
        #expect(data == Data("payload".utf8))
    }

    @Test("an upload task's file body is visible")
    func uploadFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nettap-upload-\(UUID().uuidString)")
        try Data("file-payload".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let session = URLSession(configuration: .default)
        defer { session.invalidateAndCancel() }
        let task = session.uploadTask(with: URLRequest(url: url), fromFile: file)
        guard case .file(let found) = CallerInspector.inspect(task).uploadBody else {
            Issue.record("upload file not found")
            return
        }
        #expect(found == file)
    }

    @Test("the work queues of different sessions never run at the same time (one process-wide serial queue)")
    func workQueuesAreSerialised() async throws {
        // NetTap calls an app task's client from its forwarding session's work queue; that is safe only while
        // every session's work queue targets one serial queue (swift-corelibs-foundation 6.0 and later).
        let first = URLSession(configuration: .default)
        let second = URLSession(configuration: .default)
        defer {
            first.invalidateAndCancel()
            second.invalidateAndCancel()
        }
        let queues = try [first, second].map { session in
            try #require(CallerInspector.storedProperty("workQueue", of: session) as? DispatchQueue)
        }
        let overlap = Locked((active: 0, most: 0))
        let group = DispatchGroup()
        for index in 0..<400 {
            queues[index % 2].async(group: group) {
                overlap.withLock { state in
                    state.active += 1
                    state.most = max(state.most, state.active)
                }
                var spin = 0
                for value in 0..<20_000 { spin &+= value }
                _ = spin
                overlap.withLock { $0.active -= 1 }
            }
        }
        await withCheckedContinuation { continuation in group.notify(queue: .global()) { continuation.resume() } }
        #expect(overlap.current.most == 1)
    }

    @Test("a download task is recognised")
    func download() {
        let session = URLSession(configuration: .default)
        defer { session.invalidateAndCancel() }
        #expect(CallerInspector.inspect(session.downloadTask(with: url)).isDownload)
    }
    #endif
}
