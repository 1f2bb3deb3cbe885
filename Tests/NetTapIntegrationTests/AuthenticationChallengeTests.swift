import Foundation
import NetTapCore
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers every authentication challenge by cancelling it, and reports how the task ended.
private final class CancellingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let (outcome, continuation) = AsyncStream.makeStream(of: Int.self)
    private let lock = NSLock()
    private var status = 0

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let code = (error as? URLError)?.errorCode ?? (error as NSError?)?.code ?? 0
        continuation.yield(code == 0 ? (task.response as? HTTPURLResponse)?.statusCode ?? -1 : code)
    }
}

@Suite("Authentication challenges")
struct AuthenticationChallengeTests {
    /// The forwarding session refuses the inner challenge (its completion must not run on URLSession's queue:
    /// refusing cancels the inner task, which waits on that queue) and relays the 401; the app's own delegate then
    /// gets the challenge exactly as without NetTap.
    @Test("a 401 with WWW-Authenticate Basic reaches an app delegate that cancels the challenge, alike")
    func basicChallengeCancelled() async throws {
        let server = try await HTTPBin.shared()
        let url = server.url("/basic-auth/user/secret")
        func run(_ configuration: URLSessionConfiguration) async -> Int? {
            let delegate = CancellingDelegate()
            let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
            session.dataTask(with: url).resume()
            return await withDeadline(.seconds(60)) {
                var result = 0
                for await value in delegate.outcome {
                    result = value
                    break
                }
                return result
            }
        }
        let direct = await run(.default)
        let nettap = await run(NetTapInterceptor.shared.makeConfiguration())
        #expect(direct != nil, "direct did not finish")
        #expect(nettap == direct)
    }
}
