import Foundation
import NetTapHAR
import NetTapTestSupport
import Testing

/// The built `nettap` executable: in the products directory beside the test bundle, or in `.build/debug`.
private enum BuiltBinary {
    static let url: URL? = {
        var candidates = [
            Bundle.main.bundleURL.appendingPathComponent("nettap"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("nettap"),
        ]
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("nettap"))
        }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/nettap"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// Runs the binary to completion and returns its exit status and outputs.
    static func run(_ arguments: [String]) async throws -> Result {
        try await run(try #require(url), arguments)
    }

    /// Runs any executable to completion and returns its exit status and outputs.
    static func run(_ executable: URL, _ arguments: [String]) async throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let exited = AsyncStream<Int32> { continuation in
            process.terminationHandler = { process in
                continuation.yield(process.terminationStatus)
                continuation.finish()
            }
        }
        try process.run()
        // Small outputs: reading each pipe to its end cannot stall the child.
        let (outData, errData) = try await offThePool {
            (out.fileHandleForReading.readDataToEndOfFile(), err.fileHandleForReading.readDataToEndOfFile())
        }
        var status: Int32 = -1
        for await code in exited { status = code }
        return Result(
            status: status,
            standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self)
        )
    }
}

@Suite(
    "The built nettap binary",
    .enabled(if: BuiltBinary.url != nil, "the built nettap binary was not found beside the tests or in .build/debug")
)
struct BuiltBinaryTests {
    @Test("--help exits 0 and prints the usage")
    func help() async throws {
        let result = try await BuiltBinary.run(["--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("Usage: nettap COMMAND"))
        #expect(result.standardError.isEmpty)
    }

    @Test("an unknown command exits 2 with a hint on stderr")
    func unknownCommand() async throws {
        let result = try await BuiltBinary.run(["frobnicate"])
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("nettap: frobnicate: unknown command"))
        #expect(result.standardError.contains("see 'nettap --help'"))
    }

    @Test("report of a broken HAR exits 1 with one line naming the file")
    func brokenReport() async throws {
        let broken = try #require(
            Bundle.module.url(forResource: "broken", withExtension: "har", subdirectory: "Fixtures")
        )
        let result = try await BuiltBinary.run(["report", broken.path])
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("nettap: report: "))
        #expect(result.standardError.contains("broken.har"))
        #expect(result.standardError.filter { $0 == "\n" }.count == 1)
    }

    @Test("report --html and stats with standard error a pipe draw no progress bar")
    func noProgressBarWithoutTerminal() async throws {
        let har = try #require(Bundle.module.url(forResource: "chrome", withExtension: "har", subdirectory: "Fixtures"))
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("nettap-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: output) }
        let report = try await BuiltBinary.run(["report", har.path, "--html", output.path])
        #expect(report.status == 0)
        #expect(report.standardError.isEmpty)
        #expect(!report.standardOutput.contains("\r"))
        #expect(report.standardOutput.contains("HTML report: \(output.path)"))
        let stats = try await BuiltBinary.run(["stats", har.path])
        #expect(stats.status == 0)
        #expect(stats.standardError.isEmpty)
    }

    @Test("fetch --shared-session intercepts URLSession.shared in a fresh process and captures the request")
    func sharedSession() async throws {
        let server = try await HTTPBin.shared()
        let har = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nettap-shared-\(UUID().uuidString).har"
        )
        defer { try? FileManager.default.removeItem(at: har) }
        let result = try await BuiltBinary.run([
            "fetch", "--shared-session", server.url("/get?via=shared").absoluteString, "--har", har.path,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("\"via\": \"shared\""))
        let document = try HARDocument.load(contentsOf: har)
        #expect(document.log.entries.count == 1)
        #expect(document.log.entries.first?.response.status == 200)
        #expect(document.log.entries.first?.request.url.hasSuffix("/get?via=shared") == true)
    }

    #if os(Linux)
    @Test(
        "the nettap executable links neither XCTest nor Swift Testing, though it links the mocking and replay modules",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ldd"), "ldd is not installed")
    )
    func linksNoTestFramework() async throws {
        let ldd = URL(fileURLWithPath: "/usr/bin/ldd")
        let executable = try #require(BuiltBinary.url)
        let result = try await BuiltBinary.run(ldd, [executable.path])
        #expect(result.status == 0, "\(result.standardError)")
        let libraries = Self.sharedLibraries(in: result.standardOutput)
        #expect(libraries.contains("libFoundationNetworking.so"), "ldd lists the libraries nettap links")
        #expect(Self.testFrameworks(in: libraries).isEmpty, "nettap links \(Self.testFrameworks(in: libraries))")

        // The check is not vacuous: the test runner itself links the test frameworks, and ldd shows them.
        let runner = try #require(Bundle.main.executableURL)
        let runnerLibraries = Self.sharedLibraries(in: try await BuiltBinary.run(ldd, [runner.path]).standardOutput)
        #expect(!Self.testFrameworks(in: runnerLibraries).isEmpty, "\(runner.path) links \(runnerLibraries)")

        // And it is the binary with the new modules: their type metadata names are in it.
        let binary = try Data(contentsOf: executable)
        for module in ["NetTapCore", "NetTapHAR", "NetTapMocking", "NetTapReplay"] {
            #expect(binary.range(of: Data(module.utf8)) != nil, "\(module) is linked into nettap")
        }
    }

    /// The file names of the shared libraries in `ldd` output (`libX.so.1 => /path (0x…)`).
    private static func sharedLibraries(in lddOutput: String) -> [String] {
        lddOutput.split(separator: "\n").compactMap { line in
            line.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map { name in
                String(name.split(separator: "/").last ?? name)
            }
        }
    }

    /// The XCTest and Swift Testing libraries among `libraries` (`libXCTest.so`, `libTesting.so`, …).
    private static func testFrameworks(in libraries: [String]) -> [String] {
        libraries.filter { $0.contains("XCTest") || $0.hasPrefix("libTesting") || $0.contains("_Testing") }
    }
    #endif
}
