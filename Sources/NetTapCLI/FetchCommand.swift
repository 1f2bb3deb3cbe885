import Foundation
import NetTapConfiguration
import NetTapCore
import NetTapHAR
import NetTapRewrite
import NetTapShaping

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `nettap fetch URL`: sends one real request through NetTap and prints the response.
///
/// The request goes through a session made by the environment's interceptor (the shared one in the tool), so
/// it runs the pipeline, is captured and can be exported as HAR with `--har`. The body goes to standard
/// output (text as is, binary bodies as a size line); one summary line goes to standard error:
/// `200 OK, 1234 bytes, 56.7 ms, 0 redirects, answered by network`; with `-v` the wire facts follow it
/// (`wire:` lines, then the request head as sent).
///
/// Redaction: what NetTap records and shows is redacted with `Redactor.default` — the capture, the `--har`
/// file (`creator.comment` `{"redaction": "on"}`), the headers `-i` prints and URLs in messages.
/// `--no-redact` keeps secrets everywhere and says so: `{"redaction": "off"}` in the HAR file and
/// `, redaction off` in the summary line. The body written to standard output or `-o` is never redacted: it is
/// the server's real answer to the user's own request, as curl prints it, not a record of it.
///
/// Exit codes: 0 when any HTTP response arrived (also 4xx and 5xx, as curl without `--fail`), 1 on a
/// network error (the line names the `URLError` code) or an unreadable data file, 2 on bad arguments.
package struct FetchCommand: Command {
    /// ``ConfigurationUse/apply``: the command sends requests, so `--config FILE` is applied to its interceptor.
    package static var configurationUse: ConfigurationUse { .apply }

    /// The command's description.
    package static let spec = CommandSpec(
        name: "fetch",
        summary: "Sends one request through NetTap and prints the response.",
        positionals: [PositionalSpec(name: "URL", help: "The http or https URL to request.")],
        options: [
            OptionSpec(
                names: ["-X", "--request"],
                valueName: "METHOD",
                help: "The method (GET, POST, PUT, PATCH, DELETE, HEAD, …; any case); GET, or POST with a body."
            ),
            OptionSpec(
                names: ["-H", "--header"],
                valueName: "'Name: value'",
                isRepeatable: true,
                help: "Adds a request header field (repeatable)."
            ),
            OptionSpec(names: ["-d", "--data"], valueName: "BODY", help: "Sends BODY as the request body."),
            OptionSpec(names: ["--data-file"], valueName: "PATH", help: "Sends the file's bytes as the request body."),
            OptionSpec(names: ["--har"], valueName: "OUT", help: "Writes the transaction as a HAR 1.2 file."),
            OptionSpec(
                names: ["-o", "--output"],
                valueName: "PATH",
                help: "Writes the body's bytes to PATH (text or binary) instead of standard output."
            ),
            OptionSpec(names: ["-i", "--include"], help: "Prints the status line and response headers first."),
            OptionSpec(
                names: ["-v", "--verbose"],
                help: "After the summary line, prints what went over the wire: transport, HTTP version, remote "
                    + "address and port, local port, new or reused connection, each phase in ms, TLS version, "
                    + "cipher, certificate subject, issuer and validity, and the request headers as sent."
            ),
            OptionSpec(
                names: ["--no-redact"],
                help: "Keeps secrets (Authorization, cookies, tokens) in the capture, the HAR file and the -i "
                    + "headers; the HAR says \"redaction\": \"off\"."
            ),
            OptionSpec(
                names: ["--shared-session"],
                help: "Sends through URLSession.shared, installed with installForSharedSession(); fails with the "
                    + "reason when the shared session cannot be intercepted."
            ),
            OptionSpec(
                names: ["--timeout"],
                valueName: "SECONDS",
                help: "Fails with URLError -1001 (timedOut) after SECONDS; 60 by default."
            ),
            OptionSpec(
                names: ["--profile"],
                valueName: "NAME",
                help: "Shapes the request with a network profile preset: "
                    + NetworkProfile.presets.keys.sorted().joined(separator: ", ") + "."
            ),
            OptionSpec(
                names: ["--map-remote"],
                valueName: "FROM=TO",
                isRepeatable: true,
                help: "Sends requests under the URL prefix FROM to the prefix TO instead (repeatable; the first that "
                    + "takes the URL wins): --map-remote https://api.example.com/v1=http://127.0.0.1:8080/staging/v1."
            ),
        ],
        discussion: """
            The summary line (status, size in bytes, time in milliseconds, redirects, who answered) goes to
            standard error, so standard output holds only the response. Binary bodies are not printed: a line
            with their size and type is; -o PATH saves any body byte for byte.

            Secrets (Authorization, Proxy-Authorization, cookies, API key and token headers, token-like query
            items and body fields) are redacted in the capture, the --har file and the -i headers unless
            --no-redact is given. The body on standard output (or in -o PATH) is the server's answer as
            received, never redacted, like curl's.

            Exit codes: 0 an HTTP response arrived (any status), 1 network error or unreadable data file,
            2 usage error.

            -v (--verbose) adds, on standard error after the summary line, `wire:` lines (transport,
            HTTP version, remote address and port, local port and whether the connection was new or reused,
            the dns, connect, ssl, send, wait and receive phases in milliseconds, `-` for one that did not
            happen, TLS version and cipher, the certificate's subject, issuer and validity) and the request
            head as sent, curl's `>` lines: on Linux the header block libcurl put on the wire (redacted unless
            --no-redact). A request answered by a handler has no wire facts, and says so.

            --profile puts a ShapingHandler with the preset in front of the pipeline for this request: latency
            and bandwidth slow it down; offline, dns-failure, server-down and 100%-loss fail it without sending
            it (exit 1); timeout fails it with -1001 after --timeout seconds.

            --map-remote FROM=TO sends a request under FROM (scheme, host, optional port and path prefix) to TO,
            keeping the rest of the path, the query, the method, the header fields and the body, as Charles's and
            Proxyman's Map Remote do; rules of a --config file's rewrite section apply after the command line's.
            The summary line then names where the request went; the capture (and --har) keeps both URLs.
            """
    )

    /// Where the request body comes from.
    package enum Body: Sendable, Hashable {
        /// Bytes given on the command line (`-d`).
        case inline(Data)
        /// A file to read (`--data-file`), as typed.
        case file(String)
    }

    /// The URL to request.
    package var url: URL
    /// The method.
    package var method: String
    /// Header fields to add, in order.
    package var headers: HeaderFields
    /// The request body, if any.
    package var body: Body?
    /// Where to write the HAR file, as typed; `nil` writes none.
    package var harPath: String?
    /// Whether to print the status line and headers before the body.
    package var includesHeaders: Bool
    /// Whether to print the wire facts and the request head after the summary line (`-v`, `--verbose`).
    package var isVerbose: Bool
    /// The request timeout in seconds; `nil` keeps URLSession's 60.
    package var timeoutSeconds: Double?
    /// Whether to send through `URLSession.shared` (global installation) instead of a session of its own.
    package var usesSharedSession: Bool
    /// The network profile to shape the request with (`--profile`), or `nil` for none.
    package var profile: NetworkProfile?
    /// The `--profile` name as typed, shown in the summary line.
    package var profileName: String?
    /// The `--map-remote` rules, in the order given.
    package var mapRemote: [MapRemote]
    /// Where to write the body (`-o`), as typed; `nil` prints it.
    package var outputPath: String?
    /// Whether the capture, the HAR file, the printed headers and messages are redacted (no `--no-redact`).
    package var redacts: Bool

    /// What redacts the capture and the output: `Redactor.default`, or `Redactor.disabled` with `--no-redact`.
    package var redactor: Redactor { redacts ? .default : .disabled }

    /// Creates the command from parsed arguments.
    ///
    /// - Parameter arguments: Parsed with ``spec``.
    /// - Throws: A usage ``CLIError`` for a URL that is not http(s), a malformed header (or one whose value holds
    ///   CR, LF or NUL), method or timeout, both `-d` and `--data-file`, a body with GET or HEAD, or a
    ///   `--profile` name that is not a preset (the message lists the names).
    package init(arguments: ParsedArguments) throws(CLIError) {
        url = try Self.url(from: arguments)
        headers = try Self.headers(from: arguments)
        body = try Self.body(from: arguments)
        method = try Self.method(from: arguments, hasBody: body != nil)
        timeoutSeconds = try Self.timeoutSeconds(from: arguments)
        harPath = arguments.value("--har")
        includesHeaders = arguments.has("-i")
        isVerbose = arguments.has("-v")
        usesSharedSession = arguments.has("--shared-session")
        let shaping = try Self.profile(from: arguments)
        profile = shaping?.profile
        profileName = shaping?.name
        mapRemote = try Self.mapRemote(from: arguments)
        outputPath = arguments.value("-o")
        redacts = !arguments.has("--no-redact")
    }

    /// The positional URL, which must be an absolute http or https URL with a host.
    private static func url(from arguments: ParsedArguments) throws(CLIError) -> URL {
        let text = arguments.positionals.first ?? ""
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            throw usage("URL \(Formatting.quoted(text))", "must be an absolute http or https URL")
        }
        return url
    }

    /// The `-H` fields, in order.
    private static func headers(from arguments: ParsedArguments) throws(CLIError) -> HeaderFields {
        var headers = HeaderFields()
        for field in arguments.allValues("-H") {
            guard let colon = field.firstIndex(of: ":") else {
                throw usage("-H \(Formatting.quoted(field))", "header must look like 'Name: value'")
            }
            let name = String(field[..<colon])
            let value = field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard isToken(name) else {
                throw usage("-H \(Formatting.quoted(field))", "header must look like 'Name: value'")
            }
            guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                throw usage("-H \(Formatting.quoted(field))", "a header value cannot contain CR, LF or NUL")
            }
            headers.add(name: name, value: value)
        }
        return headers
    }

    /// The body of `-d` or `--data-file` (not both), or `nil`.
    private static func body(from arguments: ParsedArguments) throws(CLIError) -> Body? {
        if arguments.has("-d") && arguments.has("--data-file") {
            throw usage("--data-file", "cannot be combined with -d; give one body")
        }
        if let data = arguments.value("-d") { return .inline(Data(data.utf8)) }
        if let path = arguments.value("--data-file") { return .file(path) }
        return nil
    }

    /// The `-X` method, upper-cased (GET, or POST with a body, by default); a GET or HEAD cannot have a body.
    private static func method(from arguments: ParsedArguments, hasBody: Bool) throws(CLIError) -> String {
        let method = arguments.value("-X") ?? (hasBody ? "POST" : "GET")
        guard isToken(method) else {
            throw usage("-X \(Formatting.quoted(method))", "not a valid HTTP method")
        }
        let uppercased = method.uppercased()
        if hasBody, uppercased == "GET" || uppercased == "HEAD" {
            throw usage(
                "-X \(Formatting.quoted(method))",
                "a \(uppercased) request cannot have a body (-d or --data-file); use POST, PUT or PATCH"
            )
        }
        return uppercased
    }

    /// The `--timeout` seconds, a positive finite number, or `nil`.
    private static func timeoutSeconds(from arguments: ParsedArguments) throws(CLIError) -> Double? {
        guard let timeout = arguments.value("--timeout") else { return nil }
        guard let seconds = Double(timeout), seconds > 0, seconds.isFinite else {
            throw usage("--timeout \(Formatting.quoted(timeout))", "must be a positive number of seconds")
        }
        return seconds
    }

    /// The `--profile` preset and its name as typed, or `nil`.
    private static func profile(
        from arguments: ParsedArguments
    ) throws(CLIError) -> (profile: NetworkProfile, name: String)? {
        guard let name = arguments.value("--profile") else { return nil }
        guard let preset = NetworkProfile.preset(named: name) else {
            throw usage(
                "--profile \(Formatting.quoted(name))",
                "unknown profile; use one of " + NetworkProfile.presets.keys.sorted().joined(separator: ", ")
            )
        }
        return (preset, name)
    }

    /// The `--map-remote FROM=TO` rules, in order.
    private static func mapRemote(from arguments: ParsedArguments) throws(CLIError) -> [MapRemote] {
        var rules: [MapRemote] = []
        for value in arguments.allValues("--map-remote") {
            let input = "--map-remote \(Formatting.quoted(value))"
            guard let equals = value.firstIndex(of: "="), equals != value.startIndex else {
                throw usage(input, "must look like FROM=TO, such as https://api.example.com=http://127.0.0.1:8080")
            }
            let from = String(value[..<equals])
            let to = String(value[value.index(after: equals)...])
            guard !to.isEmpty else { throw usage(input, "TO is missing after \"=\"") }
            do {
                rules.append(try MapRemote(from: from, to: to))
            } catch {
                throw usage(input, "\(error.input == from ? "FROM" : "TO") is an \(error.description)")
            }
        }
        return rules
    }

    /// The interceptor's handlers with the `--map-remote` rules in a rewrite handler, at the rewrite handler's place:
    /// merged before the map remote rules of one already there (a `--config` file's), or placed as a configured one.
    private func handlers(mapping previous: [any TransactionHandler]) -> [any TransactionHandler] {
        guard !mapRemote.isEmpty else { return previous }
        var rules = RewriteRules(mapRemote: mapRemote)
        if let existing = previous.lazy.compactMap({ $0 as? RewriteHandler }).first {
            rules = existing.rules
            rules.mapRemote = mapRemote + existing.rules.mapRemote
        }
        return NetTapConfiguration.placing([RewriteHandler(rules: rules)], among: previous)
    }

    /// Sends the request and prints the response.
    ///
    /// - Parameter environment: Outputs and the interceptor to send through.
    /// - Returns: ``ExitCode/success`` when a response arrived.
    /// - Throws: ``CLIError`` (exit 1) on a network error, an unreadable data file or an unwritable HAR path.
    package func run(in environment: CommandEnvironment) async throws(CLIError) -> ExitCode {
        let request = try makeRequest(environment)
        let interceptor = environment.interceptor
        let previousHandlers = interceptor.handlers
        interceptor.handlers = handlers(mapping: previousHandlers)
        if let profile {
            // First in the pipeline, so a failing condition stops the request before anything else sees it.
            interceptor.handlers.insert(ShapingHandler(shaper: NetworkShaper(profile: profile)), at: 0)
        }
        defer { if profile != nil || !mapRemote.isEmpty { interceptor.handlers = previousHandlers } }
        // --no-redact captures the secrets too; otherwise the interceptor's own redaction stays in force, and
        // everything written below is redacted with Redactor.default as well.
        let previousRedactor = interceptor.redactor
        if !redacts { interceptor.redactor = .disabled }
        defer { if !redacts { interceptor.redactor = previousRedactor } }
        let session = try makeSession(interceptor)
        defer { if !usesSharedSession { session.finishTasksAndInvalidate() } }
        let (outcome, elapsed) = await Self.send(request, on: session)
        let sentURL = redactor.redact(url: url).value
        let transaction = capturedTransaction(in: interceptor, sentURL: sentURL)
        if let harPath {
            try writeHAR(transaction, to: harPath, environment)
        }

        let (data, response): (Data, URLResponse)
        switch outcome {
        case .success(let value):
            (data, response) = value
        case .failure(let error):
            throw CLIError.failure(
                command: "fetch",
                input: sentURL.absoluteString,
                message: "request failed: \(Formatting.errorDetail(error))"
            )
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        try printResponse(data, response, status: status, transaction: transaction, environment)
        environment.standardError.write(
            summaryLine(status: status, byteCount: data.count, transaction: transaction, elapsed: elapsed)
        )
        if isVerbose, let transaction {
            environment.standardError.write(WireFactsText.text(for: transaction))
        }
        return .success
    }

    /// The request: URL, method, `-H` fields, the body (form data unless a `Content-Type` says otherwise, as
    /// curl sends it) and the timeout.
    private func makeRequest(_ environment: CommandEnvironment) throws(CLIError) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for field in headers { request.addValue(field.value, forHTTPHeaderField: field.name) }
        request.httpBody = try loadBody(environment)
        // Like curl: a body given with -d or --data-file is form data unless a Content-Type says otherwise.
        if request.httpBody != nil, request.value(forHTTPHeaderField: "Content-Type") == nil {
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        }
        if let timeoutSeconds { request.timeoutInterval = timeoutSeconds }
        return request
    }

    /// `URLSession.shared` installed for interception (`--shared-session`), or a new session of `interceptor`.
    private func makeSession(_ interceptor: NetTapInterceptor) throws(CLIError) -> URLSession {
        guard usesSharedSession else { return interceptor.makeSession() }
        guard interceptor === NetTapInterceptor.shared else {
            throw Self.usage("--shared-session", "works only with the shared interceptor")
        }
        if case .notInterceptable(let reason) = interceptor.installForSharedSession() {
            throw CLIError.failure(
                command: "fetch",
                input: "--shared-session",
                message: "URLSession.shared cannot be intercepted in this process: \(reason)"
            )
        }
        return URLSession.shared
    }

    /// Sends the request and measures how long the answer took.
    private static func send(
        _ request: URLRequest,
        on session: URLSession
    ) async -> (outcome: Result<(Data, URLResponse), any Error>, elapsed: Duration) {
        let started = ContinuousClock.now
        let outcome: Result<(Data, URLResponse), any Error>
        do {
            outcome = .success(try await session.data(for: request))
        } catch {
            outcome = .failure(error)
        }
        return (outcome, started.duration(to: .now))
    }

    /// The capture of the request, redacted with ``redactor``.
    ///
    /// The capture is complete before the caller hears of the end. The URL match can miss when the platform
    /// normalized the URL (an added `/`); the log then holds only this request, so the newest is taken.
    private func capturedTransaction(in interceptor: NetTapInterceptor, sentURL: URL) -> CapturedTransaction? {
        let captured = interceptor.captureLog.transactions
        return (captured.last { $0.request.url == sentURL && $0.state != .pending } ?? captured.last)
            .map { redactor.redact(transaction: $0).value }
    }

    /// Prints the head with `-i`, then the body: to `-o PATH`, as text, or as a size line when it is binary.
    private func printResponse(
        _ data: Data,
        _ response: URLResponse,
        status: Int,
        transaction: CapturedTransaction?,
        _ environment: CommandEnvironment
    ) throws(CLIError) {
        let contentType = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")
        if includesHeaders {
            environment.standardOutput.write(headText(status: status, response: response, transaction: transaction))
        }
        if let outputPath {
            try writeBody(data, to: outputPath, environment)
        } else if Formatting.isText(data, contentType: contentType) {
            environment.standardOutput.write(data)
        } else {
            environment.standardOutput.write(
                "[binary body: \(data.count) bytes, \(contentType ?? "no Content-Type"); -o PATH saves it]\n"
            )
        }
    }

    /// `200 OK, 1234 bytes, 56.7 ms, 0 redirects, answered by network`, then the profile and redaction notes.
    private func summaryLine(
        status: Int,
        byteCount: Int,
        transaction: CapturedTransaction?,
        elapsed: Duration
    ) -> String {
        let milliseconds =
            transaction?.timings.duration
            ?? Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let redirects = transaction?.redirects.count ?? 0
        let answeredBy = transaction?.answeredBy ?? CapturedTransaction.answeredByNetwork
        let mapped = transaction.flatMap { captured in
            captured.annotations[RewriteHandler.originalURLAnnotation].map { _ in captured.request.url.absoluteString }
        }
        return "\(Formatting.statusLine(status)), \(byteCount) bytes, \(Formatting.milliseconds(milliseconds)) ms, "
            + "\(redirects) redirect\(redirects == 1 ? "" : "s"), answered by \(answeredBy)"
            + (mapped.map { ", sent to \($0)" } ?? "") + (profileName.map { ", shaped by \($0)" } ?? "")
            + (redacts ? "" : ", redaction off") + "\n"
    }

    private func loadBody(_ environment: CommandEnvironment) throws(CLIError) -> Data? {
        switch body {
        case nil:
            return nil
        case .inline(let data):
            return data
        case .file(let path):
            let fileURL = environment.fileURL(path)
            if let reason = Formatting.unreadableFileReason(fileURL) {
                throw CLIError.failure(
                    command: "fetch",
                    input: "--data-file \(Formatting.quoted(path))",
                    message: reason
                )
            }
            do {
                return try Data(contentsOf: fileURL)
            } catch {
                throw CLIError.failure(
                    command: "fetch",
                    input: "--data-file \(Formatting.quoted(path))",
                    message: "cannot read: \(error.localizedDescription)"
                )
            }
        }
    }

    private func writeHAR(
        _ transaction: CapturedTransaction?,
        to path: String,
        _ environment: CommandEnvironment
    ) throws(CLIError) {
        let input = "--har \(Formatting.quoted(path))"
        guard let transaction else {
            throw CLIError.failure(command: "fetch", input: input, message: "the request was not captured by NetTap")
        }
        do {
            let data = try HARDocument(transactions: [transaction], redactor: redactor).encoded()
            try data.write(to: environment.fileURL(path), options: .atomic)
        } catch {
            throw CLIError.failure(
                command: "fetch",
                input: input,
                message: Formatting.unwritableFileReason(environment.fileURL(path), error: error)
            )
        }
    }

    private func writeBody(_ data: Data, to path: String, _ environment: CommandEnvironment) throws(CLIError) {
        do {
            try data.write(to: environment.fileURL(path), options: .atomic)
        } catch {
            throw CLIError.failure(
                command: "fetch",
                input: "-o \(Formatting.quoted(path))",
                message: Formatting.unwritableFileReason(environment.fileURL(path), error: error)
            )
        }
    }

    private func headText(status: Int, response: URLResponse, transaction: CapturedTransaction?) -> String {
        let version = transaction?.response?.httpVersion ?? "HTTP/1.1"
        var lines = ["\(version) \(Formatting.statusLine(status))"]
        if let captured = transaction?.response?.headers {
            lines += captured.map { "\($0.name): \($0.value)" }
        } else if let http = response as? HTTPURLResponse {
            let fields = http.allHeaderFields.map { (String(describing: $0.key), String(describing: $0.value)) }
            let sorted = fields.sorted { $0.0.lowercased() < $1.0.lowercased() }
            let headers = redactor.redact(
                headers: HeaderFields(sorted.map { HeaderFields.Field(name: $0.0, value: $0.1) })
            )
            lines += headers.value.map { "\($0.name): \($0.value)" }
        }
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// Whether a string is an RFC 9110 §5.6.2 token (header names, methods).
    private static func isToken(_ text: String) -> Bool {
        let extra = Set("!#$%&'*+-.^_`|~")
        return !text.isEmpty
            && text.allSatisfy { character in
                character.isASCII && (character.isLetter || character.isNumber || extra.contains(character))
            }
    }

    private static func usage(_ input: String, _ message: String) -> CLIError {
        .usage(command: "fetch", input: input, message: message)
    }
}
