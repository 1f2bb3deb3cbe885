import Foundation
import FuzzSupport

@testable import NetTapInspector

/// Feeds the input to the inspector server's HTTP request-head parser, WebSocket handshake and frame decoder,
/// as a hostile local client would send it.
///
/// The first byte chooses where the rest is split in two, so the parsers' incremental paths run: the input is an
/// HTTP request head (and, after it, WebSocket frames when it is an upgrade), and the whole input is also read
/// as client frames on its own. A trap, hang or leak is a bug.
///
/// - Parameters:
///   - start: The input's first byte.
///   - count: The input's length in bytes.
/// - Returns: 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInspector(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard let first = bytes.first else { return 0 }
    let rest = Array(bytes.dropFirst())
    let split = rest.isEmpty ? 0 : Int(first) % (rest.count + 1)
    var parser = HTTPRequestParser()
    do throws(HTTPRequestError) {
        var outcome = try parser.consume(rest[..<split])
        if case .needMore = outcome { outcome = try parser.consume(rest[split...]) }
        if case .head(let head, let remainder) = outcome, WebSocketHandshake.isUpgrade(head) {
            _ = (try? WebSocketHandshake.accept(head))?.bytes
            frames(remainder, split: Int(first))
        }
    } catch {
        _ = error.description
    }
    frames(rest, split: split)
    return 0
}

/// Decodes `bytes` as client frames in two pieces, and answers what a server would.
private func frames(_ bytes: [UInt8], split: Int) {
    var decoder = WebSocketFrameDecoder(maximumMessageSize: 65_536)
    let cut = min(bytes.count, split)
    do throws(WebSocketError) {
        var messages = try decoder.consume(bytes[..<cut])
        messages += try decoder.consume(bytes[cut...])
        for message in messages {
            switch message {
            case .ping(let payload): _ = WebSocketFrameEncoder.pong(payload)
            case .text(let text): _ = WebSocketFrameEncoder.text(text, fragmentSize: 7)
            case .close(let code, let reason): _ = WebSocketFrameEncoder.close(code: code ?? 1000, reason: reason)
            case .binary, .pong: break
            }
        }
    } catch {
        _ = WebSocketFrameEncoder.close(code: error.closeCode, reason: error.reason)
    }
}
