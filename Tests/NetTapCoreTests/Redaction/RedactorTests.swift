import Foundation
import NetTapCore
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Redactor")
struct RedactorTests {
    private let redactor = Redactor.default

    private func url(_ string: String) throws -> URL {
        try #require(URL(string: string))
    }

    private func json(_ data: Data) throws -> JSONValue {
        try JSONValue(data: data)
    }

    @Test("default header rules replace credentials, API keys and tokens and keep other fields")
    func headers() {
        let headers: HeaderFields = [
            "Authorization": "Bearer s3cr3t-bearer",
            "Proxy-Authorization": "Basic s3cr3t-basic",
            "X-Api-Key": "s3cr3t-key",
            "x_api_key": "s3cr3t-key2",
            "X-Auth-Token": "s3cr3t-auth",
            "X-CSRF-Token": "s3cr3t-csrf",
            "Accept": "application/json",
            "Authorization-Hint": "none",
        ]
        let result = redactor.redact(headers: headers)
        #expect(result.value["Authorization"] == "Bearer [redacted]")
        #expect(result.value["Proxy-Authorization"] == "Basic [redacted]")
        #expect(result.value["X-Api-Key"] == "[redacted]")
        #expect(result.value["x_api_key"] == "[redacted]")
        #expect(result.value["X-Auth-Token"] == "[redacted]")
        #expect(result.value["X-CSRF-Token"] == "[redacted]")
        #expect(result.value["Accept"] == "application/json")
        #expect(result.value["Authorization-Hint"] == "none")
        #expect(result.value.map(\.name) == headers.map(\.name))
        #expect(
            result.locations.map(\.description) == [
                "header Authorization", "header Proxy-Authorization", "header X-Api-Key", "header x_api_key",
                "header X-Auth-Token", "header X-CSRF-Token",
            ]
        )
    }

    @Test("an underscore API key header is covered by *api_key*, a credential without scheme becomes the placeholder")
    func moreHeaders() {
        let result = redactor.redact(headers: ["my_api_key_header": "s3cr3t", "Authorization": "s3cr3t"])
        #expect(result.value["my_api_key_header"] == "[redacted]")
        #expect(result.value["Authorization"] == "[redacted]")
    }

    @Test("Cookie and Set-Cookie keep cookie names and attributes and lose only the values")
    func cookies() {
        let headers: HeaderFields = [
            "Cookie": "session=s3cr3t-a; theme=s3cr3t-b",
            "Set-Cookie": "session=s3cr3t-c; Path=/; HttpOnly",
        ]
        let result = redactor.redact(headers: headers)
        #expect(result.value["Cookie"] == "session=[redacted]; theme=[redacted]")
        #expect(result.value["Set-Cookie"] == "session=[redacted]; Path=/; HttpOnly")
        #expect(
            result.locations.map(\.description) == [
                "cookie session in Cookie", "cookie theme in Cookie", "cookie session in Set-Cookie",
            ]
        )
    }

    @Test("a cookie without a name, written bare or as =value, loses its value too (RFC 6265 §5.2)")
    func namelessCookies() {
        let result = redactor.redact(headers: [
            "Set-Cookie": "=s3cr3t-bare-1; Path=/", "Cookie": "=s3cr3t-bare-2; a=s3cr3t-3; s3cr3t-bare-4",
        ])
        #expect(result.value["Set-Cookie"] == "=[redacted]; Path=/")
        #expect(result.value["Cookie"] == "=[redacted]; a=[redacted]; [redacted]")
        #expect(!result.locations.isEmpty)
    }

    @Test("Set-Cookie lines joined with a comma are split at cookies, not inside Expires dates")
    func joinedSetCookie() {
        let value = "a=s3cr3t-1; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Path=/, b=s3cr3t-2; Secure"
        let result = redactor.redact(headers: ["Set-Cookie": value])
        #expect(
            result.value["Set-Cookie"]
                == "a=[redacted]; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Path=/, b=[redacted]; Secure"
        )
    }

    @Test("Set-Cookie and Cookie values of several lines (Firefox's HAR export) are redacted on every line")
    func multilineCookies() {
        let setCookie = "sid=s3cr3t-1; Path=/\nsession=s3cr3t-2; HttpOnly; Secure\r\nprefs=s3cr3t-3\rlast=s3cr3t-4"
        let result = redactor.redact(headers: ["Set-Cookie": setCookie, "Cookie": "a=s3cr3t-5;\nb=s3cr3t-6"])
        #expect(
            result.value["Set-Cookie"]
                == "sid=[redacted]; Path=/\nsession=[redacted]; HttpOnly; Secure\r\nprefs=[redacted]\rlast=[redacted]"
        )
        #expect(result.value["Cookie"] == "a=[redacted];\nb=[redacted]")
        #expect(result.locations.count == 6)
        let narrow = Redactor(rules: [.cookie("session")]).redact(headers: ["Set-Cookie": setCookie])
        #expect(narrow.value["Set-Cookie"]?.contains("session=[redacted]; HttpOnly") == true)
        #expect(narrow.value["Set-Cookie"]?.contains("sid=s3cr3t-1") == true)
    }

    @Test("a cookie exception keeps that cookie; a cookie rule works without the header rule")
    func cookieExceptionsAndRules() {
        let excepting = redactor.excepting([.cookie("theme")])
        #expect(
            excepting.redact(headers: ["Cookie": "theme=dark; sid=s3cr3t"]).value["Cookie"]
                == "theme=dark; sid=[redacted]"
        )
        let narrow = Redactor(rules: [.cookie("sid")])
        #expect(
            narrow.redact(headers: ["Cookie": "theme=dark; sid=s3cr3t"]).value["Cookie"] == "theme=dark; sid=[redacted]"
        )
    }

    @Test("query items with secret names are replaced, other items keep their spelling and order")
    func query() throws {
        let original = try url(
            "https://u:s3cr3t-pw@api.example/x?page=2&TOKEN=s3cr3t-1&q=a%20b&access_token=s3cr3t-2#top"
        )
        let result = redactor.redact(url: original)
        #expect(
            result.value.absoluteString
                == "https://u:%5Bredacted%5D@api.example/x?page=2&TOKEN=%5Bredacted%5D&q=a%20b&access_token=%5Bredacted%5D#top"
        )
        let items = URLComponents(url: result.value, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.first { $0.name == "TOKEN" }?.value == Redactor.placeholder)
        #expect(result.locations.map(\.description) == ["query TOKEN", "query access_token", "userinfo password"])
    }

    @Test("a URL without secrets is returned unchanged")
    func cleanURL() throws {
        let original = try url("http://127.0.0.1:8080/get?b=2&a=1")
        let result = redactor.redact(url: original)
        #expect(result.value == original)
        #expect(!result.didRedact)
    }

    @Test("JSON bodies: secret members at any depth and in arrays become the string placeholder, the JSON stays valid")
    func jsonBody() throws {
        let body = Data(
            """
            {"user": {"name": "ann", "Password": "s3cr3t-1", "profile": {"api_key": "s3cr3t-2"}},
             "items": [{"token": "s3cr3t-3"}, {"id": 7, "refresh_token": "s3cr3t-4"}],
             "session": {"id": "s3cr3t-5"}, "otp": 123456, "secret": null, "count": 2}
            """.utf8
        )
        let result = redactor.redact(body: body, contentType: "application/json; charset=utf-8")
        let value = try json(result.value)
        #expect(value["user"]?["name"] == "ann")
        #expect(value["user"]?["Password"] == "[redacted]")
        #expect(value["user"]?["profile"]?["api_key"] == "[redacted]")
        #expect(value["items"] == [["token": "[redacted]"], ["id": 7, "refresh_token": "[redacted]"]])
        #expect(value["session"] == "[redacted]")
        #expect(value["otp"] == "[redacted]")
        #expect(value["secret"] == .null)
        #expect(value["count"] == 2)
        #expect(!String(decoding: result.value, as: UTF8.self).contains("s3cr3t"))
        #expect(
            Set(result.locations.map(\.description)) == [
                "json $.user.Password", "json $.user.profile.api_key", "json $.items[0].token",
                "json $.items[1].refresh_token", "json $.session", "json $.otp",
            ]
        )
    }

    @Test("a JSON body without content type is recognised; one without secrets keeps its exact bytes")
    func jsonSniffingAndUntouched() throws {
        let sniffed = redactor.redact(body: Data(#"[{"passwd":"s3cr3t"}]"#.utf8), contentType: nil)
        #expect(try json(sniffed.value) == [["passwd": "[redacted]"]])
        #expect(sniffed.locations.map(\.description) == ["json $[0].passwd"])
        let clean = Data(#"{ "b": 1,   "a": 2 }"#.utf8)
        #expect(redactor.redact(body: clean, contentType: "application/json").value == clean)
        let truncated = Data(#"{"password": "s3cr"#.utf8)
        #expect(redactor.redact(body: truncated, contentType: "application/json").value == truncated)
    }

    @Test("form bodies stay forms: secret fields get the encoded placeholder")
    func formBody() {
        let body = Data("user=ann&password=s3cr3t+1&client_secret=s3cr3t%202&keep=1".utf8)
        let result = redactor.redact(body: body, contentType: "application/x-www-form-urlencoded")
        #expect(
            String(decoding: result.value, as: UTF8.self)
                == "user=ann&password=%5Bredacted%5D&client_secret=%5Bredacted%5D&keep=1"
        )
        #expect(result.locations.map(\.description) == ["form password", "form client_secret"])
    }

    @Test("other content types are left alone")
    func otherBodies() {
        let body = Data("password=s3cr3t".utf8)
        #expect(redactor.redact(body: body, contentType: "text/plain").value == body)
    }

    @Test("rules and exceptions by exact name, wildcard and regex")
    func customRules() throws {
        let custom = Redactor.default
            .adding([.header("X-Session-*"), .bodyField(try .regex("pin|cvv\\d?"))] + RedactionRule.parameter("sig"))
            .excepting([.bodyField("token"), .header("X-CSRF-Token")])
        let headers = custom.redact(headers: ["X-Session-ID": "s3cr3t", "X-CSRF-Token": "visible"]).value
        #expect(headers["X-Session-ID"] == "[redacted]")
        #expect(headers["X-CSRF-Token"] == "visible")
        let body = custom.redact(
            body: Data(#"{"PIN": "1234", "cvv2": "999", "cvvx": "k", "token": "t", "sig": "s"}"#.utf8),
            contentType: "application/json"
        )
        #expect(
            try json(body.value) == [
                "PIN": "[redacted]", "cvv2": "[redacted]", "cvvx": "k", "token": "t", "sig": "[redacted]",
            ]
        )
        #expect(custom.redact(url: try url("http://h/?sig=abc")).value.absoluteString == "http://h/?sig=%5Bredacted%5D")
    }

    @Test("an invalid regular expression is an error naming the pattern")
    func invalidRegex() {
        #expect {
            _ = try RedactionPattern.regex("(")
        } throws: { error in
            "\(error)".hasPrefix("redaction pattern \"(\": not a valid regular expression")
        }
    }

    @Test("pattern literals: with * a wildcard, else exact; matching ignores case")
    func patterns() {
        let wildcard: RedactionPattern = "*api-key*"
        let exact: RedactionPattern = "token"
        #expect(wildcard.kind == .wildcard && wildcard.matches("X-API-KEY-v2"))
        #expect(!wildcard.matches("X-Api-Keys-Are-Not-Here".replacingOccurrences(of: "-Key", with: "")))
        #expect(exact.kind == .exact && exact.matches("TOKEN") && !exact.matches("tokens"))
        #expect(RedactionPattern.wildcard("a.b*").matches("a.bc") && !RedactionPattern.wildcard("a.b*").matches("axbc"))
    }

    @Test("wildcards match by pieces in order, without overlapping, also outside ASCII")
    func wildcardPieces() {
        let glob = RedactionPattern.wildcard
        #expect(glob("a*b").matches("ab") && glob("a*b").matches("AxxB") && !glob("a*b").matches("abx"))
        #expect(!glob("ab*ba").matches("aba"), "prefix and suffix must not share a byte")
        #expect(glob("ab*ba").matches("abba"))
        #expect(glob("*pass*wort*").matches("Mein-Passwort-Neu") && !glob("*pass*wort*").matches("wortpass"))
        #expect(glob("*schlüssel*").matches("API-SCHLÜSSEL-2") && !glob("*schlüssel*").matches("api-schlussel"))
        #expect(glob("*").matches("") && glob("**").matches("anything") && glob("x**y").matches("xy"))
        #expect(!glob("*token").matches("token_type") && glob("*token").matches("csrf_TOKEN"))
    }

    @Test("changing rules or exceptions of a redactor changes what it finds secret; equality ignores the lookup index")
    func mutatedRules() {
        var redactor = Redactor.default
        #expect(!redactor.isSecret("X-Session", at: .header))
        redactor.rules.append(.header("x-session"))
        #expect(redactor.isSecret("X-Session", at: .header))
        redactor.exceptions = [.header("*session")]
        #expect(!redactor.isSecret("X-Session", at: .header))
        #expect(redactor.isSecret("Authorization", at: .header))
        redactor.rules = []
        #expect(!redactor.isSecret("Authorization", at: .header))
        let one = Redactor.default.adding([.cookie("sid")])
        let two = Redactor.default.adding([.cookie("sid")])
        #expect(one == two && one.hashValue == two.hashValue && one != Redactor.default)
        #expect(Set([one, two, Redactor.default]).count == 2)
        #expect(one.isSecret("SID", at: .cookie) && !one.isSecret("sid", at: .header))
    }

    @Test("redacting twice changes nothing more and reports nothing")
    func idempotent() throws {
        var request = URLRequest(url: try url("http://h/p?token=s3cr3t"))
        request.httpMethod = "POST"
        request.setValue("Bearer s3cr3t", forHTTPHeaderField: "Authorization")
        request.setValue("a=s3cr3t", forHTTPHeaderField: "Cookie")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"password":"s3cr3t"}"#.utf8)
        let once = redactor.redact(request: request)
        let twice = redactor.redact(request: once.value)
        #expect(once.locations.count == 4)
        #expect(twice.locations.isEmpty)
        #expect(twice.value.url == once.value.url)
        #expect(twice.value.allHTTPHeaderFields == once.value.allHTTPHeaderFields)
        #expect(twice.value.httpBody == once.value.httpBody)
    }

    @Test("a URLRequest: URL, headers and body are redacted")
    func request() throws {
        var request = URLRequest(url: try url("http://h/login?apikey=s3cr3t-1"))
        request.httpMethod = "POST"
        request.setValue("s3cr3t-2", forHTTPHeaderField: "X-Api-Key")
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("user=a&sessionid=s3cr3t-3".utf8)
        let result = redactor.redact(request: request)
        #expect(result.value.url?.absoluteString == "http://h/login?apikey=%5Bredacted%5D")
        #expect(result.value.value(forHTTPHeaderField: "X-Api-Key") == "[redacted]")
        #expect(result.value.httpBody == Data("user=a&sessionid=%5Bredacted%5D".utf8))
        #expect(result.locations.map(\.description) == ["query apikey", "header X-Api-Key", "form sessionid"])
    }

    @Test(
        "a whole transaction: request, redirect hops (Set-Cookie, Location) and response, each location with its part"
    )
    func transaction() throws {
        let start = Date(timeIntervalSince1970: 0)
        let transaction = CapturedTransaction(
            request: CapturedRequest(
                method: "POST",
                url: try url("http://h/start?token=s3cr3t-1"),
                headers: ["Authorization": "Bearer s3cr3t-2", "Content-Type": "application/json"],
                body: CapturedBody(data: Data(#"{"user":{"password":"s3cr3t-3"}}"#.utf8))
            ),
            response: CapturedResponse(
                statusCode: 200,
                headers: ["Content-Type": "application/json", "Set-Cookie": "sid=s3cr3t-4; Path=/"],
                url: try url("http://h/final?otp=s3cr3t-5"),
                body: CapturedBody(data: Data(#"{"access_token":"s3cr3t-6","ok":true}"#.utf8))
            ),
            redirects: [
                RedirectHop(
                    method: "POST",
                    url: try url("http://h/start?token=s3cr3t-1"),
                    statusCode: 302,
                    headers: ["Location": "/final?otp=s3cr3t-5", "Set-Cookie": "session=s3cr3t-7; HttpOnly"],
                    elapsedMilliseconds: 3
                )
            ],
            timings: Timings(startDate: start),
            state: .completed
        )
        let result = redactor.redact(transaction: transaction)
        let encoded = String(decoding: try JSONEncoder().encode(result.value), as: UTF8.self)
        #expect(!encoded.contains("s3cr3t"))
        #expect(result.value.redirects[0].headers["Location"] == "/final?otp=%5Bredacted%5D")
        #expect(result.value.redirects[0].headers["Set-Cookie"] == "session=[redacted]; HttpOnly")
        // Sizes are those of what was received, whatever redaction replaced; a rewritten body is not truncated.
        #expect(result.value.response?.body?.totalByteCount == transaction.response?.body?.totalByteCount)
        #expect(result.value.response?.body?.isTruncated == false)
        #expect(
            result.locations.map(\.description) == [
                "request query token", "request header Authorization", "request json $.user.password",
                "redirect 1 query token", "redirect 1 query otp in Location", "redirect 1 cookie session in Set-Cookie",
                "response cookie sid in Set-Cookie", "response query otp", "response json $.access_token",
            ]
        )
    }

    @Test("the disabled redactor changes nothing")
    func disabled() throws {
        let headers: HeaderFields = ["Authorization": "Bearer x", "Cookie": "a=1"]
        #expect(Redactor.disabled.redact(headers: headers).value == headers)
        let original = try url("http://h/?token=x")
        #expect(Redactor.disabled.redact(url: original).value == original)
    }
}
