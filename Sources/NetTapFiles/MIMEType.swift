import Foundation

#if canImport(UniformTypeIdentifiers)
import UniformTypeIdentifiers
#endif

/// The media type (`Content-Type`, RFC 9110 §8.3) of a file, from its name's extension and the system's table.
///
/// - On Apple platforms: `UTType(filenameExtension:)?.preferredMIMEType` (UniformTypeIdentifiers).
/// - Elsewhere: the system table `/etc/mime.types` (on Debian the `media-types` package), read once on first
///   use and kept; each line is `type/subtype ext1 ext2 …`, `#` starts a comment, and when two lines claim an
///   extension the first one wins (`SystemMIMETable`).
/// - Either way, a few web types the table may lack (`wasm`, `mjs`, `webmanifest`) come from a built-in list,
///   and an unknown extension gives ``fallback``.
///
/// Extensions compare case-insensitively; a compound extension the table lists (`tm.json`) is tried before
/// the last one (`json`).
///
/// ## The charset rule
/// ``contentType(forFileName:)`` adds `; charset=utf-8` to every type that ``isText(_:)`` calls text:
/// `text/*`, `application/javascript`, `application/ecmascript`, `application/json`, `application/xml`,
/// `image/svg+xml`, and every type with a `+json` or `+xml` structured-syntax suffix (RFC 6839:
/// `application/manifest+json`, `application/xhtml+xml`, …). It states what NetTap assumes: that text assets
/// are stored as UTF-8 (ASCII included), as the web's own default is; a file in another encoding is labelled
/// wrongly. For JSON the parameter is redundant (RFC 8259 §11 defines none, JSON is always UTF-8) but
/// harmless.
public enum MIMEType {
    /// `application/octet-stream`: the type of a file whose extension is unknown (RFC 2046 §4.5.1).
    public static let fallback = "application/octet-stream"

    /// The media type for a file name or path, without parameters.
    ///
    /// - Parameter fileName: A file name or path, for example `game/main.js`; only the extension counts.
    /// - Returns: The lower-cased media type, for example `text/javascript`; ``fallback`` when the name has no
    ///   extension or the extension is unknown.
    public static func forFileName(_ fileName: String) -> String {
        let name = (fileName.split(separator: "/").last.map(String.init) ?? fileName).lowercased()
        var parts = name.split(separator: ".", omittingEmptySubsequences: false).dropFirst()
        while !parts.isEmpty {
            let fileExtension = parts.joined(separator: ".")
            if let type = forFileExtension(fileExtension) { return type }
            parts = parts.dropFirst()
        }
        return fallback
    }

    /// The `Content-Type` field value for a file name: the media type and, for text, `; charset=utf-8`.
    ///
    /// - Parameter fileName: A file name or path, for example `index.html`.
    /// - Returns: For example `text/html; charset=utf-8`, `image/png` or `application/octet-stream`.
    public static func contentType(forFileName fileName: String) -> String {
        let type = forFileName(fileName)
        return isText(type) ? type + "; charset=utf-8" : type
    }

    /// Whether NetTap labels a media type with `charset=utf-8` (see "The charset rule" above).
    ///
    /// - Parameter mimeType: A media type without parameters, for example `image/svg+xml`; case is ignored.
    /// - Returns: `true` for text types.
    public static func isText(_ mimeType: String) -> Bool {
        let type = mimeType.lowercased()
        if type.hasPrefix("text/") { return true }
        if type.hasSuffix("+json") || type.hasSuffix("+xml") { return true }
        return [
            "application/javascript", "application/ecmascript", "application/json", "application/xml",
            "image/svg+xml",
        ]
        .contains(type)
    }

    /// The media type the platform knows for one extension, then the built-in web types; `nil` when unknown.
    static func forFileExtension(_ fileExtension: String) -> String? {
        #if canImport(UniformTypeIdentifiers)
        if let type = UTType(filenameExtension: fileExtension)?.preferredMIMEType { return type.lowercased() }
        #else
        if let type = SystemMIMETable.shared[fileExtension] { return type }
        #endif
        return builtInWebTypes[fileExtension]
    }

    /// Web types an older or missing system table may lack (WHATWG MIME Sniffing, IANA registrations).
    static let builtInWebTypes: [String: String] = [
        "html": "text/html", "htm": "text/html", "css": "text/css", "js": "text/javascript",
        "mjs": "text/javascript", "json": "application/json", "svg": "image/svg+xml", "png": "image/png",
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "ico": "image/vnd.microsoft.icon",
        "wasm": "application/wasm", "txt": "text/plain", "xml": "application/xml", "woff": "font/woff",
        "woff2": "font/woff2", "webmanifest": "application/manifest+json", "mp3": "audio/mpeg", "mp4": "video/mp4",
    ]
}
