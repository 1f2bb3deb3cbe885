import Foundation
import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which responses the ``IntegrityHandler`` verifies, where their expected digest comes from, and what happens
/// when a body does not match.
///
/// A rule selects a request when its ``matcher`` matches and the request's URL path ends in one of
/// ``pathExtensions`` (by default `.js`, `.css`, `.wasm` and `.html`, the files an operator or proxy injects
/// ads or scripts into):
///
/// ```swift
/// let rule = IntegrityRule(
///     .host("cdn.example.com"),
///     expect: .fileName,                                   // app.<sha256 hex>.js
///     onMismatch: .fallback(.directory(bundledAssets)))    // serve the copy shipped with the app
/// ```
public struct IntegrityRule: Sendable {
    /// Where the expected digest of a selected response comes from.
    public enum Expectation: Sendable {
        /// A hexadecimal digest embedded in the file name, as ``IntegrityRule/digest(inFileName:)`` reads it.
        case fileName
        /// The manifest's entry for the URL path.
        case manifest(IntegrityManifest)
        /// The same digests for every selected response (the rule's matcher usually names one file).
        case digest(IntegrityMetadata)
    }

    /// What the handler does when a body's digest is not the expected one.
    public enum MismatchAction: Sendable {
        /// Serve a known-good copy instead, verified against the same expectation; fail when it is missing or
        /// does not match either.
        case fallback(IntegrityFallback)
        /// Fail the request with `URLError(.badServerResponse)`.
        case fail
        /// Deliver the body as received and record the finding.
        case report

        /// The action's name in findings and configuration: `fallback`, `fail` or `report`.
        public var name: String {
            switch self {
            case .fallback: "fallback"
            case .fail: "fail"
            case .report: "report"
            }
        }
    }

    /// The URL path extensions selected by default: `js`, `css`, `wasm` and `html`.
    public static let defaultPathExtensions: Set<String> = ["js", "css", "wasm", "html"]

    /// Which requests the rule is for, together with ``pathExtensions``.
    public var matcher: RequestMatcher
    /// The URL path extensions (without the dot, compared case-insensitively) the rule selects; empty selects
    /// every path the matcher matches.
    public var pathExtensions: Set<String>
    /// Where the expected digest comes from.
    public var expectation: Expectation
    /// What happens on a mismatch.
    public var onMismatch: MismatchAction

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - matcher: Which requests the rule is for, for example `.host("cdn.example.com")`.
    ///   - pathExtensions: The URL path extensions selected; ``defaultPathExtensions`` by default, empty for all.
    ///   - expect: Where the expected digest comes from.
    ///   - onMismatch: What happens on a mismatch.
    public init(
        _ matcher: RequestMatcher,
        pathExtensions: Set<String> = IntegrityRule.defaultPathExtensions,
        expect: Expectation,
        onMismatch: MismatchAction
    ) {
        self.matcher = matcher
        self.pathExtensions = Set(pathExtensions.map { $0.lowercased() })
        self.expectation = expect
        self.onMismatch = onMismatch
    }

    /// Whether the rule selects a request.
    ///
    /// - Parameter request: The request as the handler received it.
    /// - Returns: `true` when the matcher matches and the path has one of ``pathExtensions`` (or that set is
    ///   empty).
    public func selects(_ request: URLRequest) -> Bool {
        guard let url = request.url else { return false }
        if !pathExtensions.isEmpty {
            let pathExtension = (RequestMatcher.path(of: url) as NSString).pathExtension.lowercased()
            guard pathExtensions.contains(pathExtension) else { return false }
        }
        return matcher.matches(request)
    }

    /// The expected digests for a URL path.
    ///
    /// - Parameter path: The percent-decoded URL path of the request.
    /// - Returns: The expectation, or `nil` when there is none (no digest in the file name, no manifest entry).
    public func expectation(forPath path: String) -> IntegrityMetadata? {
        switch expectation {
        case .fileName:
            Self.digest(inFileName: (path as NSString).lastPathComponent).map(IntegrityMetadata.init)
        case .manifest(let manifest):
            manifest.expectation(forPath: path)
        case .digest(let metadata):
            metadata
        }
    }

    /// Reads the digest a file name carries: the part before the extension, when it is a SHA-2 digest in hex.
    ///
    /// The rule, exactly: split the file name at every `.`; it needs at least two parts, and the part just
    /// before the last one (the extension) must consist of exactly 64, 96 or 128 hexadecimal digits (`0-9`,
    /// `a-f`, either case), read as the SHA-256, SHA-384 or SHA-512 digest of the file's bytes. So
    /// `app.<64 hex>.js` and `<64 hex>.js` carry a SHA-256 digest, while `app.<64 hex>.min.js` (the part before
    /// the extension is `min`), `app-<64 hex>.js` (the hash is not its own part), `app.<63 or 65 hex>.js` and
    /// `app.<64 characters with a g>.js` carry none. Truncated content hashes that bundlers put in names by
    /// default (8 or 20 digits of MD4 or xxhash) are not digests NetTap can check.
    /// - Parameter fileName: The last path component, for example `app.3f9a…e1.js`.
    /// - Returns: The digest, or `nil` when the name carries none.
    public static func digest(inFileName fileName: String) -> IntegrityDigest? {
        let parts = fileName.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        return IntegrityDigest.fromHex(parts[parts.count - 2])
    }
}
