import Foundation
import FuzzSupport
import NetTapHAR

@testable import NetTapAudit
@testable import NetTapCache
@testable import NetTapCore
@testable import NetTapFiles

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Feeds the input to NetTap's HTTP header, cookie, range, entity-tag, date and image-header parsers.
///
/// The input's NUL-separated fields are: header lines (`Name: value`, one per line) for `HeaderFields`, the
/// cookie helpers (`Cookie`, `Set-Cookie`) and the cache's `Vary`/`Age`/`Date` reading; a `Range` value;
/// an `If-None-Match` value; an HTTP date; and a file size in bytes for the range. The whole input is also
/// read as an image header (`ImageDimensions(reading:)`) and as form-encoded text. The internal parsers are
/// reached with `@testable import`, so the modules are built with `-enable-testing`. A trap, hang or leak is
/// a bug.
///
/// - Parameters:
///   - start: The input's first byte.
///   - count: The input's length in bytes.
/// - Returns: 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHeaders(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    var headers = HeaderFields()
    for line in input.string(0).split(separator: "\n") {
        let parts = line.split(separator: ":", maxSplits: 1)
        headers.add(name: String(parts.first ?? ""), value: parts.count > 1 ? String(parts[1]) : "")
    }
    exercise(headers)

    let size = Int64(input.string(4)) ?? Int64(input.bytes(3).count * 97)
    _ = ByteRangeRequest.evaluate(input.string(1), size: size)
    _ = ByteRangeRequest.evaluate(input.string(1), size: Int64(input.bytes(1).count))
    if case .tags(let tags) = EntityTag.parseList(input.string(2)), let first = tags.first {
        _ = tags.map { $0.weaklyMatches(first) || $0.stronglyMatches(first) }
    }
    if let date = HTTPDate.date(from: input.string(3)) { _ = HTTPDate.string(from: date) }

    _ = ImageDimensions(reading: input.data)
    _ = FormURLEncoding.fields(of: input.string(0))
    return 0
}

private func exercise(_ headers: HeaderFields) {
    var headers = headers
    let names = headers.map(\.name)
    _ = SetCookie.parse(headers.values(for: "Set-Cookie"))
    _ = HARCookie.requestCookies(in: headers)
    if let url = URL(string: "https://fuzz.example/a/b") {
        _ = HARCookie.responseCookies(in: headers, url: url)
        var request = URLRequest(url: url)
        for field in headers { request.addValue(field.value, forHTTPHeaderField: field.name) }
        _ = CacheDirectives.hasNoStore(request)
        if case .fields(let varied) = CacheDirectives.vary(headers) {
            _ = CacheDirectives.values(of: varied, in: request)
        }
    }
    _ = CacheDirectives.hasNoStore(headers.values(for: "Cache-Control"))
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    _ = CacheDirectives.initialAge(headers: headers, requestTime: now, responseTime: now.addingTimeInterval(1))
    for name in names {
        _ = headers.contains(name: name.uppercased())
        headers.set(name: name, value: name)
    }
    if let name = names.first { headers.remove(name: name) }
    _ = HeaderFields(Dictionary(headers.map { (AnyHashable($0.name), $0.value as Any) }) { first, _ in first })
}
