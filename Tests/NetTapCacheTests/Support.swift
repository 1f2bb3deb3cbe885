import Foundation
import NetTapCore
import NetTapTesting

@testable import NetTapCache

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A fresh, empty directory under the temporary directory, removed by ``remove()``.
struct ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("nettap-cache-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The names of the files in the directory, sorted.
    var fileNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    /// The file names without the index: entry files and leftovers.
    ///
    /// `index.json.partial` is left out too: the index is written in the background, atomically through it.
    var entryFileNames: [String] { fileNames.filter { $0 != "index.json" && $0 != "index.json.partial" } }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A wall clock the test sets.
final class ManualDate: Sendable {
    private let current: Locked<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = Locked(start)
    }

    var now: Date { current.current }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    var closure: @Sendable () -> Date { { self.now } }
}

/// A network the test can take offline: answers from a closure, or fails with a `URLError` like the platform.
final class SwitchableNetwork: Sendable {
    private let failure = Locked<URLError.Code?>(nil)
    let transport: FakeTransport

    /// A network answering every request with `respond`.
    init(_ respond: @escaping @Sendable (URLRequest) async throws -> HandlerResponse) {
        let failure = failure
        transport = FakeTransport { request in
            if let code = failure.current {
                throw URLError(code, userInfo: [NSURLErrorFailingURLErrorKey: request.url as Any])
            }
            return try await respond(request)
        }
    }

    /// A network answering 200 with `body` and `headers`, the body in two chunks of unknown total length.
    convenience init(body: @escaping @Sendable (URLRequest) -> Data, headers: HeaderFields = [:]) {
        self.init { request in
            let data = body(request)
            let body = ResponseBody.stream(expectedLength: nil) { writer in
                writer.write(data.prefix(data.count / 2))
                writer.write(data.dropFirst(data.count / 2))
                writer.finish()
            }
            return HandlerResponse(statusCode: 200, headers: headers, url: request.url, body: body)
        }
    }

    /// Fails every request from now on with `code`; `nil` brings the network back.
    func fail(with code: URLError.Code?) {
        failure.withLock { $0 = code }
    }
}

/// A handler that fails every request with `URLError(.notConnectedToInternet)` while switched on, as a shaping
/// handler's offline condition does, without calling `next`.
struct OfflineSwitch: TransactionHandler {
    let name = "offline-switch"
    let isOffline = Locked(false)

    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        if isOffline.current { throw URLError(.notConnectedToInternet) }
        return try await next(request)
    }
}

extension URL {
    /// `https://example.com` + `path`.
    static func example(_ path: String) -> URL {
        URL(string: "https://example.com" + path) ?? URL(fileURLWithPath: "/")
    }
}

/// Deterministic bytes of the given size.
func bytes(_ count: Int, seed: UInt8 = 1) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
}
