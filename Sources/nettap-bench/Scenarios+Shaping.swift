import Foundation
import NetTapCore
import NetTapShaping

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An optional scenario (`--only shaping`, about 1–2 minutes) that checks NetTapShaping against its targets.
///
/// - Download: for 64 KiB/s, 256 KiB/s and 1 MiB/s, `rate × 10 s` bytes of `/big.bin` (`Range: bytes=0-N`,
///   RFC 9110 §14) through an interceptor whose ``ShapingHandler`` paces downloads to that rate; achieved rate
///   = bytes / elapsed (request sent → last byte), target ±5 %.
/// - Upload: `rate × 10 s` bytes POSTed to `/upload` (nginx answers 204) with upload pacing at that rate;
///   achieved rate = bytes / elapsed, target ±5 %.
/// - Latency: 20 small GETs with a 100 ms latency profile and 20 through the same interceptor unshaped,
///   alternating; median shaped − median unshaped, target 100 ms ± 10 ms.
/// - CPU: this process's CPU time during the 1 MiB/s download / its wall time, as % of one core, target < 5 %.
struct ShapingBench {
    /// The server's base URL.
    let base: URL

    /// The transfer length each rate is held for.
    private static let seconds = 10
    /// The rates, bytes per second, with their labels.
    private static let rates: [(label: String, bytesPerSecond: Int)] = [
        ("64 KiB/s", 64 * 1024), ("256 KiB/s", 256 * 1024), ("1 MiB/s", 1024 * 1024),
    ]

    /// One line of the shaping table.
    private struct Line {
        var figure: String
        var target: Double
        var achieved: Double
        var decimals: Int
        /// The error column: a percentage for rates, a difference for the others.
        var errorText: String
        var toleranceText: String
        var isMet: Bool
    }

    /// Runs the downloads, uploads, latency and CPU checks and prints the table.
    /// - Throws: ``BenchError`` for an unexpected status or byte count, or the session's error.
    func run() async throws {
        let shaper = NetworkShaper()
        let interceptor = NetTapInterceptor()
        interceptor.captureLog.capacity = 10
        interceptor.handlers = [ShapingHandler(shaper: shaper)]
        let session = interceptor.makeSession()
        defer { session.finishTasksAndInvalidate() }
        var lines: [Line] = []
        var cpuPercent = Double.nan

        for (label, rate) in Self.rates {
            shaper.setProfile(NetworkProfile(downloadBytesPerSecond: rate))
            let byteCount = rate * Self.seconds
            let cpuBefore = ProcessMetrics.cpuSeconds ?? .nan
            let elapsed = try await download(byteCount: byteCount, on: session)
            let cpu = (ProcessMetrics.cpuSeconds ?? .nan) - cpuBefore
            if rate == 1024 * 1024 { cpuPercent = cpu / elapsed * 100 }
            lines.append(Self.rateLine("download \(label)", target: rate, bytes: byteCount, seconds: elapsed))
            Log.detail(
                "download \(label): \(byteCount) bytes in \(Report.format(elapsed, decimals: 3)) s, "
                    + "CPU \(Report.format(cpu, decimals: 3)) s"
            )
        }
        for (label, rate) in Self.rates {
            shaper.setProfile(NetworkProfile(uploadBytesPerSecond: rate))
            let byteCount = rate * Self.seconds
            let elapsed = try await upload(byteCount: byteCount, on: session)
            lines.append(Self.rateLine("upload \(label)", target: rate, bytes: byteCount, seconds: elapsed))
            Log.detail("upload \(label): \(byteCount) bytes in \(Report.format(elapsed, decimals: 3)) s")
        }

        let added = try await addedLatency(shaper: shaper, session: session)
        lines.append(
            Line(
                figure: "added latency, median of 20 (ms)",
                target: 100,
                achieved: added,
                decimals: 1,
                errorText: Report.signed(added - 100, decimals: 1) + " ms",
                toleranceText: "± 10 ms",
                isMet: abs(added - 100) <= 10
            )
        )
        lines.append(
            Line(
                figure: "CPU pacing 1 MiB/s download (% of a core)",
                target: 5,
                achieved: cpuPercent,
                decimals: 2,
                errorText: "—",
                toleranceText: "< 5 %",
                isMet: cpuPercent < 5
            )
        )
        print("")
        print(Self.render(lines))
        let met = lines.filter(\.isMet).count
        print("")
        print("shaping: \(met) of \(lines.count) targets met")
    }

