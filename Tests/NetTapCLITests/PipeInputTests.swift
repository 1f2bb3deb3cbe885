import Foundation
import NetTapCLI
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("HAR input from a pipe", .timeLimit(.minutes(1)))
struct PipeInputTests {
    @Test("a HAR read from a pipe (process substitution, /dev/stdin) is read to its end, like the file")
    func readsPipe() async throws {
        let directory = try makeTemporaryDirectory()
        let fifo = directory.appendingPathComponent("in.har")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let har = try Data(contentsOf: try fixtureURL("charles.har"))
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo.path) else { return }
            handle.write(har)
            try? handle.close()
        }
        writer.start()
        let piped = await runCLI(["stats", "--json", fifo.path], workingDirectory: directory)
        #expect(piped.exitCode == .success, "\(piped.standardError)")
        let direct = await runCLI(["stats", "--json", try fixtureURL("charles.har").path], workingDirectory: directory)
        #expect(piped.standardOutput == direct.standardOutput)
    }
}
