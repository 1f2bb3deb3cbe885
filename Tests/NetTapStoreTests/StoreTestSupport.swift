import Foundation
import NetTapCore
import Testing

@testable import NetTapStore

/// A fresh empty directory under the system's temporary directory.
func makeStoreDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("nettap-store-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A fresh store file URL (not created yet) in its own temporary directory.
func makeStoreURL() throws -> URL {
    try makeStoreDirectory().appendingPathComponent("captures.sqlite")
}

/// A finished transaction with the given facts; the response body is `body` when given.
func makeTransaction(
    method: String = "GET",
    url: String = "https://api.example.com/v1/items?page=2",
    status: Int? = 200,
    start: Date = Date(),
    answeredBy: String = CapturedTransaction.answeredByNetwork,
    requestBody: Data? = nil,
    body: Data? = Data("{\"ok\":true}".utf8),
    findings: [Finding] = [],
    state: CapturedTransaction.State = .completed,
    error: TransactionError? = nil
) -> CapturedTransaction {
    let address = URL(string: url) ?? URL(fileURLWithPath: "/")
    return CapturedTransaction(
        request: CapturedRequest(
            method: method,
            url: address,
            headers: ["Accept": "application/json", "X-Trace": "1"],
            body: requestBody.map { CapturedBody(data: $0) }
        ),
        response: status.map {
            CapturedResponse(
                statusCode: $0,
                headers: ["Content-Type": "application/json"],
                url: address,
                body: body.map { CapturedBody(data: $0) }
            )
        },
        redirects: [],
        timings: Timings(startDate: start, requestSent: 1.5, firstByte: 12.25, end: 20.75),
        error: error,
        answeredBy: answeredBy,
        annotations: ["note": "kept"],
        state: state,
        findings: findings
    )
}

/// Runs one SQL query on a store file through a connection of its own and returns the first column as text.
func rawText(_ url: URL, _ sql: String) throws -> String? {
    let database = try Database(path: url.path, access: .readWrite)
    return try database.text(sql)
}

/// The permission bits of a file (for example 0o600).
func permissions(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return try #require(attributes[.posixPermissions] as? Int)
}
