import Foundation
import Testing

@testable import NetTapCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Body faults: the bytes before the fault, then the failure, from any body")
struct BodyFaultTests {
    /// A streamed body of `chunks`, with `length` as its expected length; `finished` ends it.
    private static func body(_ chunks: [String], length: Int64?, finished: Bool = true) -> ResponseBody {
        ResponseBody.stream(expectedLength: length) { writer in
            for chunk in chunks { writer.write(Data(chunk.utf8)) }
            if finished { writer.finish() }
        }
    }

    /// Reads the body to its end: the bytes, and the error it ended with.
    private static func read(_ body: ResponseBody) async -> (Data, (any Error)?) {
        var received = Data()
        do {
            for try await chunk in body { received.append(chunk) }
            return (received, nil)
        } catch {
            return (received, error)
        }
    }

    @Test("a fault inside a body of known length cuts it at the byte, across chunk boundaries")
    func knownLength() async throws {
        for limit: Int64 in [0, 2, 3, 5, 8] {
            let source = Self.body(["abc", "defgh", "ij"], length: 10)
            let (received, error) = await Self.read(source.withFault(.dropConnection(afterBytes: limit)))
            #expect(received == Data("abcdefghij".utf8.prefix(Int(limit))), "after \(limit)")
            #expect((error as? URLError)?.code == .networkConnectionLost, "after \(limit)")
            #expect(source.channel.isCancelled, "the rest of the source is not read")
        }
    }

    @Test("a truncation names the bytes the head promised that never came, or none without a length")
    func truncation() async throws {
        let known = await Self.read(Self.body(["abcdef"], length: 10).withFault(.truncate(afterBytes: 4)))
        #expect(known.0 == Data("abcd".utf8))
        #expect((known.1 as? URLError) == SimulatedFailure.truncatedBody(remainingBytes: 6, url: nil))
        let unknown = await Self.read(Self.body(["abcdef"], length: nil).withFault(.truncate(afterBytes: 4)))
        #expect(unknown.0 == Data("abcd".utf8))
        #expect((unknown.1 as? URLError) == SimulatedFailure.truncatedBody(remainingBytes: nil, url: nil))
        #if canImport(FoundationNetworking)
        #expect((known.1 as? URLError)?.localizedDescription == "transfer closed with 6 bytes remaining to read")
        #expect(
            (unknown.1 as? URLError)?.localizedDescription == "transfer closed with outstanding read data remaining"
        )
        #endif
    }

    @Test("a body that ends by the fault's place is not touched, as a server that finished first")
    func endsFirst() async throws {
        let whole = Self.body(["abc"], length: 3)
        #expect(whole.withFault(.truncate(afterBytes: 3)).channel === whole.channel, "known length: the body itself")
        for fault in [BodyFault.dropConnection(afterBytes: 3), .truncate(afterBytes: 5), .stall(afterBytes: 3)] {
            let (received, error) = await Self.read(Self.body(["ab", "c"], length: nil).withFault(fault))
            #expect(received == Data("abc".utf8), "\(fault)")
            #expect(error == nil, "\(fault)")
        }
    }

    @Test("a stall sends the bytes before it and ends only when the reader goes away")
    func stall() async throws {
        let source = Self.body(["abcdef"], length: 6)
        let faulted = source.withFault(.stall(afterBytes: 2))
        #expect(try await faulted.channel.next() == Data("ab".utf8))
        let waiting = Task { try await faulted.channel.next() }
        #expect(!faulted.channel.isFinished)
        faulted.channel.cancel()
        await #expect(throws: CancellationError.self) { _ = try await waiting.value }
        #expect(source.channel.isCancelled)
    }

    @Test("cancelling the faulted body cancels the source at once")
    func cancelBeforeFault() async throws {
        let source = Self.body(["ab"], length: 100, finished: false)
        let faulted = source.withFault(.dropConnection(afterBytes: 50))
        #expect(try await faulted.channel.next() == Data("ab".utf8))
        faulted.channel.cancel()
        for _ in 0..<1000 where !source.channel.isCancelled { await Task.yield() }
        #expect(source.channel.isCancelled)
    }

    @Test("an error of the source before the fault reaches the reader unchanged")
    func sourceError() async throws {
        let source = ResponseBody.stream(expectedLength: 10) { writer in
            writer.write(Data("ab".utf8))
            writer.finish(throwing: URLError(.cannotDecodeContentData))
        }
        let (received, error) = await Self.read(source.withFault(.truncate(afterBytes: 5)))
        #expect(received == Data("ab".utf8))
        #expect((error as? URLError)?.code == .cannotDecodeContentData)
    }

    @Test("faults describe themselves and read from configuration, with sizes in units")
    func configuration() throws {
        #expect(BodyFault.truncate(afterBytes: 1).description == "truncated after 1 byte")
        #expect(BodyFault.dropConnection(afterBytes: 400).description == "connection dropped after 400 bytes")
        #expect(BodyFault.stall(afterBytes: -3).afterBytes == 0)
        let cases: [(JSONValue, BodyFault)] = [
            (.string("stall"), .stall(afterBytes: 0)),
            (
                .object(["type": .string("drop-connection"), "afterBytes": .integer(400)]),
                .dropConnection(afterBytes: 400)
            ),
            (.object(["type": .string("dropConnection")]), .dropConnection(afterBytes: 0)),
            (.object(["type": .string("truncate"), "afterBytes": .string("4 KiB")]), .truncate(afterBytes: 4096)),
        ]
        for (json, fault) in cases {
            #expect(try BodyFault(configuration: ConfigNode(value: json)) == fault)
            #expect(try BodyFault(configuration: ConfigNode(value: fault.configuration)) == fault)
        }
    }

    @Test(
        "a bad fault is an error naming the JSON path",
        arguments: [
            (#"{"fault": "reset"}"#, "$.fault: unknown fault \"reset\"; expected one of drop-connection"),
            (#"{"fault": {"afterBytes": 3}}"#, "$.fault: missing required key \"type\""),
            (#"{"fault": {"type": "stall", "after": 3}}"#, "unknown key \"after\""),
            (#"{"fault": {"type": "stall", "afterBytes": -1}}"#, "$.fault.afterBytes: expected a size of at least 0"),
            (#"{"fault": 3}"#, "$.fault: expected a fault object"),
        ]
    )
    func badConfiguration(json: String, message: String) throws {
        let root = try ConfigNode(parsing: Data(json.utf8), source: "nettap.json")
        let error = try #require(
            #expect(throws: ConfigurationError.self) { try BodyFault(configuration: root.requiredChild("fault")) }
        )
        #expect(error.description.hasPrefix("nettap.json: $.fault"), "\(error)")
        #expect(error.description.contains(message), "\(error)")
    }
}
