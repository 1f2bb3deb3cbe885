// StoreWriterFixture: a test-only process that writes transactions to a NetTap store until it is killed.
//
//   StoreWriterFixture STORE.sqlite [BATCH]
//
// Records BATCH transactions (100 by default; 1 KiB response bodies, every fourth body shared), flushes them,
// then prints "committed N" (N = transactions committed so far) on standard output and flushes it, forever.
// NetTapStoreTests' crash test reads those lines, sends SIGKILL in the middle of a later batch, and reopens the
// store. It is an executable of its own (not a `nettap` subcommand) so the shipped tool carries no test hooks.
import Foundation
import NetTapCore
import NetTapStore

let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first else {
    FileHandle.standardError.write(Data("usage: StoreWriterFixture STORE.sqlite [BATCH]\n".utf8))
    exit(2)
}
let batch = arguments.dropFirst().first.flatMap { Int($0) } ?? 100
let store: TransactionStore
do {
    store = try TransactionStore(url: URL(fileURLWithPath: path), batchSize: 1_000_000, flushInterval: .seconds(3600))
} catch {
    FileHandle.standardError.write(Data("StoreWriterFixture: \(error)\n".utf8))
    exit(1)
}
var committed = 0
var serial = 0
while true {
    for _ in 0..<batch {
        serial += 1
        let body = Data(repeating: UInt8(truncatingIfNeeded: serial % 4 == 0 ? 0 : serial), count: 1024)
        let url = URL(string: "https://api.example.com/items/\(serial)?page=\(serial % 7)") ?? URL(fileURLWithPath: "/")
        store.record(
            CapturedTransaction(
                request: CapturedRequest(method: "GET", url: url, headers: ["Accept": "*/*"]),
                response: CapturedResponse(
                    statusCode: 200,
                    headers: ["Content-Type": "application/octet-stream"],
                    url: url,
                    body: CapturedBody(data: body)
                ),
                timings: Timings(startDate: Date(), requestSent: 1, firstByte: 2, end: 3),
                state: .completed
            )
        )
    }
    do {
        try await store.flush()
    } catch {
        FileHandle.standardError.write(Data("StoreWriterFixture: \(error)\n".utf8))
        exit(1)
    }
    committed += batch
    // Unbuffered, so the line reaches the test as soon as the batch is committed.
    FileHandle.standardOutput.write(Data("committed \(committed)\n".utf8))
}
