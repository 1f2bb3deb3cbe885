import Foundation
import NetTap
import NetTapTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One user-facing error, produced by real bad input through the public API, and what its text must name.
struct CatalogueEntry: Sendable {
    /// The catalogue key, `type.case` (see the `key(for:)` functions below).
    var key: String
    /// The error as the API threw it.
    var error: any Error
    /// Text naming the input: a file name, the pattern, the value as given.
    var input: String
    /// Text naming the place in the input (a JSON path, `line:column`, a character position), or `nil` when the
    /// whole input is wrong; ``placeReason`` then says why.
    var place: String?
    /// Why there is no place, when ``place`` is `nil`.
    var placeReason: String?
    /// The fix the text suggests ("did you mean", the valid choices, "use …"), when one is obvious.
    var hint: String?
    /// Text that must not appear (for example `0.0` for an integer written `0`).
    var absent: [String] = []
}

/// Leaks of internals no user-facing text may show.
let leakedInternals = [
    "Optional(", "Error Domain=", "The operation could not be completed", "around character", "Invalid value around",
    "DecodingError", "keyNotFound", "typeMismatch", "CodingKeys", "Swift.", "NSCocoaErrorDomain",
]

/// Checks the wording shape of one entry.
func checkShape(_ entry: CatalogueEntry, sourceLocation: SourceLocation = #_sourceLocation) {
    let text = String(describing: entry.error)
    let label = Comment(rawValue: "\(entry.key): \(text)")
    #expect(entry.error.localizedDescription == text, label, sourceLocation: sourceLocation)
    #expect(!text.contains("\n") && !text.contains("\r"), label, sourceLocation: sourceLocation)
    #expect(!text.isEmpty, label, sourceLocation: sourceLocation)
    #expect(text.contains(entry.input), "input \"\(entry.input)\" — \(label)", sourceLocation: sourceLocation)
    if let place = entry.place {
        #expect(text.contains(place), "place \"\(place)\" — \(label)", sourceLocation: sourceLocation)
    } else {
        #expect(
            entry.placeReason?.isEmpty == false,
            "no place and no reason — \(label)",
            sourceLocation: sourceLocation
        )
    }
    if let hint = entry.hint {
        #expect(text.contains(hint), "hint \"\(hint)\" — \(label)", sourceLocation: sourceLocation)
    }
    for leak in leakedInternals + entry.absent {
        #expect(!text.contains(leak), "leaks \"\(leak)\" — \(label)", sourceLocation: sourceLocation)
    }
}

