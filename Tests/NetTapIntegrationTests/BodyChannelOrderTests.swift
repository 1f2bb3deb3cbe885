import Foundation
import NetTapCore
import Testing

/// The body channel between the forwarding transport (producer, on the forwarding session's delegate queue) and
/// the URL protocol's sink (installed from the pipeline task once the response head is relayed) must hand every
/// chunk over exactly once and in order, even when the sink is installed while chunks are still arriving.
@Suite("Body channel ordering")
struct BodyChannelOrderTests {
    @Test("a sink installed while the producer is sending receives every chunk in order, then the end")
    func sinkInstalledDuringSends() async {
        let rounds = 5_000
        var failures: [String] = []
        for round in 0..<rounds {
            let channel = BodyChannel()
            let received = Locked<[Int]>([])
            let ended = Locked(false)
            let chunks = 40
            // Chunks buffered before the sink exists, as when the head is relayed after the first bytes arrived.
            for index in 0..<chunks / 2 { channel.send(Data([UInt8(index)])) }
            let producer = Task.detached {
                for index in chunks / 2..<chunks { channel.send(Data([UInt8(index)])) }
                channel.finish()
            }
            channel.setSink { event in
                switch event {
                case .chunk(let data):
                    let afterEnd = ended.withLock { $0 }
                    received.withLock { $0.append(afterEnd ? -1 : Int(data[data.startIndex])) }
                case .end:
                    ended.withLock { $0 = true }
                }
            }
            await producer.value
            let order = received.withLock { $0 }
            if order != Array(0..<chunks) || !ended.withLock({ $0 }) {
                failures.append("round \(round): \(order)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(rounds) rounds out of order or cut: \(failures.prefix(3))")
    }
}