    /// One rate line: achieved = bytes / seconds, error in % of the target, met within ±5 %.
    private static func rateLine(_ figure: String, target: Int, bytes: Int, seconds: Double) -> Line {
        let achieved = Double(bytes) / seconds
        let error = (achieved / Double(target) - 1) * 100
        return Line(
            figure: figure + " (B/s)",
            target: Double(target),
            achieved: achieved,
            decimals: 0,
            errorText: Report.signed(error, decimals: 2) + " %",
            toleranceText: "± 5 %",
            isMet: abs(error) <= 5
        )
    }

    /// GETs the first `byteCount` bytes of `/big.bin` and checks a 206 with exactly that many bytes.
    /// - Returns: Seconds from sending to the last byte.
    private func download(byteCount: Int, on session: URLSession) async throws -> Double {
        var request = URLRequest(url: base.appendingPathComponent("big.bin"))
        request.setValue("bytes=0-\(byteCount - 1)", forHTTPHeaderField: "Range")
        request.timeoutInterval = 120
        let clock = ContinuousClock()
        let start = clock.now
        let (data, response) = try await session.data(for: request)
        let elapsed = (clock.now - start).seconds
        let status = (response as? HTTPURLResponse)?.statusCode ?? -1
        guard status == 206, data.count == byteCount else {
            throw BenchError(
                "shaping: download answered \(status) with \(data.count) bytes, expected 206 with \(byteCount)"
            )
        }
        return elapsed
    }

    /// POSTs `byteCount` bytes to `/upload` and checks the 204.
    /// - Returns: Seconds from sending to the answer.
    private func upload(byteCount: Int, on session: URLSession) async throws -> Double {
        var request = URLRequest(url: base.appendingPathComponent("upload"))
        request.httpMethod = "POST"
        request.httpBody = Data(repeating: 0x5A, count: byteCount)
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        request.timeoutInterval = 120
        let clock = ContinuousClock()
        let start = clock.now
        let (_, response) = try await session.data(for: request)
        let elapsed = (clock.now - start).seconds
        let status = (response as? HTTPURLResponse)?.statusCode ?? -1
        guard status == 204 || status == 200 else {
            throw BenchError("shaping: upload answered \(status), expected 204 (is /upload configured in nginx?)")
        }
        return elapsed
    }

    /// Median shaped (100 ms latency) minus median unshaped small GET, in milliseconds; the two alternate.
    private func addedLatency(shaper: NetworkShaper, session: URLSession) async throws -> Double {
        let request = URLRequest(url: base.appendingPathComponent("small.txt"))
        let clock = ContinuousClock()
        shaper.setProfile(nil)
        for _ in 0..<5 { try await Fetch.get(request, on: session, expectedBytes: nil) }
        var shaped: [Double] = []
        var plain: [Double] = []
        for index in 0..<40 {
            let isShaped = index.isMultiple(of: 2)
            shaper.setProfile(isShaped ? NetworkProfile(latency: .milliseconds(100)) : nil)
            let start = clock.now
            try await Fetch.get(request, on: session, expectedBytes: nil)
            let milliseconds = (clock.now - start).seconds * 1000
            if isShaped { shaped.append(milliseconds) } else { plain.append(milliseconds) }
        }
        shaper.setProfile(nil)
        let shapedStats = Stats(shaped)
        let plainStats = Stats(plain)
        Log.detail(
            "small GET median: shaped \(Report.format(shapedStats.median, decimals: 2)) ms, unshaped "
                + "\(Report.format(plainStats.median, decimals: 2)) ms (n=\(shaped.count) each)"
        )
        return shapedStats.median - plainStats.median
    }

    /// The table, aligned, one line per figure.
    private static func render(_ lines: [Line]) -> String {
        let header = ["figure", "target", "achieved", "error", "tolerance", "result"]
        var cells = [header]
        for line in lines {
            cells.append([
                line.figure,
                Report.format(line.target, decimals: line.decimals),
                Report.format(line.achieved, decimals: line.decimals),
                line.errorText,
                line.toleranceText,
                line.isMet ? "PASS" : "MISS",
            ])
        }
        return Columns.render(cells)
    }
}