/// The error `body` throws, or `nil` (recorded as an issue) when it throws none.
func thrown(
    _ key: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async -> (any Error)? {
    do {
        try await body()
        Issue.record("\(key): no error was thrown", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// A handler that breaks the pipeline's contract by calling `next` twice.
private struct CallsNextTwice: TransactionHandler {
    let name = "retry-twice"
    func handle(_ request: URLRequest, context: TransactionContext, next: Next) async throws -> HandlerResponse {
        _ = try await next(request)
        return try await next(request)
    }
}

/// Every error a user can cause through the API, each from real bad input, with its wording checked.
///
/// Keeping it complete: each enum error type has a `key(for:)` with an exhaustive `switch` (a new case does not
/// compile until it has a key), and a test checks that every key has an entry. `StoreError.Code` is a struct, so
/// its codes are listed in ``storeCodes``.
@Suite("The catalogue of user-facing errors")
struct ErrorCatalogueTests {
    // MARK: - Keys

    static func key(for error: PipelineError) -> String {
        switch error {
        case .nextCalledTwice: "PipelineError.nextCalledTwice"
        }
    }

    static func key(for error: MockingError) -> String {
        switch error {
        case .unknownScenario: "MockingError.unknownScenario"
        case .unknownStub: "MockingError.unknownStub"
        case .unknownAlternative: "MockingError.unknownAlternative"
        case .notSavable: "MockingError.notSavable"
        case .unknownStateMachine: "MockingError.unknownStateMachine"
        case .unknownState: "MockingError.unknownState"
        }
    }

    static func key(for error: IntegrityError) -> String {
        switch error {
        case .invalidDigest: "IntegrityError.invalidDigest"
        }
    }

    static func key(for error: FileMountError) -> String {
        switch error {
        case .invalidPrefix: "FileMountError.invalidPrefix"
        case .directoryNotFound: "FileMountError.directoryNotFound"
        }
    }

    static func key(for error: StreamingDigest.Failure) -> String {
        switch error {
        case .unavailable: "StreamingDigest.Failure.unavailable"
        case .failed: "StreamingDigest.Failure.failed"
        case .alreadyFinalized: "StreamingDigest.Failure.alreadyFinalized"
        }
    }

    static func key(for kind: MatcherError.PatternKind) -> String {
        switch kind {
        case .regularExpression: "MatcherError.regularExpression"
        case .urlPattern: "MatcherError.urlPattern"
        case .hostPattern: "MatcherError.hostPattern"
        }
    }

    /// Every `StoreError.Code`; a new code must be added here (and get an entry).
    static let storeCodes: [StoreError.Code] = [
        .missingFile, .cannotOpen, .notAStore, .corrupt, .newerSchema, .invalidQuery, .invalidRecord, .closed,
        .sqlite,
    ]

    static func key(for code: StoreError.Code) -> String { "StoreError.\(code.rawValue)" }

    static func key(for kind: RewriteRuleError.InputKind) -> String {
        switch kind {
        case .mapRemoteURL: "RewriteRuleError.mapRemoteURL"
        case .jsonPath: "RewriteRuleError.jsonPath"
        case .jsonValue: "RewriteRuleError.jsonValue"
        case .headerName: "RewriteRuleError.headerName"
        case .headerValue: "RewriteRuleError.headerValue"
        case .searchText: "RewriteRuleError.searchText"
        }
    }

    /// One value of every enum case, only to ask the `key(for:)` switches for every key.
    static let everyKey: [String] =
        [key(for: PipelineError.nextCalledTwice(handler: ""))]
        + [
            MockingError.unknownScenario("", available: []), .unknownStub("", scenario: nil, available: []),
            .unknownAlternative("", stub: "", available: []),
            .notSavable("", reason: ""), .unknownStateMachine("", available: []),
            .unknownState("", machine: "", available: []),
        ].map { key(for: $0) }
        + [key(for: IntegrityError.invalidDigest(""))]
        + [FileMountError.invalidPrefix("", reason: ""), .directoryNotFound(URL(fileURLWithPath: "/"))].map {
            key(for: $0)
        }
        + [StreamingDigest.Failure.unavailable(.sha256), .failed(.sha256), .alreadyFinalized].map { key(for: $0) }
        + [MatcherError.PatternKind.regularExpression, .urlPattern, .hostPattern].map { key(for: $0) }
        + storeCodes.map { key(for: $0) }
        + [RewriteRuleError.InputKind.mapRemoteURL, .jsonPath, .jsonValue, .headerName, .headerValue, .searchText].map {
            key(for: $0)
        }
        + [
            "InputError", "RedactionPatternError", "OfflineCacheError", "TemplateError",
        ]

    /// The key of an error as thrown, so each entry is checked to be filed under the right key.
    static func key(of error: any Error) -> String? {
        switch error {
        case let error as PipelineError: key(for: error)
        case let error as MockingError: key(for: error)
        case let error as IntegrityError: key(for: error)
        case let error as FileMountError: key(for: error)
        case let error as StreamingDigest.Failure: key(for: error)
        case let error as MatcherError: key(for: error.kind)
        case let error as StoreError: key(for: error.code)
        case let error as RewriteRuleError: key(for: error.kind)
        case is InputError: "InputError"
        case is RedactionPatternError: "RedactionPatternError"
        case is OfflineCacheError: "OfflineCacheError"
        case is TemplateError: "TemplateError"
        default: nil
        }
    }

    // MARK: - The catalogue

    static func write(_ text: String, _ name: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// Builds every entry from real bad input.
    static func catalogue() async throws -> [CatalogueEntry] {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("nettap-error-catalogue-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var entries: [CatalogueEntry] = []
        func add(
            _ key: String,
            input: String,
            place: String?,
            placeReason: String? = nil,
            hint: String? = nil,
            absent: [String] = [],
            sourceLocation: SourceLocation = #_sourceLocation,
            _ body: () async throws -> Void
        ) async {
            guard let error = await thrown(key, sourceLocation: sourceLocation, body) else { return }
            entries.append(
                CatalogueEntry(
                    key: key,
                    error: error,
                    input: input,
                    place: place,
                    placeReason: placeReason,
                    hint: hint,
                    absent: absent
                )
            )
        }
        func config(_ text: String, _ name: String) throws -> URL { try write(text, name, in: folder) }

        // ConfigurationError: nettap.json sections.
        let broken = try config(#"{"mocks": {"stubs": [}"#, "broken.json")
        await add(
            "InputError",
            input: "broken.json",
            place: "broken.json:1:22",
            hint: #"close the array with "]""#
        ) {
            _ = try NetTapConfiguration.load(contentsOf: broken)
        }
        let unterminated = try config(#"{"mocks": {"stubs": "abc"#, "unterminated.json")
        await add(
            "InputError",
            input: "unterminated.json",
            place: "unterminated.json:1:25",
            hint: #"a string that starts at line 1, column 21"#
        ) { _ = try NetTapConfiguration.load(contentsOf: unterminated) }
        let unclosed = try config("{\"capture\": {\"capacity\": [1, 2\n", "unclosed.json")
        await add("InputError", input: "unclosed.json", place: "unclosed.json:2:1", hint: #""]}}" is missing"#) {
            _ = try NetTapConfiguration.load(contentsOf: unclosed)
        }
        let leadingZero = try config(#"{"capture": {"capacity": 010}}"#, "zero.json")
        await add("InputError", input: "010", place: "zero.json:1:26", hint: "write 10") {
            _ = try NetTapConfiguration.load(contentsOf: leadingZero)
        }
        let comma = try config(#"{"capture": {"capacity": 10,}}"#, "comma.json")
        await add(
            "InputError",
            input: "comma.json",
            place: "comma.json:1:28",
            hint: "trailing commas are not JSON"
        ) {
            _ = try NetTapConfiguration.load(contentsOf: comma)
        }
        let typo = try config(
            #"{"mocks": {"stubs": [{"name": "a", "match": {"pathRgex": "/a"}, "response": {"status": 200}}]}}"#,
            "typo.json"
        )
        await add(
            "InputError",
            input: "typo.json",
            place: "$.mocks.stubs[0].match.pathRgex",
            hint: #"did you mean "pathRegex"?"#
        ) { _ = try NetTapConfiguration.load(contentsOf: typo) }
        let wrongType = try config(#"{"capture": {"capacity": "ten"}}"#, "type.json")
        await add("InputError", input: "type.json", place: "$.capture.capacity", hint: "expected an integer") {
            _ = try NetTapConfiguration.load(contentsOf: wrongType)
        }
        let age = try config(#"{"store": {"maxAgeDays": 0}}"#, "age.json")
        await add(
            "InputError",
            input: "found 0",
            place: "$.store.maxAgeDays",
            hint: "a number of days above 0",
            absent: ["0.0"]
        ) { _ = try NetTapConfiguration.load(contentsOf: age) }
        let latency = try config(
            #"{"mocks": {"stubs": [{"name": "a", "match": {}, "response": {"status": 200, "latencyMs": -5}}]}}"#,
            "latency.json"
        )
        await add(
            "InputError",
            input: "found -5",
            place: "$.mocks.stubs[0].response.latencyMs",
            hint: "non-negative",
            absent: ["-5.0"]
        ) { _ = try NetTapConfiguration.load(contentsOf: latency) }
        let regex = try config(
            #"{"mocks": {"stubs": [{"name": "a", "match": {"pathRegex": "("}, "response": {"status": 200}}]}}"#,
            "regex.json"
        )
        await add(
            "InputError",
            input: #""(""#,
            place: "$.mocks.stubs[0].match.pathRegex",
            hint: #"missing ")""#
        ) {
            _ = try NetTapConfiguration.load(contentsOf: regex)
        }
        let missing = folder.appendingPathComponent("nope.json")
        await add(
            "InputError",
            input: "nope.json",
            place: nil,
            placeReason: "the whole file is missing",
            hint: "no such file"
        ) { _ = try NetTapConfiguration.load(contentsOf: missing) }

        // MatcherError: patterns given in code.
        await add(
            "MatcherError.regularExpression",
            input: #""^/users/(""#,
            place: "at character",
            hint: #"missing ")""#
        ) {
            _ = try RequestMatcher.pathRegex("^/users/(")
        }
        await add(
            "MatcherError.urlPattern",
            input: #""example.com/api""#,
            place: nil,
            placeReason: "the whole pattern lacks a scheme",
            hint: #"write "https://example.com/api""#
        ) { _ = try RequestMatcher.url("example.com/api") }
        await add("MatcherError.regularExpression", input: #""(""#, place: "at character 1", hint: #"missing ")""#) {
            _ = try HostPattern("regex:(")
        }
        await add(
            "MatcherError.hostPattern",
            input: #""api.*.example.com""#,
            place: nil,
            placeReason: "the pattern as a whole",
            hint: #"use "regex:" for more"#
        ) { _ = try HostPattern("api.*.example.com") }

        // RewriteRuleError: rewrite rules built in code.
        await add(
            "RewriteRuleError.mapRemoteURL",
            input: #""api.example.com/v1""#,
            place: nil,
            placeReason: "the prefix as a whole lacks a scheme",
            hint: #"write "https://api.example.com/v1""#
        ) { _ = try MapRemote(from: "api.example.com/v1", to: "http://127.0.0.1:8080") }
        await add(
            "RewriteRuleError.mapRemoteURL",
            input: #""https://api.example.com:99999""#,
            place: nil,
            placeReason: "the port as a whole",
            hint: "a number from 1 to 65535"
        ) { _ = try MapRemote(from: "https://api.example.com:99999", to: "http://127.0.0.1:8080") }
        await add(
            "RewriteRuleError.jsonPath",
            input: #""$.user.""#,
            place: "at character 8",
            hint: "a name must follow"
        ) {
            _ = try BodyReplacement.jsonValue(at: "$.user.", to: "x")
        }
        await add(
            "RewriteRuleError.jsonValue",
            input: #""inf""#,
            place: nil,
            placeReason: "the value as a whole",
            hint: "finite numbers only"
        ) { _ = try BodyReplacement.jsonValue(at: "$.n", to: .number(.infinity)) }
        await add(
            "RewriteRuleError.headerName",
            input: #""X Debug""#,
            place: nil,
            placeReason: "the name as a whole",
            hint: "a header name is a token"
        ) { _ = try HeaderEdit.set("X Debug", to: "1") }
        await add(
            "RewriteRuleError.headerValue",
            input: #""a\r\nInjected: 1""#,
            place: "at character 2",
            hint: "no line break"
        ) { _ = try HeaderEdit.set("X-Debug", to: "a\r\nInjected: 1") }
        await add(
            "RewriteRuleError.searchText",
            input: #""""#,
            place: nil,
            placeReason: "the empty text as a whole",
            hint: "is empty"
        ) { _ = try BodyReplacement.text("", with: "x") }
        let rewrite = try config(
            #"{"rewrite": {"mapRemote": [{"from": "https://a.example", "to": "ftp://b"}]}}"#,
            "rw.json"
        )
        await add("InputError", input: "rw.json", place: "$.rewrite.mapRemote[0].to", hint: "http or https") {
            _ = try NetTapConfiguration.load(contentsOf: rewrite)
        }

        // RedactionPatternError.
        await add(
            "RedactionPatternError",
            input: #""(""#,
            place: nil,
            placeReason: "the expression as a whole",
            hint: #"missing ")""#
        ) { _ = try RedactionPattern.regex("(") }

        // PipelineError: a handler that calls next twice.
        await add(
            "PipelineError.nextCalledTwice",
            input: #""retry-twice""#,
            place: nil,
            placeReason: "a programming error in the named handler",
            hint: "at most once"
        ) {
            let harness = PipelineHarness(handlers: [CallsNextTwice()])
            _ = try await harness.send(URLRequest(url: try #require(URL(string: "http://127.0.0.1:9/"))))
        }

        // HARError: HAR text.
        await add("InputError", input: "broken.har", place: "broken.har:1:22", hint: #"close the array with "]""#) {
            _ = try HARDocument.decode(Data(#"{"log": {"entries": [}"#.utf8), source: "broken.har")
        }
        // An entry NetTap cannot read (a status that is an object, a request without url) is left out with a
        // warning (`HARDocument.load(contentsOf:warnings:)`); only what is not HAR is an error.
        await add("InputError", input: "log.har", place: "$.log", hint: "expected an object, found a string") {
            _ = try HARDocument.decode(Data(#"{"log": "entries"}"#.utf8), source: "log.har")
        }
        await add("InputError", input: "entries.har", place: "$.log.entries", hint: "expected an array, found a number")
        {
            _ = try HARDocument.decode(Data(#"{"log": {"entries": 5}}"#.utf8), source: "entries.har")
        }
        await add("InputError", input: "noentries.har", place: "$.log", hint: #"missing required field "entries""#) {
            _ = try HARDocument.decode(Data(#"{"log": {"pages": []}}"#.utf8), source: "noentries.har")
        }
        await add("InputError", input: "empty.har", place: "empty.har:1:1", hint: "the file is empty") {
            _ = try HARDocument.decode(Data(), source: "empty.har")
        }
        await add("InputError", input: "text.har", place: "text.har:1:1", hint: #"unexpected "hello""#) {
            _ = try HARDocument.decode(Data("hello".utf8), source: "text.har")
        }
        let control = try config("{\"capture\": \"a\nb\"}", "control.json")
        await add("InputError", input: "control.json", place: "control.json:1:15", hint: #"write it as "\n""#) {
            _ = try NetTapConfiguration.load(contentsOf: control)
        }
        let escape = try config(#"{"capture": "\q"}"#, "escape.json")
        await add("InputError", input: #""\q""#, place: "escape.json:1:14", hint: #"write a backslash as "\\""#) {
            _ = try NetTapConfiguration.load(contentsOf: escape)
        }
        let literal = try config(#"{"capture": {"enabled": tru}}"#, "literal.json")
        await add("InputError", input: #""tru""#, place: "literal.json:1:25", hint: "true, false, null") {
            _ = try NetTapConfiguration.load(contentsOf: literal)
        }
        await add("InputError", input: "colon.har", place: "colon.har:1:8", hint: #"a ":" is missing"#) {
            _ = try HARDocument.decode(Data(#"{"log" {}}"#.utf8), source: "colon.har")
        }
        let missingHAR = folder.appendingPathComponent("gone.har")
        await add(
            "InputError",
            input: "gone.har",
            place: nil,
            placeReason: "the whole file is missing",
            hint: "no such file"
        ) {
            _ = try HARDocument.load(contentsOf: missingHAR)
        }

        // MockingError: names that do not exist, an exchange that cannot become a stub.
        let mocks = MockSet(
            stubs: [
                Stub(
                    "login",
                    matching: .any,
                    alternatives: [.init("ok", .status(200)), .init("locked", .status(423))]
                )
            ],
            scenarios: [Scenario("checkout", stubs: [])]
        )
        await add(
            "MockingError.unknownScenario",
            input: #""chekout""#,
            place: nil,
            placeReason: "a name, not a text with places",
            hint: #"did you mean "checkout"?"#
        ) { try mocks.activate(scenario: "chekout") }
        await add(
            "MockingError.unknownScenario",
            input: #""black friday""#,
            place: nil,
            placeReason: "a name, not a text with places",
            hint: #"the scenarios are "checkout""#
        ) { try mocks.activate(scenario: "black friday") }
        await add(
            "MockingError.unknownStub",
            input: #""logn""#,
            place: nil,
            placeReason: "a name, not a text with places",
            hint: #"did you mean "login"?"#
        ) {
            try mocks.select(alternative: "ok", for: "logn")
        }
        await add(
            "MockingError.unknownAlternative",
            input: #""lockd""#,
            place: #"stub "login""#,
            hint: #"it has "ok", "locked""#
        ) { try mocks.select(alternative: "lockd", for: "login") }
        let statusZero =
            #"{"log": {"entries": [{"request": {"method": "GET", "url": "http://a/x"}, "response": {"status": 0}}]}}"#
        let entry = try #require(try HARDocument.decode(Data(statusZero.utf8), source: "zero.har").log.entries.first)
        await add(
            "MockingError.notSavable",
            input: "GET http://a/x",
            place: nil,
            placeReason: "the exchange as a whole has no response",
            hint: "no network error a stub can reproduce"
        ) { _ = try Stub(recording: entry) }
        let cart = MockSet(stubs: [
            Stub("add", matching: .any, response: .status(201)).withState(machine: "cart", moveTo: "item added")
        ])
        await add(
            "MockingError.unknownStateMachine",
            input: #""crat""#,
            place: nil,
            placeReason: "a name, not a text with places",
            hint: #"did you mean "cart"?"#
        ) { try cart.setState("x", of: "crat") }
        await add(
            "MockingError.unknownState",
            input: #""item aded""#,
            place: nil,
            placeReason: "a name, not a text with places",
            hint: #"did you mean "item added"?"#
        ) { try cart.setState("item aded", of: "cart") }

        // TemplateError: response templates given in code.
        await add(
            "TemplateError",
            input: #""id {{request.paht.2}}""#,
            place: "at character 4",
            hint: #"did you mean "request.path.2"?"#
        ) { _ = try StubResponse.text("id {{request.paht.2}}").templated() }
        await add("TemplateError", input: #""x {{request.path""#, place: "at character 3", hint: #""{{" is not closed"#)
        {
            _ = try StubResponse.text("x {{request.path").templated()
        }

        // IntegrityError: SRI strings.
        await add(
            "IntegrityError.invalidDigest",
            input: #""sha256""#,
            place: nil,
            placeReason: "the token as a whole",
            hint: "<algorithm>-<base64 digest>"
        ) { _ = try IntegrityMetadata(sri: "sha256") }
        await add(
            "IntegrityError.invalidDigest",
            input: #""md5""#,
            place: nil,
            placeReason: "the algorithm name is the place",
            hint: "expected sha256, sha384 or sha512"
        ) { _ = try IntegrityDigest(sri: "md5-1B2M2Y8AsgTpgAmY7PhCfg==") }
        await add(
            "IntegrityError.invalidDigest",
            input: #""sha256-abc""#,
            place: nil,
            placeReason: "the digest as a whole has the wrong length",
            hint: "a sha256 digest is 32 bytes, found 2"
        ) { _ = try IntegrityDigest(sri: "sha256-abc") }
        await add(
            "IntegrityError.invalidDigest",
            input: #""ab!c""#,
            place: nil,
            placeReason: "the base64 part as a whole"
        ) {
            _ = try IntegrityDigest(sri: "sha256-ab!c")
        }
        await add(
            "IntegrityError.invalidDigest",
            input: #""md5""#,
            place: nil,
            placeReason: "the value as a whole",
            hint: "no sha256, sha384 or sha512 digest"
        ) { _ = try IntegrityMetadata(sri: "md5-1B2M2Y8AsgTpgAmY7PhCfg==") }

        // FileMountError.
        await add(
            "FileMountError.invalidPrefix",
            input: #""ftp://x/""#,
            place: nil,
            placeReason: "the scheme of the prefix",
            hint: "the scheme must be http or https"
        ) { _ = try FileMount(prefix: "ftp://x/", directory: folder) }
        let noFolder = folder.appendingPathComponent("no-such-folder")
        await add(
            "FileMountError.directoryNotFound",
            input: noFolder.path,
            place: nil,
            placeReason: "the whole directory is missing"
        ) { _ = try FileMount(prefix: "https://example.com/assets/", directory: noFolder) }

        // OfflineCacheError: options given in code.
        await add(
            "OfflineCacheError",
            input: "maxBytes",
            place: nil,
            placeReason: "an argument, not a text",
            hint: "at least 1 byte, found 0"
        ) { _ = try OfflineCache(directory: folder.appendingPathComponent("cache"), maxBytes: 0) }
        await add(
            "OfflineCacheError",
            input: "maxEntryBytes",
            place: nil,
            placeReason: "an argument, not a text",
            hint: "between 1 and maxBytes (2) bytes, found 5"
        ) { _ = try OfflineCache(directory: folder.appendingPathComponent("cache"), maxBytes: 2, maxEntryBytes: 5) }
        let aFile = try write("x", "a-file", in: folder)
        await add(
            "OfflineCacheError",
            input: aFile.path,
            place: nil,
            placeReason: "the whole path is a file",
            hint: "is a file, not a directory"
        ) { _ = try OfflineCache(directory: aFile) }
        await add(
            "OfflineCacheError",
            input: aFile.appendingPathComponent("sub").path,
            place: nil,
            placeReason: "the whole path",
            hint: "\(aFile.path) is a file, not a directory"
        ) { _ = try OfflineCache(directory: aFile.appendingPathComponent("sub")) }

        // StoreError: store files and query arguments.
        let noStore = folder.appendingPathComponent("none.sqlite")
        await add(
            "StoreError.missingFile",
            input: noStore.path,
            place: nil,
            placeReason: "the whole file is missing",
            hint: "no such file"
        ) { _ = try TransactionStore(url: noStore, mode: .readOnly) }
        await add(
            "StoreError.cannotOpen",
            input: folder.path,
            place: nil,
            placeReason: "the path is a folder",
            hint: "is a directory, not a store file"
        ) { _ = try TransactionStore(url: folder, mode: .readOnly) }
        let text = try write("hello", "text.sqlite", in: folder)
        await add(
            "StoreError.notAStore",
            input: text.path,
            place: nil,
            placeReason: "the whole file",
            hint: "not a NetTap store"
        ) { _ = try TransactionStore(url: text, mode: .readOnly) }
        let newer = folder.appendingPathComponent("newer.sqlite")
        do {
            let store = try TransactionStore(url: newer)
            try await store.checkpoint()
        }
        // The SQLite header keeps `PRAGMA user_version` at byte offset 60 (big-endian), as a newer NetTap sets it.
        var header = try Data(contentsOf: newer)
        header.replaceSubrange(60..<64, with: [0, 0, 0, 99])
        try header.write(to: newer)
        await add("StoreError.newerSchema", input: newer.path, place: "schema version 99", hint: "update NetTap") {
            _ = try TransactionStore(url: newer, mode: .readOnly)
        }
        await add(
            "StoreError.invalidQuery",
            input: #"status "7xx""#,
            place: nil,
            placeReason: "an argument, not a text",
            hint: "must be one of 1xx, 2xx"
        ) { _ = try StoreQuery.StatusClass.parse("7xx") }
        await add(
            "StoreError.invalidQuery",
            input: #"host "*""#,
            place: nil,
            placeReason: "an argument, not a text",
            hint: "*.domain"
        ) {
            var query = StoreQuery()
            query.host = "*"
            try query.validate()
        }
        // No input path: SQLite reports damage only for pages written wrongly below the file system, a record
        // that does not decode needs SQL writes into the store, `closed` is thrown by no code path yet, and other
        // SQLite failures are disk full or I/O errors. These are made by hand to check the wording shape.
        let storePath = "/data/captures.sqlite"
        entries += [
            CatalogueEntry(
                key: "StoreError.corrupt",
                error: StoreError(
                    code: .corrupt,
                    file: storePath,
                    message: "the database is damaged: database disk image is malformed"
                ),
                input: storePath,
                place: nil,
                placeReason: "SQLite does not say where"
            ),
            CatalogueEntry(
                key: "StoreError.invalidRecord",
                error: StoreError(
                    code: .invalidRecord,
                    file: storePath,
                    input: "transaction 1F0C",
                    message: #"cannot decode the stored record: $.request: missing field "url""#
                ),
                input: storePath,
                place: "transaction 1F0C"
            ),
            CatalogueEntry(
                key: "StoreError.closed",
                error: StoreError(code: .closed, file: storePath, message: "the store was closed"),
                input: storePath,
                place: nil,
                placeReason: "the store as a whole"
            ),
            CatalogueEntry(
                key: "StoreError.sqlite",
                error: StoreError(
                    code: .sqlite,
                    file: storePath,
                    input: "INSERT INTO transactions …",
                    message: "database or disk is full (SQLite code 13)"
                ),
                input: storePath,
                place: "INSERT INTO transactions"
            ),
        ]

        // StreamingDigest.Failure: finalize twice is real; the crypto library failing is not a user's input.
        await add(
            "StreamingDigest.Failure.alreadyFinalized",
            input: "finalize()",
            place: nil,
            placeReason: "a call order, not a text",
            hint: "start a new StreamingDigest"
        ) {
            let digest = try StreamingDigest(.sha256)
            _ = try digest.finalize()
            _ = try digest.finalize()
        }
        entries += [
            CatalogueEntry(
                key: "StreamingDigest.Failure.unavailable",
                error: StreamingDigest.Failure.unavailable(.sha384),
                input: "sha384",
                place: nil,
                placeReason: "the platform's library, not an input"
            ),
            CatalogueEntry(
                key: "StreamingDigest.Failure.failed",
                error: StreamingDigest.Failure.failed(.sha512),
                input: "sha512",
                place: nil,
                placeReason: "the platform's library, not an input"
            ),
        ]
        try? FileManager.default.removeItem(at: folder)
        return entries
    }

    // MARK: - Tests

    @Test("every catalogued error has the wording shape: one line, input, place, hint, no internals")
    func wordingShape() async throws {
        let entries = try await Self.catalogue()
        #expect(entries.count >= 40)
        for entry in entries {
            checkShape(entry)
        }
    }

    @Test("every cut and every one-byte change of a configuration is described in words, never Foundation's text")
    func syntaxErrorsInWords() throws {
        let text = Data(
            #"{"mocks": {"stubs": [{"name": "a\u00e9", "match": {"port": 8080}, "response": {"status": 200}}]}}"#.utf8
        )
        var damaged: [Data] = (0..<text.count).map { Data(text.prefix($0)) }
        for index in text.indices {
            for byte in Array(#"}]",:x0\"#.utf8) + [0x0A, 0x09] {
                var copy = text
                copy[index] = byte
                damaged.append(copy)
            }
        }
        for data in damaged {
            do {
                _ = try ConfigNode(parsing: data, source: "d.json")
            } catch let error as ConfigurationError {
                let description = error.description
                #expect(!description.contains("\n"), "\(description)")
                for leak in leakedInternals + ["Unexpected end of file", "the text is not JSON"] {
                    #expect(!description.contains(leak), "\(String(decoding: data, as: UTF8.self)) → \(description)")
                }
            }
        }
    }

    @Test("every entry is filed under the key its error maps to")
    func keysMatchErrors() async throws {
        for entry in try await Self.catalogue() {
            #expect(Self.key(of: entry.error) == entry.key, "\(entry.key): \(entry.error)")
        }
    }

    @Test("every case of every error type has an entry")
    func complete() async throws {
        let keys = Set(try await Self.catalogue().map(\.key))
        for key in Self.everyKey {
            #expect(keys.contains(key), "no catalogue entry for \(key)")
        }
    }
}
