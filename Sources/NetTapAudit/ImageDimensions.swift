import Foundation

/// The pixel size of an image, read from the first bytes of a PNG, GIF, JPEG or WebP file.
///
/// Only the fields that hold the size are read; nothing is decoded:
///
/// | format | where the size is |
/// | --- | --- |
/// | PNG | the `IHDR` chunk right after the signature: width and height, 4 bytes big-endian each (PNG spec §11.2.2) |
/// | GIF | the logical screen descriptor after `GIF87a`/`GIF89a`: 2 bytes little-endian each (GIF89a §18) |
/// | JPEG | the first start-of-frame marker (`SOF0`…`SOF15` except `DHT`, `JPG`, `DAC`), found by skipping segments by their lengths: height then width, 2 bytes big-endian (ITU T.81 §B.2.2) |
/// | WebP | the first chunk of the RIFF container: `VP8 ` (14-bit sizes after the frame's start code, RFC 6386 §9.1), `VP8L` (14-bit sizes minus one after the 0x2F signature, RFC 9649 §3.2), or `VP8X` (24-bit canvas sizes minus one, RFC 9649 §2.7) |
///
/// ```swift
/// let dimensions = ImageDimensions(reading: try Data(contentsOf: file))   // png 37×23
/// ```
public struct ImageDimensions: Sendable, Hashable, CustomStringConvertible {
    /// An image format whose size fields NetTap reads.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// Portable Network Graphics.
        case png
        /// Graphics Interchange Format.
        case gif
        /// JPEG (JFIF or Exif).
        case jpeg
        /// WebP (lossy, lossless or extended).
        case webp
    }

    /// The format the size was read from.
    public var format: Format
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int

    /// Creates a size.
    ///
    /// - Parameters:
    ///   - format: The format.
    ///   - width: Pixels.
    ///   - height: Pixels.
    public init(format: Format, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// Reads the size from the start of an image file.
    ///
    /// Fails (returns `nil`) when the bytes are not one of the ``Format``s or end before the size fields (a JPEG
    /// whose start-of-frame comes after the bytes given).
    ///
    /// - Parameter header: The first bytes of the file; a few dozen suffice except for JPEG, whose Exif and
    ///   other segments before the frame header can take up to 64 KiB each.
    /// - Complexity: O(number of JPEG segments before the frame header); O(1) for the other formats.
    public init?(reading header: Data) {
        let bytes = [UInt8](header)
        guard let found = Self.png(bytes) ?? Self.gif(bytes) ?? Self.jpeg(bytes) ?? Self.webp(bytes) else {
            return nil
        }
        self = found
    }

    /// `png 37×23`.
    public var description: String { "\(format.rawValue) \(width)×\(height)" }

    private static func png(_ bytes: [UInt8]) -> ImageDimensions? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8)
        else { return nil }
        return ImageDimensions(format: .png, width: bigEndian(bytes, 16, 4), height: bigEndian(bytes, 20, 4))
    }

    private static func gif(_ bytes: [UInt8]) -> ImageDimensions? {
        guard bytes.count >= 10 else { return nil }
        let magic = Array(bytes[0..<6])
        guard magic == Array("GIF87a".utf8) || magic == Array("GIF89a".utf8) else { return nil }
        return ImageDimensions(format: .gif, width: littleEndian(bytes, 6, 2), height: littleEndian(bytes, 8, 2))
    }

    /// Markers `SOF0`…`SOF15` that carry a frame header (all `0xC0`…`0xCF` but `DHT`, `JPG` and `DAC`).
    private static let startOfFrameMarkers: Set<UInt8> = Set(0xC0...0xCF).subtracting([0xC4, 0xC8, 0xCC])

    private static func jpeg(_ bytes: [UInt8]) -> ImageDimensions? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 1 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF {  // a fill byte before the marker
                index += 1
                continue
            }
            index += 2
            // Markers without a length: TEM, RST0…RST7, SOI, EOI.
            if marker == 0x01 || (0xD0...0xD9).contains(marker) { continue }
            guard index + 2 <= bytes.count else { return nil }
            let length = bigEndian(bytes, index, 2)
            guard length >= 2 else { return nil }
            if startOfFrameMarkers.contains(marker) {
                guard length >= 7, index + 7 <= bytes.count else { return nil }
                return ImageDimensions(
                    format: .jpeg,
                    width: bigEndian(bytes, index + 5, 2),
                    height: bigEndian(bytes, index + 3, 2)
                )
            }
            if marker == 0xDA { return nil }  // start of scan without a frame header before it
            index += length
        }
        return nil
    }

    private static func webp(_ bytes: [UInt8]) -> ImageDimensions? {
        guard bytes.count >= 30, Array(bytes[0..<4]) == Array("RIFF".utf8), Array(bytes[8..<12]) == Array("WEBP".utf8)
        else { return nil }
        switch String(decoding: bytes[12..<16], as: UTF8.self) {
        case "VP8 ":
            // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit width and height (2 scale bits above).
            guard bytes[23] == 0x9D, bytes[24] == 0x01, bytes[25] == 0x2A else { return nil }
            return ImageDimensions(
                format: .webp,
                width: littleEndian(bytes, 26, 2) & 0x3FFF,
                height: littleEndian(bytes, 28, 2) & 0x3FFF
            )
        case "VP8L":
            guard bytes[20] == 0x2F else { return nil }
            let bits = littleEndian(bytes, 21, 4)
            return ImageDimensions(format: .webp, width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            return ImageDimensions(
                format: .webp,
                width: littleEndian(bytes, 24, 3) + 1,
                height: littleEndian(bytes, 27, 3) + 1
            )
        default:
            return nil
        }
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func littleEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        bytes[offset..<offset + count].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
