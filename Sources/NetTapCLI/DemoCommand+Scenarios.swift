import Foundation
import NetTapCore
import NetTapMocking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DemoCommand {
    /// The name of the bundled mocks file, in the `MockConfiguration` JSON format.
    package static let mocksResourceName = "demo-mocks.json"

    /// The request the scenario switch sends once per scenario.
    package static let cartStep = Step(caller: .async, method: "GET", url: baseURL + "/v1/cart")

    /// One row of the scenario-switch table: the scenario that was active and what the request received.
    package struct ScenarioRow: Sendable {
        /// The scenario active when the request was sent.
        package var scenario: String
        /// What the caller received and NetTap's capture of it.
        package var result: Row

        /// The `stub` annotation of the captured transaction (the stub that answered), or `-`.
        package var stub: String {
            result.transaction?.annotations[MockHandler.stubAnnotation] ?? "-"
        }
    }

    /// Reads the bundled `demo-mocks.json`.
    ///
    /// - Returns: The parsed configuration and the file's bytes as bundled.
    /// - Throws: ``CLIError`` (exit 1) when the resource is missing or not a valid mocks file; the line names
    ///   the file and the JSON path.
    package static func loadBundledMocks() throws(CLIError) -> (configuration: MockConfiguration, data: Data) {
        guard let url = Bundle.module.url(forResource: "demo-mocks", withExtension: "json") else {
            throw CLIError.failure(
                command: "demo",
                input: mocksResourceName,
                message: "the bundled mocks file is missing"
            )
        }
        do {
            return (try MockConfiguration.load(contentsOf: url), try Data(contentsOf: url))
        } catch {
            throw CLIError.failure(command: "demo", input: nil, message: "\(error)")
        }
    }

    /// Sends ``cartStep`` once per scenario of `configuration`, switching the active scenario through
    /// `MockSet.activate(scenario:)` before each send; a `MockHandler` that fails unmatched requests is the
    /// interceptor's only handler meanwhile.
    ///
    /// - Parameters:
    ///   - configuration: The stubs and scenarios, in the order they are tried.
    ///   - interceptor: The interceptor to send through; its handlers are replaced.
    /// - Returns: One row per scenario, in the configuration's order.
    /// - Throws: ``CLIError`` (exit 1) when the configuration names an unknown active scenario.
    package static func runScenarioSwitch(
        _ configuration: MockConfiguration,
        through interceptor: NetTapInterceptor
    ) async throws(CLIError) -> [ScenarioRow] {
        let mocks: MockSet
        do {
            mocks = try MockSet(configuration: configuration)
        } catch {
            throw CLIError.failure(command: "demo", input: mocksResourceName, message: "\(error)")
        }
        interceptor.handlers = [MockHandler(mocks: mocks, unmatched: .fail)]
        var rows: [ScenarioRow] = []
        for scenario in mocks.scenarios {
            do {
                try mocks.activate(scenario: scenario.name)
            } catch {
                throw CLIError.failure(command: "demo", input: mocksResourceName, message: "\(error)")
            }
            rows.append(ScenarioRow(scenario: scenario.name, result: await send(cartStep, through: interceptor)))
        }
        return rows
    }

    /// The scenario-switch table: scenario, status (or `ERR code`), bytes, milliseconds, who answered, the
    /// stub, and the body (or the error's name).
    ///
    /// - Parameter rows: The rows.
    /// - Returns: Lines ending with a newline.
    package static func scenarioTable(_ rows: [ScenarioRow]) -> String {
        var table = TextTable(
            headings: ["SCENARIO", "STATUS", "BYTES", "MS", "ANSWERED BY", "STUB", "BODY OR ERROR"],
            alignments: [.left, .right, .right, .right, .left, .left, .left]
        )
        for row in rows {
            let result = row.result
            let status = result.statusCode.map { "\($0)" } ?? "ERR \(result.error.map { "\($0.errorCode)" } ?? "")"
            let detail: String
            if let error = result.error {
                detail = Formatting.errorSummary(error)
            } else {
                detail = Self.bodyPreview(result.data)
            }
            table.rows.append([
                row.scenario, status, "\(result.byteCount)", result.milliseconds.map(Formatting.milliseconds) ?? "-",
                result.answeredBy, row.stub, detail,
            ])
        }
        return table.rendered
    }

    /// A body shown in one table cell: its text when it is short UTF-8, else its size.
    static func bodyPreview(_ data: Data, limit: Int = 70) -> String {
        guard !data.isEmpty else { return "(empty)" }
        guard Formatting.isText(data, contentType: nil), let text = String(data: data, encoding: .utf8),
            !text.contains("\n")
        else { return "(\(data.count) bytes)" }
        return text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }
}
