import Foundation
import NetTapCore
import Testing

@Suite("Redactor defaults")
struct RedactorDefaultsTests {
    private let redactor = Redactor.default

    @Test(
        "the issue's names are secret as query items and body fields, in any case and common spellings",
        arguments: [
            "password", "passwd", "secret", "token", "access_token", "refresh_token", "api_key", "client_secret",
            "session", "otp", "PASSWORD", "Access_Token", "accessToken", "refresh-token", "clientSecret", "apiKey",
            "x-api-key", "new_password", "user_password", "aws_secret_access_key", "csrf_token", "authToken",
            "id_token", "sessionId",
        ]
    )
    func secretFieldNames(name: String) {
        #expect(redactor.isSecret(name, at: .queryItem))
        #expect(redactor.isSecret(name, at: .bodyField))
    }

    @Test(
        "ordinary names stay visible",
        arguments: ["user", "name", "page", "token_type", "tokens_remaining", "q", "id", "email", "footprint"]
    )
    func visibleFieldNames(name: String) {
        #expect(!redactor.isSecret(name, at: .queryItem))
        #expect(!redactor.isSecret(name, at: .bodyField))
    }

    @Test(
        "credential, API key and token headers are secret",
        arguments: [
            "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key", "x-api-key-v2", "X_API_KEY",
            "apikey", "X-Auth-Token", "X-CSRF-Token", "X-Amz-Security-Token", "X-Client-Secret", "X-Password",
        ]
    )
    func secretHeaders(name: String) {
        #expect(redactor.isSecret(name, at: .header))
    }

    @Test("ordinary headers stay visible", arguments: ["Accept", "Content-Type", "User-Agent", "X-Request-ID", "Host"])
    func visibleHeaders(name: String) {
        #expect(!redactor.isSecret(name, at: .header))
    }

    @Test("nested JSON at any depth, arrays of arrays, and camelCase members are redacted")
    func deepJSON() throws {
        let body = Data(
            #"{"a":[[{"b":{"accessToken":"s3cr3t-1"}}]],"list":[{"Password":"s3cr3t-2"},{"keep":"x"}],"token_type":"Bearer"}"#
                .utf8
        )
        let result = redactor.redact(body: body, contentType: "application/json")
        #expect(
            try JSONValue(data: result.value) == [
                "a": [[["b": ["accessToken": "[redacted]"]]]], "list": [["Password": "[redacted]"], ["keep": "x"]],
                "token_type": "Bearer",
            ]
        )
        #expect(result.locations.map(\.name) == ["$.a[0][0].b.accessToken", "$.list[0].Password"])
    }

    @Test("a body without any secret-looking name keeps its bytes; an escaped name is still found")
    func prefilter() throws {
        let plain = Data(#"{ "user" : "ann",  "items": [1, 2] }"#.utf8)
        #expect(redactor.redact(body: plain, contentType: "application/json").value == plain)
        let escaped = Data(#"{"pass\u0077ord": "s3cr3t"}"#.utf8)
        let result = redactor.redact(body: escaped, contentType: "application/json")
        #expect(try JSONValue(data: result.value) == ["password": "[redacted]"])
        let encodedForm = Data("pass%77ord=s3cr3t&a=1".utf8)
        #expect(
            redactor.redact(body: encodedForm, contentType: "application/x-www-form-urlencoded").value
                == Data("pass%77ord=%5Bredacted%5D&a=1".utf8)
        )
        // A regex rule has no fixed text: every JSON body is parsed.
        let regex = Redactor(rules: [.bodyField(try .regex("p.n"))])
        #expect(
            try JSONValue(data: regex.redact(body: Data(#"{"pin":"1"}"#.utf8), contentType: nil).value) == [
                "pin": "[redacted]"
            ]
        )
    }

    @Test("wildcards match without a regular expression: prefix, suffix, middle, several stars, case")
    func wildcards() {
        #expect(RedactionPattern.wildcard("*token").matches("csrf_TOKEN"))
        #expect(!RedactionPattern.wildcard("*token").matches("token_type"))
        #expect(RedactionPattern.wildcard("x-*-key").matches("X-Api-Key"))
        #expect(!RedactionPattern.wildcard("x-*-key").matches("X-Key"))
        #expect(
            RedactionPattern.wildcard("a*b*c").matches("aXbYc") && !RedactionPattern.wildcard("a*b*c").matches("acb")
        )
        #expect(RedactionPattern.wildcard("*").matches("") && RedactionPattern.wildcard("ab*ab").matches("abab"))
        #expect(!RedactionPattern.wildcard("ab*ab").matches("aba"))
    }

    @Test("a secret only the response reveals is removed from the request URL and the response URL too")
    func revealedSecrets() throws {
        let url = try #require(URL(string: "http://h/response-headers?Set-Cookie=sid%3Ds3cr3t-revealed&q=1"))
        let transaction = CapturedTransaction(
            request: CapturedRequest(method: "GET", url: url, headers: [:]),
            response: CapturedResponse(statusCode: 200, headers: ["Set-Cookie": "sid=s3cr3t-revealed"], url: url),
            timings: Timings(startDate: Date(timeIntervalSince1970: 0)),
            annotations: ["note": "saw s3cr3t-revealed"],
            findings: [Finding(rule: "r", severity: .low, location: url.absoluteString, message: "m")]
        )
        let result = redactor.redact(transaction: transaction).value
        #expect(!String(decoding: try JSONEncoder().encode(result), as: UTF8.self).contains("s3cr3t"))
        #expect(result.request.url.absoluteString == "http://h/response-headers?Set-Cookie=sid%3D%5Bredacted%5D&q=1")
        #expect(result.response?.url == result.request.url)
        #expect(result.annotations["note"] == "saw [redacted]")
        #expect(result.redactions.map(\.description).contains("request echo url"))
        // The request alone does not know it: replay compares requests alone and treats the placeholder as a
        // wildcard (CassetteMatching).
        #expect(redactor.redact(request: transaction.request).value.url == url)
    }

    @Test("a request's own secret repeated in its URL is removed there too")
    func requestURLEcho() throws {
        let request = CapturedRequest(
            method: "GET",
            url: try #require(URL(string: "http://h/x?sig=abc-s3cr3t-value")),
            headers: ["X-Api-Key": "abc-s3cr3t-value"]
        )
        let result = redactor.redact(request: request)
        #expect(result.value.url.absoluteString == "http://h/x?sig=%5Bredacted%5D")
        #expect(result.locations.map(\.description) == ["header X-Api-Key", "echo url"])
    }

    @Test("the disabled redactor is not enabled and leaves user-info passwords alone; the default is enabled")
    func enabled() throws {
        #expect(!Redactor.disabled.isEnabled && Redactor.default.isEnabled)
        let url = try #require(URL(string: "https://u:pw@h/"))
        #expect(Redactor.disabled.redact(url: url).value == url)
    }
}
