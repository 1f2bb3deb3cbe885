import Foundation
import NetTapConfiguration
import NetTapCore
import NetTapTestSupport
import Testing

@Suite("install.transport in nettap.json")
struct TransportSettingTests {
    @Test(
        "urlsession and libcurl set the interceptor's transport; absent leaves it",
        arguments: ["urlsession", "libcurl", nil]
    )
    func choice(name: String?) throws {
        let folder = try TemporaryFolder(prefix: "nettap-config")
        defer { folder.remove() }
        let member = name.map { #", "transport": "\#($0)""# } ?? ""
        let file = try folder.write(#"{"install": {"sharedSession": false\#(member)}}"#, to: "nettap.json")
        let configuration = try NetTapConfiguration.load(contentsOf: file)
        let interceptor = NetTapInterceptor()
        let before = interceptor.transport
        try configuration.apply(to: interceptor)
        switch name {
        case "urlsession": #expect(interceptor.transport is ForwardingTransport)
        case "libcurl": #expect(interceptor.transport is CurlTransport)
        default: #expect(type(of: interceptor.transport) == type(of: before))
        }
        #expect(configuration.install?.transport?.rawValue == name)
    }

    @Test("an unknown transport names the file, the JSON path and the choices")
    func unknown() throws {
        let folder = try TemporaryFolder(prefix: "nettap-config")
        defer { folder.remove() }
        let file = try folder.write(#"{"install": {"transport": "curl"}}"#, to: "nettap.json")
        let error = try #require(throws: ConfigurationError.self) { try NetTapConfiguration.load(contentsOf: file) }
        #expect(error.path == "$.install.transport")
        #expect(error.source == "nettap.json")
        #expect(error.message.contains("\"libcurl\"") && error.message.contains("\"urlsession\""))
    }
}
