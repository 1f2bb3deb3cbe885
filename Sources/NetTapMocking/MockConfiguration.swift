import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stubs and scenarios as written in a JSON file: the `mocks` section of `nettap.json`, or a file of its own.
///
/// A stand-alone file holds the section's members (`activeScenario`, `stubs`, `scenarios`, `states`, `randomSeed`)
/// at its top level. A stub has a `name`, a `match` (the `RequestMatcher(configuration:)` shape), exactly one of
/// `response`, `alternatives` or `sequence`, and optionally a `state` (`machine`, `requires`, `moveTo`) and
/// `templated`; a response has `status`, `headers`, at most one body (`body`, `json`, `base64` or `file`,
/// relative to the configuration file), `latencyMs`, `durationMs` or `bandwidth`, `error`, `redirect` and `fault`
/// (a `BodyFault`: `{"type": "drop-connection" | "truncate" | "stall", "afterBytes": 400}`).
///
/// ```json
/// {
///   "mocks": {
///     "activeScenario": "server down",
///     "stubs": [{"name": "config", "match": {"path": "/config"}, "response": {"json": {"theme": "dark"}}}],
///     "scenarios": [{"name": "server down", "stubs": [
///       {"name": "offline", "match": {}, "response": {"error": "notConnectedToInternet", "latencyMs": 2000}}
///     ]}]
///   }
/// }
/// ```
///
/// Every error names the file and the JSON path. ``write(to:)`` writes the same shape back; bodies that came
/// from files stay file references. The full format, with every key, is in the “Mocks and mock files” article of
/// the NetTap documentation.
public struct MockConfiguration: Sendable {
    /// The base stubs, always active.
    public var stubs: [Stub]
    /// The scenarios.
    public var scenarios: [Scenario]
    /// The scenario active at first, or `nil`.
    public var activeScenario: String?
    /// The state each state machine starts in, where not ``StubState/started`` (`states` in the file).
    public var states: [String: String]
    /// The seed of `{{randomId}}` in templated stubs, for the same ids on every run; `nil` for a random seed.
    public var randomSeed: UInt64?

    /// The keys of the `mocks` section.
    public static let sectionKeys: Set<String> = ["activeScenario", "stubs", "scenarios", "states", "randomSeed"]

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - stubs: The base stubs.
    ///   - scenarios: The scenarios.
    ///   - activeScenario: The scenario active at first.
    ///   - states: The state each state machine starts in, where not ``StubState/started``.
    ///   - randomSeed: The seed of `{{randomId}}`; `nil` for a random one.
    public init(
        stubs: [Stub] = [],
        scenarios: [Scenario] = [],
        activeScenario: String? = nil,
        states: [String: String] = [:],
        randomSeed: UInt64? = nil
    ) {
        self.stubs = stubs
        self.scenarios = scenarios
        self.activeScenario = activeScenario
        self.states = states
        self.randomSeed = randomSeed
    }

    /// Reads a `nettap.json` (its `mocks` section) or a stand-alone mocks file.
    ///
    /// A document whose top level has a `mocks` member is read as `nettap.json` (other sections are ignored);
    /// any other document is read as a stand-alone mocks file.
    /// - Parameter url: The file; `file` body paths are relative to its folder.
    /// - Returns: The configuration.
    /// - Throws: `ConfigurationError` naming the file and the JSON path of the first problem.
    public static func load(contentsOf url: URL) throws -> MockConfiguration {
        try loadSection(contentsOf: url)
    }

    /// Reads the `mocks` section from a node.
    ///
    /// - Parameters:
    ///   - node: The section (or a stand-alone document's root).
    ///   - baseDirectory: The folder `file` paths are relative to; `nil` for the current directory.
    /// - Throws: `ConfigurationError` at the path of the first problem.
    package init(node: ConfigNode, baseDirectory: URL?) throws {
        try node.rejectUnknownKeys(allowed: Self.sectionKeys)
        let reader = MockConfigurationReader(baseDirectory: baseDirectory)
        stubs = try reader.stubs(in: node)
        var names: Set<String> = []
        scenarios = try node.each("scenarios") { scenarioNode in
            try scenarioNode.rejectUnknownKeys(allowed: ["name", "stubs"])
            let name = try scenarioNode.requiredString("name")
            guard names.insert(name).inserted else {
                throw try scenarioNode.requiredChild("name").error("scenario \"\(name)\" is defined twice")
            }
            return Scenario(name, stubs: try reader.stubs(in: scenarioNode))
        }
        activeScenario = try node.string("activeScenario")
        if let active = activeScenario, !names.contains(active) {
            throw try node.requiredChild("activeScenario").error(
                MockingError.unknownScenario(active, available: scenarios.map(\.name)).description
            )
        }
        states = [:]
        randomSeed = nil
        try readStates(node)
        if let seed = try node.child("randomSeed"), seed.value != .null {
            let value = try seed.intValue()
            guard value >= 0 else { throw seed.error("expected a seed from 0, found \(value)") }
            randomSeed = UInt64(value)
        }
    }

