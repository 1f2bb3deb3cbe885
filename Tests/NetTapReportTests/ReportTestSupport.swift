import Foundation
import NetTapCore

/// Transactions with known numbers, and the real HAR exports beside the repository.
enum Samples {
    static let start = Date(timeIntervalSince1970: 1_750_000_000)

    static func url(_ text: String) -> URL {
        URL(string: text) ?? URL(fileURLWithPath: "/")
    }

    /// A finished transaction starting `offset` seconds after ``start``.
    static func transaction(
        _ method: String = "GET",
        _ address: String,
        status: Int? = 200,
        offset: Double,
        sent: Double? = 1,
        firstByte: Double? = nil,
        end: Double?,
        up: Int = 0,
        down: Int = 0,
        answeredBy: String = CapturedTransaction.answeredByNetwork,
        state: CapturedTransaction.State? = nil,
        requestHeaders: HeaderFields = [:],
        responseHeaders: HeaderFields = ["Content-Type": "text/plain"],
        responseBody: Data? = nil,
        findings: [Finding] = []
    ) -> CapturedTransaction {
        let location = url(address)
        let response = status.map { code in
            CapturedResponse(
                statusCode: code,
                headers: responseHeaders,
                url: location,
                body: responseBody.map { CapturedBody(data: $0) }
                    ?? (down > 0 ? CapturedBody(data: Data(repeating: 0x61, count: down)) : nil)
            )
        }
        return CapturedTransaction(
            request: CapturedRequest(
                method: method,
                url: location,
                headers: requestHeaders,
                body: up > 0 ? CapturedBody(data: Data(repeating: 0x62, count: up)) : nil
            ),
            response: response,
            timings: Timings(
                startDate: start.addingTimeInterval(offset),
                requestSent: sent,
                firstByte: firstByte ?? end.map { $0 / 2 },
                end: end
            ),
            error: status == nil ? TransactionError(domain: NSURLErrorDomain, code: -1004, message: "refused") : nil,
            answeredBy: answeredBy,
            state: state ?? (status == nil ? .failed : .completed),
            findings: findings
        )
    }

    /// `count` small transactions over a few hosts and statuses, one every 10 ms.
    static func many(_ count: Int) -> [CapturedTransaction] {
        (0..<count).map { index in
            let status = [200, 200, 200, 201, 304, 404, 500, 503][index % 8]
            return transaction(
                index % 5 == 0 ? "POST" : "GET",
                "https://api\(index % 4).example.com/items/\(index)?page=\(index % 10)",
                status: status,
                offset: Double(index) / 100,
                end: Double(5 + index % 40),
                up: index % 5 == 0 ? 64 : 0,
                down: 200 + index % 100,
                answeredBy: index % 10 == 0 ? "mock" : CapturedTransaction.answeredByNetwork,
                responseHeaders: ["Content-Type": "application/json"],
                responseBody: Data(#"{"id":\#(index),"name":"item \#(index)","tags":["a","b"]}"#.utf8)
            )
        }
    }
}

/// The real HAR exports: `../shared/fixtures/har` beside the repository, else the copies in the CLI tests.
enum HARFixtures {
    static var folder: URL {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let shared = repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures/har")
        if FileManager.default.fileExists(atPath: shared.appendingPathComponent("chrome.har").path) { return shared }
        return repository.appendingPathComponent("Tests/NetTapCLITests/Fixtures")
    }

    /// The exports of real tools that exist (Firefox and Safari ones are used when someone adds them).
    static var available: [String] {
        ["chrome.har", "charles.har", "insomnia.har", "postdata.har", "with-bom.har", "firefox.har", "safari.har"]
            .filter { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
    }

    /// Handwritten HARs in the shape of Firefox's (133) and Safari's Web Inspector (18) exports.
    ///
    /// They have the exports' quirks: `-1` timings of cached and blocked entries, `ssl` outside `connect`, status 0 for a blocked
    /// request, HTTP/2 pseudo-headers, `_fetchType`/`_priority`/`_transferSize`, a memory-cache entry, a 304 without
    /// a body. They stand in until real exports are added to `../shared/fixtures/har` as `firefox.har` and
    /// `safari.har`.
    static var browserShaped: [URL] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        return ["firefox-shaped.har", "safari-shaped.har"].map { folder.appendingPathComponent($0) }
    }

    /// The repository's `.build` folder, where the browser tests leave their files.
    static var buildFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/nettap-report-tests")
    }
}
