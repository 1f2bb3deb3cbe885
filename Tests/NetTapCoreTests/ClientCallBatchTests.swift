import Dispatch
import Foundation
import Testing

@testable import NetTapCore

@Suite("ClientCallBatch: client calls of one stretch of work reach their queue together, in order")
struct ClientCallBatchTests {
    @Test("calls collected in a stretch wait for its end, then run in order in one dispatch per queue")
    func collects() {
        let first = DispatchQueue(label: "batch-test-first")
        let second = DispatchQueue(label: "batch-test-second")
        let log = Locked<[String]>([])
        var heldDuringBody: [String] = ["unset"]
        ClientCallBatch.collecting {
            let batch = ClientCallBatch.current
            #expect(batch != nil)
            batch?.add({ log.withLock { $0.append("a1") } }, for: first)
            batch?.add({ log.withLock { $0.append("b1") } }, for: second)
            batch?.add({ log.withLock { $0.append("a2") } }, for: first)
            // Nothing is handed over inside the stretch, so nothing can have run.
            first.sync {}
            second.sync {}
            heldDuringBody = log.current
        }
        #expect(heldDuringBody.isEmpty)
        #expect(ClientCallBatch.current == nil)
        first.sync {}
        second.sync {}
        let ran = log.current
        #expect(ran.filter { $0.hasPrefix("a") } == ["a1", "a2"])
        #expect(Set(ran) == ["a1", "a2", "b1"])
    }

    @Test("a stretch inside another adds to the outer batch, which hands everything over at its end")
    func nests() {
        let queue = DispatchQueue(label: "batch-test-nested")
        let count = Locked(0)
        var afterInner = -1
        ClientCallBatch.collecting {
            ClientCallBatch.collecting {
                ClientCallBatch.current?.add({ count.withLock { $0 += 1 } }, for: queue)
            }
            queue.sync {}
            afterInner = count.current
            ClientCallBatch.current?.add({ count.withLock { $0 += 1 } }, for: queue)
        }
        queue.sync {}
        #expect(afterInner == 0)
        #expect(count.current == 2)
    }
}
