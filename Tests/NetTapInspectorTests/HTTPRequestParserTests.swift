import Foundation
import NetTapInspector
import NetTapShaping
import Testing

@Suite("Inspector server: HTTP/1.1 request heads read strictly")
struct HTTPRequestParserTests {
    /// The upgrade request Chromium's DevTools frontend sends, with the first WebSocket frame right behind it.
    static let upgrade =
        "GET /devtools/page/4b3f HTTP/1.1\r\nHost: 127.0.0.1:9229\r\nConnection: Upgrade\r\nPragma: no-cache\r\n"
        + "Upgrade: websocket\r\nOrigin: devtools://devtools\r\nSec-WebSocket-Version: 13\r\n"
        + "User-Agent: Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.0.0\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        + "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n"

    private func parse(_ text: String) throws(HTTPRequestError) -> HTTPRequestParser.Outcome {
        var parser = HTTPRequestParser()
        return try parser.consume(Array(text.utf8))
    }

    private func error(_ text: String) -> HTTPRequestError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("Chromium's upgrade request: method, target, fields in order, and the bytes after the head")
    func upgradeRequest() throws {
        let frame: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        var parser = HTTPRequestParser()
        let outcome = try parser.consume(Array(Self.upgrade.utf8) + frame)
        guard case .head(let head, let remainder) = outcome else {
            Issue.record("no head: \(outcome)")
            return
        }
        #expect(head.method == "GET")
        #expect(head.path == "/devtools/page/4b3f")
        #expect(head.query == nil)
        #expect(head.version == "HTTP/1.1")
        #expect(head.authority == "127.0.0.1:9229")
        #expect(head.fields.count == 9)
        #expect(head.fields.first?.name == "Host")
        #expect(head.fields["origin"] == "devtools://devtools")
        #expect(head.field("connection", containsToken: "UPGRADE"))
        #expect(remainder == frame)
    }

    @Test("one byte at a time gives the same head as all at once; bare LF line endings are read")
    func incremental() throws {
        for text in [Self.upgrade, "GET /json/version?x=1 HTTP/1.1\nHost: localhost\n\n"] {
            let whole = try parse(text)
            var parser = HTTPRequestParser()
            var outcome = HTTPRequestParser.Outcome.needMore
            for (index, byte) in text.utf8.enumerated() {
                outcome = try parser.consume([byte])
                if index < text.utf8.count - 1 { #expect(outcome == .needMore, "at byte \(index)") }
            }
            #expect(outcome == whole)
            guard case .head(let head, _) = outcome else { continue }
            #expect(head.method == "GET")
        }
        guard case .head(let head, _) = try parse("GET /json/version?x=1 HTTP/1.1\nHost: localhost\n\n") else {
            Issue.record("no head")
            return
        }
        #expect(head.path == "/json/version")
        #expect(head.query == "x=1")
    }

    @Test("an absolute-form target gives the path, the query and the authority it names")
    func absoluteForm() throws {
        guard case .head(let head, _) = try parse("GET http://127.0.0.1:9229/json?a=b HTTP/1.1\r\nHost: x\r\n\r\n")
        else {
            Issue.record("no head")
            return
        }
        #expect(head.path == "/json")
        #expect(head.query == "a=b")
        #expect(head.authority == "127.0.0.1:9229")
    }

    @Test(
        "malformed heads are refused with the status to answer and the line",
        arguments: [
            ("GET /  HTTP/1.1\r\nHost: a\r\n\r\n", 400, "METHOD SP target"),
            ("GE(T / HTTP/1.1\r\nHost: a\r\n\r\n", 400, "method is not a token"),
            ("GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505, "HTTP/2.0"),
            ("GET / HTTP/1.1x\r\nHost: a\r\n\r\n", 400, "version"),
            ("GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400, "line 2: whitespace between"),
            ("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", 400, "line 3: a folded"),
            ("GET / HTTP/1.1\r\nHost: a\r\nX-A: b\u{1}c\r\n\r\n", 400, "control character"),
            ("GET / HTTP/1.1\r\nHost: a\r\nNo colon\r\n\r\n", 400, "without a colon"),
            ("GET / HTTP/1.1\r\nHo\"st: a\r\n\r\n", 400, "not a token"),
            ("GET / HTTP/1.1\r\nX: a\rb\r\n\r\n", 400, "a CR that does not end"),
            ("GET / HTTP/1.1\r\n\r\n", 400, "no Host"),
            ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "more than one Host"),
            ("GET /a\u{7F} HTTP/1.1\r\nHost: a\r\n\r\n", 400, "target holds"),
            ("GET ftp://a/ HTTP/1.1\r\nHost: a\r\n\r\n", 400, "neither a path"),
            ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n", 413, "request body"),
            ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", 400, "invalid Content-Length"),
            ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", 501, "Transfer-Encoding"),
            ("\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", 400, "line 1: the request line is empty"),
        ]
    )
    func refused(text: String, status: Int, reason: String) {
        let refusal = error(text)
        #expect(refusal?.status == status, "\(String(describing: refusal))")
        #expect(refusal?.description.contains(reason) == true, "\(String(describing: refusal))")
    }

    @Test("HTTP/1.0 without Host and a Content-Length of 0 are accepted")
    func accepted() throws {
        #expect(error("GET / HTTP/1.0\r\n\r\n") == nil)
        #expect(error("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n") == nil)
    }

    @Test("a head over 16 KiB or with over 100 fields is refused with 431, complete or not")
    func limits() {
        let long = "GET / HTTP/1.1\r\nHost: a\r\nX-Long: " + String(repeating: "a", count: 17_000)
        #expect(error(long)?.status == 431, "unfinished")
        #expect(error(long + "\r\n\r\n")?.status == 431, "finished")
        let many = (0...100).map { "X-\($0): v\r\n" }.joined()
        #expect(error("GET / HTTP/1.1\r\nHost: a\r\n" + many + "\r\n")?.status == 431)
        let fits = (0..<99).map { "X-\($0): v\r\n" }.joined()
        #expect(error("GET / HTTP/1.1\r\nHost: a\r\n" + fits + "\r\n") == nil)
    }

    @Test("seeded random bytes never crash the parser, and fed in pieces give the same outcome")
    func randomBytes() {
        var generator = SeededRandom(seed: 0x5EED)
        for _ in 0..<2_000 {
            let count = Int.random(in: 0..<300, using: &generator)
            var bytes = Array(Self.upgrade.utf8.prefix(Int.random(in: 0..<80, using: &generator)))
            bytes += (0..<count).map { _ in
                Bool.random(using: &generator)
                    ? UInt8.random(in: 0...255, using: &generator)
                    : Array("\r\n: Ga/".utf8).randomElement(using: &generator) ?? 0
            }
            var whole = HTTPRequestParser()
            let wholeOutcome = Result { () throws(HTTPRequestError) in try whole.consume(bytes) }
            var pieces = HTTPRequestParser()
            let split = Int.random(in: 0...bytes.count, using: &generator)
            let pieceOutcome = Result { () throws(HTTPRequestError) in
                let first = try pieces.consume(bytes[..<split])
                if case .head(let head, let remainder) = first {
                    return HTTPRequestParser.Outcome.head(head, remainder: remainder + bytes[split...])
                }
                return try pieces.consume(bytes[split...])
            }
            let same = String(describing: wholeOutcome) == String(describing: pieceOutcome)
            #expect(same, "split at \(split) of \(bytes.count)")
        }
    }
}
