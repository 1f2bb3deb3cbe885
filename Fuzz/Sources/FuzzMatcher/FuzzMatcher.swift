import Foundation
import FuzzSupport

@testable import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Parses matcher patterns and a matcher's JSON configuration from the input, then matches a request with them.
///
/// The input's NUL-separated fields are, in order: a URL pattern (`RequestMatcher.url(_:)`), a path glob
/// (`.pathGlob`), a path regular expression (`.pathRegex`), a host pattern (`HostPattern(_:)`), a redaction
/// name pattern (`RedactionPattern.wildcard` and `.regex`), the request's URL, its method, a header
/// `Name: value` line, its body, and last a matcher's JSON configuration (`RequestMatcher(configuration:)`).
/// Missing fields are empty; the URL is cut to 40 characters and the string the host and redaction patterns
/// are tried on (the URL field again) to 24, so a pattern that backtracks exponentially (the caller's own
/// problem) cannot pass for a hang. A thrown error is a correct rejection; a trap, hang or leak is a bug.
///
/// - Parameters:
///   - start: The input's first byte.
///   - count: The input's length in bytes.
/// - Returns: 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMatcher(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    let request = makeRequest(input)
    // A caller's regular expression may backtrack exponentially; keep what it is run on short.
    let subject = String(input.string(5).prefix(24))

    var matchers: [RequestMatcher] = [.pathGlob(input.string(1))]
    if let matcher = try? RequestMatcher.url(input.string(0)) { matchers.append(matcher) }
    if let matcher = try? RequestMatcher.pathRegex(input.string(2)) { matchers.append(matcher) }
    matchers.append(.host(input.string(3)))
    if let pattern = try? HostPattern(input.string(3)) {
        _ = pattern.matches(host: subject)
        _ = pattern.matches(host: request?.url?.host ?? "")
    }
    _ = RedactionPattern.wildcard(input.string(4)).matches(subject)
    if let pattern = try? RedactionPattern.regex(input.string(4)) { _ = pattern.matches(subject) }
    if input.fields.count > 9, let node = try? ConfigNode(parsing: input.bytes(9), source: "matcher.json"),
        let matcher = try? RequestMatcher(configuration: node)
    {
        matchers.append(matcher)
    }
    if let request {
        for matcher in matchers {
            _ = matcher.matches(request)
            _ = matcher.explain(request)
        }
        _ = matchers.reduce(RequestMatcher.any, &&).explain(request)
    }
    return 0
}

private func makeRequest(_ input: FuzzInput) -> URLRequest? {
    // Short, for the same reason as the regular expressions' subject.
    guard let url = URL(string: String(input.string(5).prefix(40))) else { return nil }
    var request = URLRequest(url: url)
    request.httpMethod = input.string(6).isEmpty ? "GET" : input.string(6)
    let header = input.string(7)
    if let colon = header.firstIndex(of: ":") {
        request.addValue(
            String(header[header.index(after: colon)...]),
            forHTTPHeaderField: String(header[..<colon])
        )
    }
    if input.fields.count > 8 { request.httpBody = input.bytes(8) }
    return request
}
