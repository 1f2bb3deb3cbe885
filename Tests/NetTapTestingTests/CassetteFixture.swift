import Foundation
import NetTapHAR
import NetTapReplay

/// A cassette file in a folder of its own, removed when the value is released.
final class CassetteFixture: Sendable {
    let folder: URL
    let file: URL

    /// Writes a cassette whose entries answer `GET <url>` with the text after it, recorded on 2024-01-01.
    init(name: String = "fixture.har", _ answers: [(url: String, text: String)]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("nettap-testing-\(UUID().uuidString)")
        file = folder.appendingPathComponent(name)
        var cassette = Cassette()
        cassette.entries = answers.map { answer in
            HAREntry(
                startedDateTime: "2024-01-01T00:00:00.000Z",
                time: 0,
                request: HARRequest(method: "GET", url: answer.url),
                response: HARResponse(
                    status: 200,
                    headers: [HARHeader(name: "Content-Type", value: "text/plain")],
                    content: HARContent(size: answer.text.utf8.count, mimeType: "text/plain", text: answer.text)
                )
            )
        }
        try cassette.save(to: file)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }
}
