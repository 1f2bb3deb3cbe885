import Foundation
import NetTapCore
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Everything the app can read off a failed request, in a form two failures can be compared by: the error's
/// domain, code, type, description, userInfo keys, failing-URL values and underlying error, and what arrived
/// before it.
///
/// The milliseconds in libcurl's "Failed to connect to … after N ms" are the one part that may differ, so they are
/// written `after _ ms`; the URLs are written relative to the request's own URL (`<request>`), so a real failure
/// on one path compares with a simulated one on another.
struct FailureShape: Sendable, Equatable, CustomStringConvertible {
    var error: String
    var isURLError: Bool
    var errorDescription: String
    var keys: [String]
    var failingURL: String
    var failingURLString: String
    var underlying: String
    var status: Int?
    var expectedContentLength: Int64?
    var headers: [String: String]
    var body: Data

    /// The shape of what `observed` saw for a request to `url`.
    init(_ observed: Observed, url: URL) {
        let error = observed.nsError
        let relative = { (text: String) in text.replacingOccurrences(of: url.absoluteString, with: "<request>") }
        let timeless = { (text: String) in
            relative(text).replacingOccurrences(of: "after [0-9]+ ms", with: "after _ ms", options: .regularExpression)
        }
        self.error = error.map { "\($0.domain) \($0.code)" } ?? "none"
        isURLError = observed.error is URLError
        errorDescription = timeless(error?.localizedDescription ?? "")
        keys = (error?.userInfo.keys.map { $0 } ?? []).sorted()
        failingURL = relative("\(error?.userInfo[NSURLErrorFailingURLErrorKey] ?? "-")")
        failingURLString = relative("\(error?.userInfo["NSErrorFailingURLStringKey"] ?? "-")")
        if let inner = error?.userInfo[NSUnderlyingErrorKey] as? NSError {
            underlying = "\(inner.domain) \(inner.code) \(timeless(inner.localizedDescription)) \(inner.userInfo.count)"
        } else {
            underlying = "none"
        }
        status = observed.response?.statusCode
        expectedContentLength = observed.response?.expectedContentLength
        var headers: [String: String] = [:]
        for (name, value) in observed.response?.allHeaderFields ?? [:] {
            guard let name = name as? String, let value = value as? String else { continue }
            headers[name.lowercased()] = value
        }
        self.headers = headers
        body = observed.body
    }

    var description: String {
        "\(error) \"\(errorDescription)\" keys \(keys) url \(failingURL) underlying \(underlying) "
            + "status \(status.map(String.init) ?? "-") body \(body.count) bytes"
    }
}

/// Checks that a simulated failure looks to the app exactly like the real one, field by field.
func expectSameFailure(
    _ simulated: FailureShape,
    as real: FailureShape,
    _ label: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(simulated.error == real.error, "\(label): code", sourceLocation: sourceLocation)
    #expect(simulated.isURLError == real.isURLError, "\(label): type", sourceLocation: sourceLocation)
    #expect(
        simulated.errorDescription == real.errorDescription,
        "\(label): description",
        sourceLocation: sourceLocation
    )
    #expect(simulated.keys == real.keys, "\(label): userInfo keys", sourceLocation: sourceLocation)
    #expect(simulated.failingURL == real.failingURL, "\(label): failing URL", sourceLocation: sourceLocation)
    #expect(
        simulated.failingURLString == real.failingURLString,
        "\(label): failing URL string",
        sourceLocation: sourceLocation
    )
    #expect(simulated.underlying == real.underlying, "\(label): underlying error", sourceLocation: sourceLocation)
    #expect(simulated.status == real.status, "\(label): response before the error", sourceLocation: sourceLocation)
    #expect(
        simulated.expectedContentLength == real.expectedContentLength,
        "\(label): expectedContentLength",
        sourceLocation: sourceLocation
    )
    #expect(simulated.headers == real.headers, "\(label): headers", sourceLocation: sourceLocation)
    #expect(simulated.body == real.body, "\(label): bytes before the error", sourceLocation: sourceLocation)
}
