import Foundation
import NetTapCore
import NetTapReplay

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The cassette the `mock` scenario replays: one real answer of the small file, recorded at the start of the run.
enum BenchCassette {
    /// Records one GET of `url` through NetTap into a new cassette file (HAR 1.2).
    ///
    /// The recording goes through a private ``NetTapInterceptor`` with a `ReplayHandler` in mode `.all`, so it is the
    /// forwarding transport's real answer from the server, written by `CassetteWriter`.
    /// - Parameters:
    ///   - url: The small file's URL.
    ///   - file: Where to write the cassette (`.har`); it must not exist yet.
    ///   - expectedBody: The bytes the server must answer with.
    /// - Throws: ``BenchError`` when the answer differs or no file was written; the session's or the writer's error.
    static func record(_ url: URL, into file: URL, expectedBody: Data) async throws {
        let recorder = try ReplayHandler(cassette: file, mode: .all)
        let interceptor = NetTapInterceptor()
        interceptor.handlers = [recorder]
        let session = interceptor.makeSession()
        defer { session.finishTasksAndInvalidate() }
        try await Fetch.get(
            URLRequest(url: url),
            on: session,
            expectedBytes: expectedBody.count,
            expectedBody: expectedBody
        )
        try await recorder.flush()
        let entries = try Cassette.load(contentsOf: file).entries.count
        guard entries == 1 else {
            throw BenchError("cassette \(file.path): \(entries) entries recorded, expected 1")
        }
    }
}
