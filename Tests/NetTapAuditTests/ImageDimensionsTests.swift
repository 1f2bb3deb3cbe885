import Foundation
import NetTapAudit
import Testing

@Suite("ImageDimensions reads pixel sizes from real PNG, GIF, JPEG and WebP files")
struct ImageDimensionsTests {
    static let files: [(name: String, format: ImageDimensions.Format, width: Int, height: Int)] = [
        ("tiny.png", .png, 37, 23), ("tiny.gif", .gif, 41, 17), ("baseline.jpg", .jpeg, 53, 29),
        ("progressive.jpg", .jpeg, 31, 47), ("lossy.webp", .webp, 45, 27), ("lossless.webp", .webp, 19, 33),
        ("alpha.webp", .webp, 50, 20),
    ]

    @Test("each fixture's format and size", arguments: 0..<7)
    func reads(index: Int) throws {
        let file = Self.files[index]
        let dimensions = try #require(ImageDimensions(reading: try Fixture.data(file.name)), "\(file.name)")
        #expect(dimensions == ImageDimensions(format: file.format, width: file.width, height: file.height))
    }

    @Test("the JPEG frame header is found after a 2 KB Exif segment, and not when the bytes end before it")
    func jpegSegments() throws {
        let data = try Fixture.data("baseline.jpg")
        #expect(data.range(of: Data("Exif".utf8))?.lowerBound == 24)
        #expect(ImageDimensions(reading: data)?.width == 53)
        #expect(ImageDimensions(reading: data.prefix(1_000)) == nil)
    }

    @Test("truncated headers and other bytes give nil")
    func rejects() throws {
        #expect(ImageDimensions(reading: try Fixture.data("tiny.png").prefix(20)) == nil)
        #expect(ImageDimensions(reading: try Fixture.data("tiny.gif").prefix(8)) == nil)
        #expect(ImageDimensions(reading: try Fixture.data("lossy.webp").prefix(26)) == nil)
        #expect(ImageDimensions(reading: Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)) == nil)
        #expect(ImageDimensions(reading: Data()) == nil)
        #expect(ImageDimensions(reading: Data([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02])) == nil, "scan before any frame")
    }

    @Test("the description reads format and size")
    func description() {
        #expect(ImageDimensions(format: .png, width: 37, height: 23).description == "png 37×23")
    }
}
