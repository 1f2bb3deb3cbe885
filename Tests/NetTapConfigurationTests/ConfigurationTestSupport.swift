import Foundation
import NetTapTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The repository's root: Tests/NetTapConfigurationTests/ConfigurationTestSupport.swift → ../../..
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The `examples` folder.
let examplesFolder = repositoryRoot.appendingPathComponent("examples", isDirectory: true)

/// The JSON Schema file.
let schemaURL = repositoryRoot.appendingPathComponent("schema/nettap.schema.json")

/// The example configurations: every `.json` in `examples` that is not a manifest or fixture (top-level files only).
func exampleConfigurations() throws -> [URL] {
    try FileManager.default.contentsOfDirectory(at: examplesFolder, includingPropertiesForKeys: nil)
        .filter { $0.pathExtension == "json" && $0.lastPathComponent != "integrity-manifest.json" }
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
}

/// A copy of the `examples` folder in a temporary folder, so applying an example writes nothing into the repository.
func copyOfExamples() throws -> TemporaryFolder {
    let folder = try TemporaryFolder(prefix: "nettap-config-examples")
    for item in try FileManager.default.contentsOfDirectory(at: examplesFolder, includingPropertiesForKeys: nil) {
        guard item.lastPathComponent != ".gitignore" else { continue }
        try FileManager.default.copyItem(at: item, to: folder.url.appendingPathComponent(item.lastPathComponent))
    }
    return folder
}

/// The venv Python that `scripts/test` sets up (`NETTAP_HTTPBIN_PYTHON`, else `.build/httpbin-venv/bin/python`),
/// which has the pinned `jsonschema` of `scripts/requirements-schema.txt`.
func schemaPython() throws -> URL {
    if let configured = ProcessInfo.processInfo.environment["NETTAP_HTTPBIN_PYTHON"], !configured.isEmpty {
        return URL(fileURLWithPath: configured)
    }
    let venvPython = repositoryRoot.appendingPathComponent(".build/httpbin-venv/bin/python")
    try #require(
        FileManager.default.isExecutableFile(atPath: venvPython.path),
        "no venv Python: NETTAP_HTTPBIN_PYTHON is unset and \(venvPython.path) does not exist; run scripts/test once"
    )
    return venvPython
}

/// Validates JSON files against the schema with Python's `jsonschema` (Draft 2020-12, after checking the schema
/// itself against the meta-schema).
///
/// - Parameter files: The documents.
/// - Returns: The exit status (0 when every document is valid) and the output: one line per error,
///   `FILE: /json/pointer: message`.
/// - Throws: A test failure when there is no venv Python; what `Process.run()` throws.
func validateWithJSONSchema(_ files: [URL]) async throws -> (status: Int32, output: String) {
    let script = """
        import json, sys
        import jsonschema
        with open(sys.argv[1]) as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        failed = False
        for name in sys.argv[2:]:
            with open(name) as f:
                document = json.load(f)
            for error in sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.absolute_path))):
                failed = True
                print(name + ": /" + "/".join(map(str, error.absolute_path)) + ": " + error.message)
        sys.exit(1 if failed else 0)
        """
    let python = try schemaPython()
    let arguments = ["-c", script, schemaURL.path] + files.map(\.path)
    let result = try await offThePool { try ToolCommand(executable: python).run(arguments) }
    return (result.status, result.output)
}

/// Sends a GET through a session of `interceptor` and returns the status, or the `URLError` code.
func send(_ url: String, through session: URLSession) async throws -> (status: Int?, body: Data, error: URLError.Code?)
{
    do {
        let (data, response) = try await session.data(from: try #require(URL(string: url)))
        return ((response as? HTTPURLResponse)?.statusCode, data, nil)
    } catch let error as URLError {
        return (nil, Data(), error.code)
    }
}
