import Foundation
import NetTapCore

/// Where a stub body's bytes come from while it is delivered: memory or a file read in chunks.
enum BodySource: Sendable {
    case memory(Data)
    case file(FileChunkReader, url: URL, byteCount: Int64)

    /// Opens a stub body file.
    ///
    /// - Throws: `URLError(.fileDoesNotExist)` naming the path when it cannot be opened.
    static func opening(_ url: URL) throws -> BodySource {
        let path = url.path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            (attributes[.type] as? FileAttributeType) != .typeDirectory,
            let handle = FileHandle(forReadingAtPath: path)
        else {
            throw URLError(
                .fileDoesNotExist,
                userInfo: [
                    NSLocalizedDescriptionKey: "stub body file not found: \(path)",
                    NSFilePathErrorKey: path,
                ]
            )
        }
        let byteCount = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        return .file(FileChunkReader(handle: handle), url: url, byteCount: byteCount)
    }

    var byteCount: Int64 {
        switch self {
        case .memory(let data): Int64(data.count)
        case .file(_, _, let byteCount): byteCount
        }
    }
}

/// Hands out a body's bytes in order, in pieces of a requested size.
struct BodyCursor {
    let source: BodySource
    private var offset = 0

    init(source: BodySource) {
        self.source = source
    }

    /// The next piece of at most `count` bytes; empty at the end.
    mutating func read(upTo count: Int) async throws -> Data {
        switch source {
        case .memory(let data):
            let end = min(data.count, offset + count)
            defer { offset = end }
            return data.subdata(in: (data.startIndex + offset)..<(data.startIndex + end))
        case .file(let reader, _, _):
            let chunk = try await reader.read(upTo: count)
            offset += chunk.count
            return chunk
        }
    }
}
