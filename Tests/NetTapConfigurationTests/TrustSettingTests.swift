import Foundation
import NetTapConfiguration
import NetTapCore
import NetTapTestSupport
import Testing

@Suite("trust in nettap.json")
struct TrustSettingTests {
    static let pin = "sha256//YhKJKSzoTt2b5FP18fvpHo7fJYqQCjAa3HWY3tvRMwE="
    static let pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"

    func load(_ json: String, files: [String: String] = [:]) throws -> (NetTapConfiguration, TemporaryFolder) {
        let folder = try TemporaryFolder(prefix: "nettap-trust")
        for (path, text) in files { try folder.write(text, to: path) }
        let file = try folder.write(json, to: "nettap.json")
        return (try NetTapConfiguration.load(contentsOf: file), folder)
    }

    @Test("a CA file relative to nettap.json and a pin become the interceptor's trust rules, in order")
    func applied() throws {
        let (configuration, folder) = try load(
            #"{"trust": {"rules": [{"host": "dev.local", "certificateAuthority": "certs/ca.pem"}, "#
                + #"{"host": "*.staging.test", "publicKeySHA256": "\#(Self.pin)"}]}}"#,
            files: ["certs/ca.pem": Self.pem]
        )
        defer { folder.remove() }
        let interceptor = NetTapInterceptor()
        try configuration.apply(to: interceptor)
        #expect(interceptor.trustRules.count == 2)
        #expect(interceptor.trustRules.first?.applies(to: URL(string: "https://dev.local/x")) == true)
        #expect(interceptor.trustRules.first?.applies(to: URL(string: "http://dev.local/x")) == false)
        #expect(interceptor.trustRules.last?.applies(to: URL(string: "https://api.staging.test/")) == true)
        #expect(interceptor.trustRules.last?.applies(to: URL(string: "https://staging.test/")) == false)
        guard case .certificateAuthority(_, let source)? = interceptor.trustRules.first?.anchor else {
            Issue.record("the first rule is not a CA rule")
            return
        }
        #expect(source.path == folder.url.appendingPathComponent("certs/ca.pem").standardizedFileURL.path)
    }

    @Test(
        "bad rules name the file and the JSON path",
        arguments: [
            (
                #"{"host": "dev.local", "certificateAuthority": "missing.pem"}"#,
                "$.trust.rules[0].certificateAuthority", "no such file"
            ),
            (
                #"{"host": "dev.local", "certificateAuthority": "empty.pem"}"#, "$.trust.rules[0].certificateAuthority",
                "holds no PEM certificate"
            ),
            (
                #"{"host": "dev.local", "publicKeySHA256": "sha256//notbase64"}"#, "$.trust.rules[0].publicKeySHA256",
                "is not a SHA-256 digest"
            ),
            (#"{"host": "regex:(", "publicKeySHA256": "\#(pin)"}"#, "$.trust.rules[0].host", "invalid host pattern"),
            (#"{"host": "dev.local"}"#, "$.trust.rules[0]", "needs \"certificateAuthority\""),
            (#"{"host": "dev.local", "pin": "x"}"#, "$.trust.rules[0].pin", "unknown key"),
        ]
    )
    func refused(rule: String, path: String, words: String) throws {
        let folder = try TemporaryFolder(prefix: "nettap-trust")
        defer { folder.remove() }
        try folder.write("not a certificate", to: "empty.pem")
        let file = try folder.write(#"{"trust": {"rules": [\#(rule)]}}"#, to: "nettap.json")
        let error = try #require(throws: ConfigurationError.self) { try NetTapConfiguration.load(contentsOf: file) }
        #expect(error.source == "nettap.json")
        #expect(error.path == path)
        #expect(error.message.contains(words), "\(error)")
    }
}
