import Foundation
import Testing

@testable import NetTapCore

@Suite("Response bodies")
struct ResponseBodyTests {
    @Test("a streamed body yields its chunks in order")
    func streamOrder() async throws {
        let body = ResponseBody.stream(expectedLength: nil) { writer in
            writer.write(Data("aaa".utf8))
            writer.write(Data("bbb".utf8))
            writer.write(Data())
            writer.write(Data("ccc".utf8))
            writer.finish()
        }
        var chunks: [String] = []
        for try await chunk in body { chunks.append(String(decoding: chunk, as: UTF8.self)) }
        #expect(chunks == ["aaa", "bbb", "ccc"])
    }

    @Test("collect keeps at most the limit but reads to the end")
    func collectLimit() async throws {
        let body = ResponseBody.stream(expectedLength: 9) { writer in
            writer.write(Data("abc".utf8))
            writer.write(Data("def".utf8))
            writer.write(Data("ghi".utf8))
            writer.finish()
        }
        #expect(try await body.collect(upTo: 4) == Data("abcd".utf8))
    }

    @Test("an error ends the body after the chunks written before it")
    func errorAfterChunks() async throws {
        let body = ResponseBody.stream(expectedLength: nil) { writer in
            writer.write(Data("partial".utf8))
            writer.finish(throwing: URLError(.networkConnectionLost))
        }
        var iterator = body.makeAsyncIterator()
        #expect(try await iterator.next() == Data("partial".utf8))
        await #expect(throws: URLError.self) { _ = try await iterator.next() }
    }

    @Test("a sink gets buffered chunks at once and later chunks inline, then the end")
    func sink() {
        let channel = BodyChannel()
        channel.send(Data("one".utf8))
        let events = Locked<[String]>([])
        channel.setSink { event in
            switch event {
            case .chunk(let data): events.withLock { $0.append(String(decoding: data, as: UTF8.self)) }
            case .end(let error): events.withLock { $0.append(error == nil ? "end" : "error") }
            }
        }
        channel.send(Data("two".utf8))
        #expect(channel.outstandingBytes == 6)
        channel.acknowledge(6)
        #expect(channel.outstandingBytes == 0)
        channel.finish()
        channel.send(Data("late".utf8))
        #expect(events.current == ["one", "two", "end"])
    }

    @Test("cancelling the consumer tells the producer once")
    func cancelTellsProducer() {
        let channel = BodyChannel()
        let cancels = Locked(0)
        channel.onCancel { cancels.withLock { $0 += 1 } }
        channel.cancel()
        channel.cancel()
        #expect(cancels.current == 1)
        #expect(channel.isCancelled)
    }
}
