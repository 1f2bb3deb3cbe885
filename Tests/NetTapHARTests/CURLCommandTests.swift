import Foundation
import NetTapCore
import NetTapHAR
import Testing

@Suite("cURL commands")
struct CURLCommandTests {
    private let url = URL(string: "http://127.0.0.1:8080/items?q=a%20b&x=1") ?? URL(fileURLWithPath: "/")

    /// What a POSIX shell makes of `text`: runs `printf '%s' <text>` and returns its output.
    private func shellWords(_ text: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "printf '%s|' " + text]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }

    @Test("A plain GET is just curl and the quoted URL")
    func plainGet() {
        let request = CapturedRequest(method: "GET", url: url, headers: [:])
        #expect(CURLCommand.make(for: request) == "curl 'http://127.0.0.1:8080/items?q=a%20b&x=1'")
    }

    @Test("A POST has -X, one -H per header in order, and the body")
    func post() {
        let request = CapturedRequest(
            method: "POST",
            url: url,
            headers: HeaderFields([
                .init(name: "Content-Type", value: "application/json"),
                .init(name: "X-Trace", value: "1"),
                .init(name: "X-Trace", value: "2"),
            ]),
            body: CapturedBody(data: Data(#"{"a":1}"#.utf8))
        )
        #expect(
            CURLCommand.make(for: request) == """
                curl 'http://127.0.0.1:8080/items?q=a%20b&x=1' \\
                  -X POST \\
                  -H 'Content-Type: application/json' \\
                  -H 'X-Trace: 1' \\
                  -H 'X-Trace: 2' \\
                  --data-binary '{"a":1}'
                """
        )
    }

    @Test("Quotes, spaces, newlines, $ and Unicode survive a real shell")
    func quoting() throws {
        let words = ["it's", "two words", "line one\nline two", "$HOME `id` \\ \"x\"", "café ☕ 日本", "'", ""]
        for word in words {
            #expect(try shellWords(CURLCommand.quote(word)) == word + "|")
        }
        #expect(CURLCommand.quote("it's") == #"'it'\''s'"#)
    }

    @Test("Header values and bodies are quoted as single shell words")
    func quotedArguments() throws {
        let body = "name=it's\nsecond line ☕"
        let request = CapturedRequest(
            method: "PUT",
            url: url,
            headers: ["X-Note": "a 'quoted' value"],
            body: CapturedBody(data: Data(body.utf8))
        )
        let command = CURLCommand.make(for: request)
        let arguments = try shellWords(
            String(command.dropFirst("curl ".count)).replacingOccurrences(of: " \\\n", with: " ")
        )
        #expect(
            arguments
                == "http://127.0.0.1:8080/items?q=a%20b&x=1|-X|PUT|-H|X-Note: a 'quoted' value|--data-binary|\(body)|"
        )
    }

    @Test("credentials headers, cookies, API keys, secret query items and body fields are redacted by default")
    func redaction() {
        let request = CapturedRequest(
            method: "POST",
            url: URL(string: "http://127.0.0.1:8080/login?token=s3cr3t-query&page=2") ?? url,
            headers: [
                "authorization": "Bearer secret-token", "Cookie": "session=s3cr3t", "Proxy-Authorization": "Basic eHl6",
                "X-Api-Key": "key-123", "Content-Type": "application/json", "Content-Length": "44",
            ],
            body: CapturedBody(data: Data(#"{"user":"ann","password":"s3cr3t-password"}"#.utf8))
        )
        let command = CURLCommand.make(for: request)
        #expect(command.hasPrefix("curl 'http://127.0.0.1:8080/login?token=%5Bredacted%5D&page=2'"))
        #expect(command.contains("-H 'authorization: Bearer [redacted]'"))
        #expect(command.contains("-H 'Cookie: session=[redacted]'"))
        #expect(command.contains("-H 'Proxy-Authorization: Basic [redacted]'"))
        #expect(command.contains("-H 'X-Api-Key: [redacted]'"))
        #expect(command.contains(#"--data-binary '{"password":"[redacted]","user":"ann"}'"#))
        // The redacted body has another size: curl computes the length itself.
        #expect(!command.contains("Content-Length"))
        for secret in ["secret-token", "s3cr3t", "eHl6", "key-123"] {
            #expect(!command.contains(secret), "\(secret) leaked")
        }
    }

    @Test("Redactor.disabled gives the raw command; custom rules and exceptions apply")
    func rawAndCustom() {
        let request = CapturedRequest(
            method: "GET",
            url: url,
            headers: ["Authorization": "Bearer secret-token", "X-Session": "abc", "X-Api-Key": "key-123"]
        )
        let raw = CURLCommand.make(for: request, redactor: .disabled)
        #expect(raw.contains("-H 'Authorization: Bearer secret-token'"))
        #expect(raw.contains("-H 'X-Api-Key: key-123'"))
        let custom = CURLCommand.make(
            for: request,
            redactor: Redactor.default.adding([.header("X-Session")]).excepting([.header("X-Api-Key")])
        )
        #expect(custom.contains("-H 'X-Session: [redacted]'"))
        #expect(custom.contains("-H 'X-Api-Key: key-123'"))
        #expect(custom.contains("-H 'Authorization: Bearer [redacted]'"))
    }

    @Test("A binary body is piped in through base64 and --data-binary @-")
    func binaryBody() throws {
        let bytes = Data([0x00, 0x01, 0xFF, 0xFE, 0x27, 0x0A])
        let request = CapturedRequest(
            method: "POST",
            url: url,
            headers: ["Content-Type": "application/octet-stream"],
            body: CapturedBody(data: bytes)
        )
        let command = CURLCommand.make(for: request)
        #expect(command.hasPrefix("printf '%s' '\(bytes.base64EncodedString())' | base64 --decode | curl '"))
        #expect(command.hasSuffix("--data-binary @-"))

        let atSign = CapturedRequest(
            method: "POST",
            url: url,
            headers: [:],
            body: CapturedBody(data: Data("@/etc/passwd".utf8))
        )
        #expect(CURLCommand.make(for: atSign).contains("| base64 --decode | curl"))
    }

    /// Runs `command` in `shell` with `curl` replaced by a function that prints the body it was given.
    private func bodySent(by command: String, shell: String) throws -> String {
        let fakeCurl = """
            curl() { while [ $# -gt 0 ]; do if [ "$1" = --data-binary ]; then shift; \
            if [ "$1" = @- ]; then cat; else printf '%s' "$1"; fi; fi; shift; done; }
            """
        // A script file, as a 1 MiB body exceeds the length limit of one `-c` argument.
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("nettap-curl-\(UUID()).sh")
        try Data((fakeCurl + "\n" + command + "\n").utf8).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = [script.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(shell): \(command)")
        return String(decoding: output, as: UTF8.self)
    }

    @Test("A truncated body is announced by a no-op note, sent as kept, without the captured Content-Length")
    func truncatedBody() throws {
        let kept = String(repeating: "x", count: 1_048_576)
        let request = CapturedRequest(
            method: "POST",
            url: url,
            headers: ["Content-Type": "text/plain", "Content-Length": "2000000"],
            body: CapturedBody(data: Data(kept.utf8), totalByteCount: 2_000_000)
        )
        let command = CURLCommand.make(for: request)
        #expect(
            command.hasPrefix(
                ": 'NetTap: request body truncated to 1048576 of 2000000 bytes; this command sends only those'; "
                    + "curl 'http://127.0.0.1:8080/items?q=a%20b&x=1' \\\n  -X POST \\\n  -H 'Content-Type: text/plain'"
            )
        )
        #expect(!command.contains("Content-Length"))
        let shells = ["/bin/sh", "/bin/bash", "/bin/zsh", "/usr/bin/zsh"].filter {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        #expect(shells.contains("/bin/sh"))
        for shell in shells {
            #expect(try bodySent(by: command, shell: shell) == kept)
        }

        let binary = CapturedRequest(
            method: "PUT",
            url: url,
            headers: [:],
            body: CapturedBody(data: Data([0x00, 0xFF, 0x27]), totalByteCount: 10)
        )
        let piped = CURLCommand.make(for: binary)
        #expect(
            piped.hasPrefix(
                ": 'NetTap: request body truncated to 3 of 10 bytes; this command sends only those'; printf '%s' "
            )
        )
        for shell in shells {
            #expect(try bodySent(by: piped, shell: shell) == String(decoding: Data([0x00, 0xFF, 0x27]), as: UTF8.self))
        }

        let whole = CapturedRequest(
            method: "POST",
            url: url,
            headers: ["Content-Length": "3"],
            body: CapturedBody(data: Data("abc".utf8))
        )
        #expect(CURLCommand.make(for: whole).hasPrefix("curl "))
        #expect(CURLCommand.make(for: whole).contains("-H 'Content-Length: 3'"))
    }

    @Test("--compressed, --head, -X GET with a body, --globoff and empty header values")
    func options() {
        let compressed = CapturedRequest(method: "GET", url: url, headers: ["Accept-Encoding": "gzip, br"])
        #expect(CURLCommand.make(for: compressed).hasSuffix("-H 'Accept-Encoding: gzip, br' \\\n  --compressed"))

        let head = CapturedRequest(method: "HEAD", url: url, headers: [:])
        #expect(CURLCommand.make(for: head) == "curl 'http://127.0.0.1:8080/items?q=a%20b&x=1' \\\n  --head")

        let getWithBody = CapturedRequest(
            method: "GET",
            url: url,
            headers: [:],
            body: CapturedBody(data: Data("q".utf8))
        )
        #expect(CURLCommand.make(for: getWithBody).contains("-X GET"))

        let brackets = URL(string: "http://127.0.0.1/a?ids%5B%5D=1") ?? url
        #expect(
            !CURLCommand.make(for: CapturedRequest(method: "GET", url: brackets, headers: [:])).contains("--globoff")
        )
        let raw = URL(string: "http://[::1]:8080/") ?? url
        #expect(CURLCommand.make(for: CapturedRequest(method: "GET", url: raw, headers: [:])).contains("--globoff"))

        let empty = CapturedRequest(method: "GET", url: url, headers: ["X-Empty": ""])
        #expect(CURLCommand.make(for: empty).contains("-H 'X-Empty;'"))
    }

    @Test("a capture's commands are redacted knowing all of it: a cookie one response set is gone from a later URL")
    func captureWideRedaction() throws {
        let sessionID = "c0ffee51d42a"
        let login = try #require(URL(string: "https://shop.example/login"))
        let track = try #require(URL(string: "https://shop.example/track?visit=\(sessionID)&page=2"))
        let transactions = [
            CapturedTransaction(
                request: CapturedRequest(method: "POST", url: login, headers: [:]),
                response: CapturedResponse(statusCode: 204, headers: ["Set-Cookie": "sid=\(sessionID)"], url: login),
                timings: Timings(startDate: Date(timeIntervalSince1970: 1_700_000_000))
            ),
            CapturedTransaction(
                request: CapturedRequest(method: "GET", url: track, headers: [:]),
                timings: Timings(startDate: Date(timeIntervalSince1970: 1_700_000_001))
            ),
        ]
        let commands = CURLCommand.make(for: transactions)
        #expect(commands.count == 2)
        #expect(commands[1] == "curl 'https://shop.example/track?visit=%5Bredacted%5D&page=2'")
        // Control: the transaction alone cannot know the value is a secret, and redaction off keeps it.
        #expect(CURLCommand.make(for: transactions[1]).contains(sessionID))
        #expect(CURLCommand.make(for: transactions, redactor: .disabled)[1].contains(sessionID))
    }
}
