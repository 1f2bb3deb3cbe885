import Foundation

/// Where a stub body's bytes come from while it is delivered: memory or a file reader.
enum BodySource: Sendable {
    case memory(Data)
    case file(FileChunkReader)

    var byteCount: Int64 {
        switch self {
        case .memory(let data): Int64(data.count)
        case .file(let reader): reader.byteCount
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

    /// The next piece of at most `count` bytes (at most 64 KiB for files); empty at the end.
    mutating func read(upTo count: Int) async throws -> Data {
        switch source {
        case .memory(let data):
            let end = min(data.count, offset + count)
            defer { offset = end }
            return data.subdata(in: (data.startIndex + offset)..<(data.startIndex + end))
        case .file(let reader):
            let chunk = try await reader.read(upTo: count)
            offset += chunk.count
            return chunk
        }
    }
}
