import Foundation
import NetTapTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The platform's real timeout per caller style, measured once per test process.
///
/// Direct requests to httpbin's `/delay/3` with a 1 s request timeout; shared by every test that compares a
/// simulated timeout with the real one.
let platformTimeouts = Task { () throws -> [CallerStyle: Observed] in
    let server = try await HTTPBin.shared()
    var request = URLRequest(url: server.url("/delay/3"))
    request.timeoutInterval = 1
    let sent = request
    let direct = CallRecorder(interceptor: nil)
    // The timer must fire before the answer: no test keeps URLSession's queue busy meanwhile.
    return await SharedQueueTurns.shared.run {
        var result: [CallerStyle: Observed] = [:]
        for style in CallerStyle.allCases { result[style] = await direct.send(sent, style: style) }
        return result
    }
}
