import Foundation
import NetTapCore
import NetTapStore

/// An optional scenario (`--only store`, a few seconds) that measures NetTapStore's insert rate.
///
/// Records `count` finished transactions, each with a distinct 1 KiB response body, through
/// ``TransactionStore/record(_:)`` (the writer actor's default batching: 500 transactions or 250 ms) into a new
/// temporary file, then waits for ``TransactionStore/flush()``. The rate is transactions / (first record → flush
/// returned), over three runs (the median is reported); target ≥ 5,000 per second. Needs no server.
struct StoreBench {
    /// Transactions per run.
    let count: Int

    /// Runs the measurement and prints the table.
    /// - Throws: ``StoreError`` when the store cannot be written, or ``BenchError`` when rows are missing.
    func run() async throws {
        var rates: [Double] = []
        var fileBytes = 0
        for run in 1...3 {
            let (rate, bytes) = try await measure()
            rates.append(rate)
            fileBytes = bytes
            Log.detail("store run \(run): \(count) transactions, \(Report.format(rate, decimals: 0)) per second")
        }
        let median = rates.sorted()[rates.count / 2]
        let isMet = median >= 5_000
        print("")
        print(
            Columns.render([
                ["figure", "target", "achieved", "result"],
                [
                    "store inserts, 1 KiB bodies (transactions/s, median of 3)", "≥ 5000",
                    Report.format(median, decimals: 0), isMet ? "PASS" : "MISS",
                ],
            ])
        )
        print("")
        print("store: \(count) transactions per run; file \(fileBytes / 1024) KiB after the last run")
    }

    private func measure() async throws -> (rate: Double, fileBytes: Int) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("nettap-bench-store-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("captures.sqlite")
        let store = try TransactionStore(url: url)
        let transactions = (0..<count).map(Self.transaction)
        let clock = ContinuousClock()
        let start = clock.now
        for transaction in transactions { store.record(transaction) }
        try await store.flush()
        let elapsed = start.duration(to: clock.now)
        let stored = try await store.count()
        guard stored == count else { throw BenchError("store: \(stored) of \(count) transactions stored") }
        let (seconds, attoseconds) = elapsed.components
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        return (Double(count) / (Double(seconds) + Double(attoseconds) / 1e18), size)
    }

    /// A finished GET with a distinct 1 KiB response body.
    private static func transaction(_ index: Int) -> CapturedTransaction {
        let url = URL(string: "https://api.example.com/items/\(index)?page=\(index % 10)") ?? URL(fileURLWithPath: "/")
        var body = Data(repeating: UInt8(truncatingIfNeeded: index), count: 1024)
        body.replaceSubrange(0..<8, with: withUnsafeBytes(of: index) { Data($0) })
        return CapturedTransaction(
            request: CapturedRequest(method: "GET", url: url, headers: ["Accept": "application/json"]),
            response: CapturedResponse(
                statusCode: 200,
                headers: ["Content-Type": "application/json", "Content-Length": "1024"],
                url: url,
                body: CapturedBody(data: body)
            ),
            timings: Timings(startDate: Date(), requestSent: 0.4, firstByte: 3.2, end: 3.9),
            state: .completed
        )
    }
}
