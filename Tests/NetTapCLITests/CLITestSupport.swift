import Foundation
import NetTapCLI
import NetTapCore
import Testing

/// What one in-process run of the tool produced.
struct CLIRun {
    var exitCode: ExitCode
    var standardOutput: String
    var standardError: String
    var standardOutputData: Data
}

/// Runs `nettap` in-process with buffers for its outputs, its own interceptor and working directory.
func runCLI(
    _ arguments: [String],
    interceptor: NetTapInterceptor = NetTapInterceptor(),
    workingDirectory: URL? = nil
) async -> CLIRun {
    let out = CommandOutput.Buffer()
    let err = CommandOutput.Buffer()
    let environment = CommandEnvironment(
        standardOutput: CommandOutput(out),
        standardError: CommandOutput(err),
        interceptor: interceptor,
        workingDirectory: workingDirectory ?? FileManager.default.temporaryDirectory
    )
    let code = await NetTapCLI.run(arguments: arguments, in: environment)
    return CLIRun(exitCode: code, standardOutput: out.text, standardError: err.text, standardOutputData: out.data)
}

/// A fresh empty directory under the system's temporary directory.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("nettap-cli-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The URL of a copied HAR fixture (see Fixtures/README.md).
func fixtureURL(_ name: String) throws -> URL {
    try #require(
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"),
        "fixture \(name) is missing from the test bundle"
    )
}
