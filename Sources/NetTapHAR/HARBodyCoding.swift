import Foundation

/// How NetTap turns body bytes into HAR text and back.
///
/// Bytes that are valid UTF-8 (without NUL) and whose MIME type is not a known binary type are written as
/// text; everything else as base64 (RFC 4648, with padding, no line breaks).
package enum HARBodyCoding {
    /// The text for `data` and whether it is base64.
    package static func encode(_ data: Data, mimeType: String) -> (text: String, isBase64: Bool) {
        if !isBinary(mimeType: mimeType), !data.contains(0), let text = String(data: data, encoding: .utf8) {
            return (text, false)
        }
        return (data.base64EncodedString(), true)
    }

    /// The bytes for a HAR `text`, decoding base64 when `encoding` says so.
    static func decode(text: String, encoding: String?) -> Data? {
        guard let encoding, encoding.caseInsensitiveCompare("base64") == .orderedSame else {
            return Data(text.utf8)
        }
        return Data(base64Encoded: text, options: .ignoreUnknownCharacters)
    }

    /// Whether a MIME type names a binary format (images, audio, video, fonts, archives, protobuf...).
    static func isBinary(mimeType: String) -> Bool {
        let base = mimeType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        let parts = base.trimmingCharacters(in: .whitespaces).lowercased().split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return false }
        let (type, subtype) = (parts[0], parts[1])
        if subtype.hasSuffix("+json") || subtype.hasSuffix("+xml") || subtype.hasPrefix("json")
            || subtype.hasPrefix("xml")
        {
            return false
        }
        switch type {
        case "image": return subtype != "svg+xml" && subtype != "svg"
        case "audio", "video", "font": return true
        case "application":
            return subtype.contains("octet-stream") || subtype.contains("protobuf") || subtype.hasSuffix("+proto")
                || ["pdf", "zip", "gzip", "x-gzip", "x-tar", "wasm", "msgpack", "x-msgpack", "cbor", "grpc"]
                    .contains(String(subtype))
        default: return false
        }
    }
}
