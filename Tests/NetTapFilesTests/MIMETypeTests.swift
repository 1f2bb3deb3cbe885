import Foundation
import Testing

@testable import NetTapFiles

@Suite("MIME types from the system table, with the UTF-8 charset rule")
struct MIMETypeTests {
    @Test(
        "common web assets get the system table's type and text types a UTF-8 charset",
        arguments: [
            ("index.html", "text/html; charset=utf-8"),
            ("css/site.css", "text/css; charset=utf-8"),
            ("game/main.js", "text/javascript; charset=utf-8"),
            ("module.MJS", "text/javascript; charset=utf-8"),
            ("data/level1.json", "application/json; charset=utf-8"),
            ("feed.xml", "application/xml; charset=utf-8"),
            ("logo.svg", "image/svg+xml; charset=utf-8"),
            ("site.webmanifest", "application/manifest+json; charset=utf-8"),
            ("page.xhtml", "application/xhtml+xml; charset=utf-8"),
            ("readme.txt", "text/plain; charset=utf-8"),
            ("img/a.PNG", "image/png"),
            ("engine.wasm", "application/wasm"),
            ("font.woff2", "font/woff2"),
            ("clip.mp4", "video/mp4"),
            ("no-extension", "application/octet-stream"),
            ("strange.nettap-unknown", "application/octet-stream"),
        ]
    )
    func contentTypes(fileName: String, expected: String) {
        #expect(MIMEType.contentType(forFileName: fileName) == expected)
    }

    @Test("the mime.types parser reads types and extensions, skips comments and keeps the first claim")
    func parsesTheFormat() {
        let text = """
            # a comment line
            text/html\t\thtml htm   # trailing comment
            application/x-empty
            text/x-other html more
            image/PNG PNG
              
            """
        let table = SystemMIMETable.parse(text)
        #expect(table == ["html": "text/html", "htm": "text/html", "more": "text/x-other", "png": "image/png"])
    }

    #if !canImport(UniformTypeIdentifiers)
    @Test("the system table is /etc/mime.types, read once into a table that knows html and css")
    func systemTableIsLoaded() throws {
        try #require(FileManager.default.fileExists(atPath: SystemMIMETable.path), "media-types is installed")
        #expect(SystemMIMETable.shared["html"] == "text/html")
        #expect(SystemMIMETable.shared["css"] == "text/css")
        #expect(SystemMIMETable.shared.count > 500)
    }
    #endif

    @Test(
        "the charset rule calls text/*, JSON, XML, JavaScript, SVG and +json/+xml text and nothing else",
        arguments: [
            ("text/csv", true), ("application/javascript", true), ("application/ld+json", true),
            ("application/atom+xml", true), ("IMAGE/SVG+XML", true), ("image/png", false),
            ("application/octet-stream", false), ("application/wasm", false), ("font/woff2", false),
        ]
    )
    func charsetRule(type: String, isText: Bool) {
        #expect(MIMEType.isText(type) == isText)
    }
}