    /// The section as JSON, as ``write(to:)`` writes it.
    ///
    /// - Parameter directory: The folder `file` paths are written relative to (files outside it keep absolute
    ///   paths); `nil` writes absolute paths.
    /// - Returns: An object with `stubs`, `scenarios` and `activeScenario` when set.
    /// - Throws: `ConfigurationError` at the path of a stub that has no JSON form: a matcher built from a
    ///   closure (no `RequestMatcher.configuration`) or a ``StubResponse/dynamic(_:)`` response.
    public func jsonValue(relativeTo directory: URL?) throws -> JSONValue {
        let writer = MockConfigurationWriter(baseDirectory: directory)
        var section: [String: JSONValue] = [
            "stubs": .array(try stubs.enumerated().map { try writer.stub($1, path: "$.stubs[\($0)]") }),
            "scenarios": .array(
                try scenarios.enumerated().map { index, scenario in
                    let path = "$.scenarios[\(index)]"
                    return .object([
                        "name": .string(scenario.name),
                        "stubs": .array(
                            try scenario.stubs.enumerated().map { try writer.stub($1, path: "\(path).stubs[\($0)]") }
                        ),
                    ])
                }
            ),
        ]
        if let activeScenario { section["activeScenario"] = .string(activeScenario) }
        if !states.isEmpty { section["states"] = .object(states.mapValues(JSONValue.string)) }
        if let randomSeed, let seed = Int64(exactly: randomSeed) { section["randomSeed"] = .integer(seed) }
        return .object(section)
    }

    /// Writes the configuration as JSON (pretty-printed, keys sorted).
    ///
    /// When `url` holds a `nettap.json` (a top-level object with a `mocks` member, or with members that are not
    /// mocks keys), only its `mocks` member is replaced and the other sections are kept; otherwise a
    /// stand-alone mocks file is written.
    /// - Parameter url: The file; `file` body paths are written relative to its folder.
    /// - Throws: `ConfigurationError` for a stub without JSON form (see ``jsonValue(relativeTo:)``) or an
    ///   unreadable existing file; the file system's error when writing fails.
    public func write(to url: URL) throws {
        let section = try jsonValue(relativeTo: url.deletingLastPathComponent())
        var document = section
        if FileManager.default.fileExists(atPath: url.path) {
            let existing = try ConfigNode.load(contentsOf: url)
            if case .object(var members) = existing.value,
                members["mocks"] != nil || !Set(members.keys).isSubset(of: Self.sectionKeys)
            {
                members["mocks"] = section
                document = .object(members)
            }
        }
        try document.data(prettyPrinted: true).write(to: url, options: .atomic)
    }

    /// Adds a stub to a mocks file (creating the file or the scenario when missing) and writes it back.
    ///
    /// - Parameters:
    ///   - stub: The stub, for example from ``Stub/init(recording:name:redactor:)-(CapturedTransaction,_,_)``; its body is written
    ///     inline (`body`, `json` or `base64`).
    ///   - scenario: The scenario to add to; `nil` adds a base stub. A stub of the same name there is replaced.
    ///   - url: The `nettap.json` or stand-alone mocks file.
    /// - Throws: `ConfigurationError` when the existing file is invalid or the stub has no JSON form.
    public static func append(_ stub: Stub, toScenario scenario: String?, inFileAt url: URL) throws {
        var configuration =
            FileManager.default.fileExists(atPath: url.path) ? try load(contentsOf: url) : MockConfiguration()
        if let scenario {
            if let index = configuration.scenarios.firstIndex(where: { $0.name == scenario }) {
                configuration.scenarios[index].stubs.removeAll { $0.name == stub.name }
                configuration.scenarios[index].stubs.append(stub)
            } else {
                configuration.scenarios.append(Scenario(scenario, stubs: [stub]))
            }
        } else {
            configuration.stubs.removeAll { $0.name == stub.name }
            configuration.stubs.append(stub)
        }
        try configuration.write(to: url)
    }
}

extension MockConfiguration: ConfigurationSection {
    /// `mocks`.
    package static let sectionName = "mocks"
    /// The handler's place: `mock`.
    package static var handlerLayer: HandlerLayer? { .mock }

    /// Reads the `mocks` section.
    package static func read(section: ConfigNode, context: ConfigurationContext) throws -> MockConfiguration? {
        try MockConfiguration(node: section, baseDirectory: context.baseDirectory)
    }
}
