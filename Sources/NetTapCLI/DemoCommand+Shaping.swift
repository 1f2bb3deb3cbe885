import Foundation
import NetTapCore
import NetTapMocking
import NetTapShaping

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DemoCommand {
    /// The download the shaping pass sends twice: once unshaped, once through the 3G preset.
    package static let shapingStep = Step(caller: .async, method: "GET", url: baseURL + "/v1/photo.jpg")

    /// The size of the shaping pass's download body: 64 KiB (65,536 bytes).
    package static let shapingBodySize = 64 * 1024

    /// The preset the shaping pass applies: `NetworkProfile/threeG` (NLC "3G").
    package static let shapingProfile = NetworkProfile.threeG

    /// The shaping pass's download body: ``shapingBodySize`` deterministic bytes (`i × 31 + 7` modulo 256).
    package static let shapingBody = Data((0..<shapingBodySize).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })

    /// One row of the shaping table: the profile in force and what the download received.
    package struct ShapingRow: Sendable {
        /// The profile's label: `none` or `3G`.
        package var profile: String
        /// What the caller received and NetTap's capture of it.
        package var result: Row
        /// The caller's elapsed time in milliseconds, from the send until the last body byte was received.
        package var milliseconds: Double

        /// The achieved rate in kilobits per second (1 kbit = 1,000 bits): bytes received × 8 / elapsed time.
        ///
        /// The elapsed time includes the profile's latency, so a shaped download achieves less than the
        /// preset's bandwidth.
        package var kilobitsPerSecond: Double {
            milliseconds > 0 ? Double(result.byteCount) * 8 / milliseconds : 0
        }
    }

    /// The least time the shaped download can take, in milliseconds: the preset's latency plus the body's size
    /// divided by its download rate.
    package static var shapingMinimumMilliseconds: Double {
        let latency = shapingProfile.latency.components
        let latencyMilliseconds = Double(latency.seconds) * 1000 + Double(latency.attoseconds) / 1e15
        let rate = Double(shapingProfile.downloadBytesPerSecond ?? 0)
        return latencyMilliseconds + (rate > 0 ? Double(shapingBodySize) / rate * 1000 : 0)
    }

    /// Sends ``shapingStep`` twice, answered by a `MockHandler` stub of ``shapingBody``: first with the stub
    /// alone, then with a `ShapingHandler` for ``shapingProfile`` first in the handler list.
    ///
    /// - Parameter interceptor: The interceptor to send through; its handlers are replaced.
    /// - Returns: Two rows, unshaped then shaped.
    package static func runShaping(through interceptor: NetTapInterceptor) async -> [ShapingRow] {
        let url = URL(string: shapingStep.url) ?? URL(fileURLWithPath: "/")
        let stub = Stub(
            "photo",
            matching: StubMatcher.exactRequest(method: shapingStep.method, url: url),
            response: .data(shapingBody, headers: ["Content-Type": "image/jpeg"])
        )
        let mock = MockHandler(mocks: MockSet(stubs: [stub]), unmatched: .fail)
        let shaping = ShapingHandler(shaper: NetworkShaper(profile: shapingProfile), random: SeededRandom(seed: 4))
        var rows: [ShapingRow] = []
        let passes: [(label: String, handlers: [any TransactionHandler])] = [
            ("none", [mock]), ("3G", [shaping, mock]),
        ]
        for (label, handlers) in passes {
            interceptor.handlers = handlers
            let clock = ContinuousClock()
            let start = clock.now
            let result = await send(shapingStep, through: interceptor)
            let elapsed = (clock.now - start).components
            let milliseconds = Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
            rows.append(ShapingRow(profile: label, result: result, milliseconds: milliseconds))
        }
        return rows
    }

    /// The line naming the shaping preset's numbers and where they come from.
    package static var shapingPresetLine: String {
        let rate = shapingProfile.downloadBytesPerSecond ?? 0
        return "3G preset = Network Link Conditioner \"3G\" (NetworkProfile.threeG): 780 kbit/s (\(rate) B/s) down, "
            + "330 kbit/s up, 200 ms added round trip; floor for \(shapingBodySize) bytes: "
            + "\(Formatting.milliseconds(shapingMinimumMilliseconds)) ms"
    }

    /// The shaping table: profile, bytes, the caller's milliseconds and the achieved rate in kbit/s.
    ///
    /// - Parameter rows: The rows.
    /// - Returns: Lines ending with a newline.
    package static func shapingTable(_ rows: [ShapingRow]) -> String {
        var table = TextTable(
            headings: ["PROFILE", "BYTES", "MS", "ACHIEVED RATE"],
            alignments: [.left, .right, .right, .right]
        )
        for row in rows {
            let bytes = row.result.error.map { "ERR \($0.errorCode)" } ?? "\(row.result.byteCount)"
            table.rows.append([
                row.profile, bytes, Formatting.milliseconds(row.milliseconds),
                "\(Formatting.milliseconds(row.kilobitsPerSecond)) kbit/s",
            ])
        }
        return table.rendered
    }

    /// Whether every row received exactly ``shapingBody``.
    static func shapingBytesMatch(_ rows: [ShapingRow]) -> Bool {
        !rows.isEmpty && rows.allSatisfy { $0.result.error == nil && $0.result.data == shapingBody }
    }
}
