import Foundation
import NetTapAudit
import NetTapCore
import NetTapMocking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DemoCommand {
    /// The app's own hosts in the findings pass: `*.nettap.example` and `nettap.example` (`AuditHandler`'s
    /// first-party list; personal data sent elsewhere is reported).
    package static let firstPartyHosts = ["nettap.example", "*.nettap.example"]

    /// The size of the findings pass's banner image: 600 KiB (614,400 bytes), over the audit's 500 KiB limit.
    package static let bannerSize = 600 * 1024

    /// One request of the findings pass and the rule it is expected to trip.
    package struct FindingStep: Sendable {
        /// The request.
        package var step: Step
        /// Extra request header fields.
        package var headers: [String: String]
        /// The `AuditRule` the request must trip (it may trip others too).
        package var expectedRule: AuditRule
    }

    /// The requests of the findings pass, all sent by the async caller and answered by `MockHandler` stubs.
    package static let findingSteps: [FindingStep] = [
        FindingStep(
            step: Step(
                caller: .async,
                method: "POST",
                url: "http://api.nettap.example/v1/login",
                body: #"{"user":"ada","password":"correct horse"}"#
            ),
            headers: [:],
            expectedRule: .plaintextCredentials
        ),
        FindingStep(
            step: Step(caller: .async, method: "GET", url: baseURL + "/v1/search?q=pencils&password=hunter22"),
            headers: [:],
            expectedRule: .queryPassword
        ),
        FindingStep(
            step: Step(
                caller: .async,
                method: "POST",
                url: "https://collect.tracker.example/v1/events",
                body: #"{"event":"checkout","email":"ada@example.com"}"#
            ),
            headers: [:],
            expectedRule: .piiEmail
        ),
        FindingStep(
            // AWS's own documentation example key id: the shape of a real one, valid nowhere.
            step: Step(caller: .async, method: "GET", url: baseURL + "/v1/export?key=AKIAIOSFODNN7EXAMPLE"),
            headers: [:],
            expectedRule: .tokenPattern
        ),
        FindingStep(
            step: Step(caller: .async, method: "GET", url: baseURL + "/v1/banner.png"),
            headers: ["Accept": "image/png"],
            expectedRule: .imageOversized
        ),
    ]

    /// The outcome of the findings pass.
    package struct FindingsResult: Sendable {
        /// One row per step of ``findingSteps``.
        package var rows: [Row]

        /// The index of the first request whose capture lacks its expected rule, or `nil` when each has it.
        package var firstMissingRule: Int? {
            rows.indices.first { index in
                let expected = findingSteps[index].expectedRule.id
                return !(rows[index].transaction?.findings ?? []).contains { $0.rule == expected }
            }
        }
    }

    /// A PNG of ``bannerSize`` bytes whose header says 2400 × 1600 pixels: the signature and an `IHDR` chunk
    /// (PNG spec §11.2.2), then zeros; enough for the audit, which reads only the header and counts bytes.
    package static var bannerImage: Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        bytes += Array("IHDR".utf8)
        for value in [UInt32(2400), UInt32(1600)] {
            bytes += withUnsafeBytes(of: value.bigEndian) { Array($0) }
        }
        bytes += [8, 6, 0, 0, 0]
        return Data(bytes) + Data(count: bannerSize - bytes.count)
    }

    /// Sends ``findingSteps`` through an `AuditHandler` (first party: ``firstPartyHosts``) in front of a
    /// `MockHandler` whose stubs answer each one: the login sets a session cookie (over `http`), the banner is a
    /// 600 KiB PNG, the rest answer small JSON bodies.
    ///
    /// - Parameter interceptor: The interceptor to send through; its handlers are replaced.
    /// - Returns: The rows.
    package static func runFindings(through interceptor: NetTapInterceptor) async -> FindingsResult {
        let json: HeaderFields = ["Content-Type": "application/json"]
        let stubs = [
            Stub(
                "login",
                matching: .host("api.nettap.example") && .path("/v1/login"),
                response: .data(
                    Data(#"{"ok":true}"#.utf8),
                    headers: ["Content-Type": "application/json", "Set-Cookie": "session=4f2c9e1ab77d0c3e; Path=/"]
                )
            ),
            Stub(
                "search",
                matching: .path("/v1/search"),
                response: .data(Data(#"{"results":[]}"#.utf8), headers: json)
            ),
            Stub(
                "tracker",
                matching: .host("collect.tracker.example"),
                response: .data(Data(#"{"received":1}"#.utf8), headers: json)
            ),
            Stub(
                "export",
                matching: .path("/v1/export"),
                response: .data(Data(#"{"rows":3}"#.utf8), headers: json)
            ),
            Stub(
                "banner",
                matching: .path("/v1/banner.png"),
                response: .data(bannerImage, headers: ["Content-Type": "image/png"])
            ),
        ]
        interceptor.handlers = [
            AuditHandler(firstPartyHosts: firstPartyHosts),
            MockHandler(mocks: MockSet(stubs: stubs), unmatched: .fail),
        ]
        var rows: [Row] = []
        for item in findingSteps {
            rows.append(await send(item.step, headers: item.headers, through: interceptor))
        }
        return FindingsResult(rows: rows)
    }

    /// The findings table (URL, status, bytes, rules found), then each finding with its severity, location and
    /// explanation, then what the capture keeps of the secrets: the login body, the search URL and the export URL
    /// (whose AWS key id is redacted by its shape) as stored.
    ///
    /// - Parameter result: The pass's outcome.
    /// - Returns: Lines ending with a newline.
    package static func findingsReport(_ result: FindingsResult) -> String {
        var table = TextTable(
            headings: ["URL", "STATUS", "BYTES", "FINDINGS"],
            alignments: [.left, .right, .right, .left]
        )
        for row in result.rows {
            let rules = (row.transaction?.findings ?? []).map(\.rule)
            var unique: [String] = []
            for rule in rules where !unique.contains(rule) { unique.append(rule) }
            // The URL as captured: a password or key in the query shows redacted, as everything NetTap prints.
            table.rows.append([
                row.method + " " + (row.transaction?.request.url.absoluteString ?? row.url),
                row.statusCode.map { "\($0)" } ?? "ERR",
                "\(row.byteCount)",
                unique.isEmpty ? "-" : unique.joined(separator: ", "),
            ])
        }
        var text = table.rendered + "\n"
        for row in result.rows {
            for finding in row.transaction?.findings ?? [] {
                text +=
                    "  [\(finding.severity.rawValue)] \(finding.rule) at \(finding.location ?? "-") of "
                    + "\(row.method) \(URL(string: row.url)?.host ?? row.url): \(finding.message)\n"
            }
        }
        if let login = result.rows.first?.transaction,
            let body = login.request.body.map({ String(decoding: $0.data, as: UTF8.self) })
        {
            text += "\nThe capture keeps no secret (redaction is on by default): the login body reads \(body),\n"
        }
        if result.rows.count > 3, let search = result.rows[1].transaction, let export = result.rows[3].transaction {
            text +=
                "the search URL \(search.request.url.absoluteString) and, the key found by its shape,\n"
                + "the export URL \(export.request.url.absoluteString).\n"
        }
        return text
    }
}
