import Foundation
import NetTapCore
import Testing

@testable import NetTapStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The size of a file in bytes, 0 when it does not exist.
private func fileSize(_ path: String) -> Int64 {
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
}

@Suite("TransactionStore: the write-ahead log is folded back and counted")
struct StoreLogTests {
    @Test("after flush, a copy of the .sqlite file alone (without -wal) holds every flushed transaction")
    func flushedFileIsCompleteOnItsOwn() async throws {
        let url = try makeStoreURL()
        let store = try TransactionStore(url: url)
        let transactions = (0..<25).map { index in
            makeTransaction(url: "https://api.example.com/items/\(index)", body: Data("body \(index)".utf8))
        }
        for transaction in transactions { store.record(transaction) }
        try await store.flush()

        let copy = try makeStoreDirectory().appendingPathComponent("copy.sqlite")
        try FileManager.default.copyItem(at: url, to: copy)
        #expect(!FileManager.default.fileExists(atPath: copy.path + "-wal"))
        let reader = try TransactionStore(url: copy, mode: .readOnly)
        #expect(try await reader.count() == transactions.count)
        let stored = try await reader.transactions(includingBodies: true)
        #expect(Set(stored.map(\.id)) == Set(transactions.map(\.id)))
        #expect(try await reader.integrityCheck() == ["ok"])
        // The store that wrote it keeps working after the checkpoint.
        store.record(makeTransaction())
        try await store.flush()
        #expect(try await store.count() == transactions.count + 1)
    }

    @Test("a background write folds the log back once nothing more is waiting, without flush")
    func idleWriterFoldsTheLog() async throws {
        let url = try makeStoreURL()
        let pending = Locked(PendingWrites())
        let writer = try StoreWriter(url: url, isWritable: true, limits: .default, now: { Date() }, pending: pending)
        pending.withLock { state in
            state.buffer = (0..<4).map { makeTransaction(url: "https://api.example.com/\($0)") }
        }
        await writer.drainInBackground()
        let copy = try makeStoreDirectory().appendingPathComponent("copy.sqlite")
        try FileManager.default.copyItem(at: url, to: copy)
        #expect(try await TransactionStore(url: copy, mode: .readOnly).count() == 4)
        #expect(fileSize(url.path + "-wal") == 0)
    }

    @Test("releasing the store closes its connection and removes the -wal and -shm files")
    func releasingRemovesTheLog() async throws {
        let url = try makeStoreURL()
        do {
            let store = try TransactionStore(url: url)
            for _ in 0..<10 { store.record(makeTransaction()) }
            try await store.flush()
            #expect(FileManager.default.fileExists(atPath: url.path + "-shm"))
        }
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: url.path + "-shm"))
        #expect(try await TransactionStore(url: url, mode: .readOnly).count() == 10)
    }

    @Test("with a 64 KiB cap, 40 flushed inserts keep the file and its -wal together near the cap")
    func sizeCapCountsTheLog() async throws {
        let url = try makeStoreURL()
        let cap: Int64 = 64 * 1024
        let store = try TransactionStore(url: url, limits: StoreLimits(totalByteLimit: cap, maximumAge: nil))
        for index in 0..<40 {
            var body = Data(repeating: UInt8(index), count: 3000)
            body.replaceSubrange(0..<8, with: withUnsafeBytes(of: index) { Data($0) })
            store.record(makeTransaction(url: "https://api.example.com/\(index)", body: body))
            try await store.flush()
            let used = try await store.usedByteCount()
            #expect(used <= cap, "after insert \(index): \(used) bytes in use")
        }
        let onDisk = fileSize(url.path) + fileSize(url.path + "-wal")
        #expect(onDisk <= cap + 16 * 1024, "file \(fileSize(url.path)) + log \(fileSize(url.path + "-wal"))")
        // The empty schema alone takes most of a 64 KiB cap: few transactions, if any, fit.
        #expect(try await store.count() < 40)
        #expect(try await store.integrityCheck() == ["ok"])
    }

    @Test("usedByteCount counts the -wal file")
    func usedByteCountIncludesTheLog() async throws {
        let url = try makeStoreURL()
        let store = try TransactionStore(url: url)
        store.record(makeTransaction(body: Data(repeating: 7, count: 20_000)))
        try await store.flush()
        let folded = try await store.usedByteCount()
        // A second connection holding a read snapshot keeps the next write in the log.
        let database = try Database(path: url.path, access: .readOnly)
        try database.execute("BEGIN")
        #expect(try database.integer("SELECT count(*) FROM transactions") == 1)
        store.record(makeTransaction(body: Data(repeating: 8, count: 20_000)))
        try await store.flush()
        let logSize = fileSize(url.path + "-wal")
        #expect(logSize > 20_000)
        let used = try await store.usedByteCount()
        #expect(used >= folded + logSize)
        try database.execute("COMMIT")
    }
}

@Suite("TransactionStore: read-only opens keep side files private")
struct StoreReadOnlyFileTests {
    @Test("a read-only open of a 0644 store leaves any -wal and -shm it creates at mode 0600")
    func readOnlySideFilesArePrivate() async throws {
        let url = try makeStoreURL()
        do {
            let store = try TransactionStore(url: url)
            store.record(makeTransaction())
            try await store.flush()
        }
        chmod(url.path, 0o644)
        let reader = try TransactionStore(url: url, mode: .readOnly)
        #expect(try await reader.count() == 1)
        var sideFiles = 0
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: url.path + suffix) {
            sideFiles += 1
            #expect(try permissions(url.path + suffix) == 0o600, "\(suffix)")
        }
        #expect(sideFiles > 0)
        #expect(try permissions(url.path) == 0o644)
    }

    @Test("a read-only open of a damaged 0644 file leaves no side file with a mode other than 0600")
    func damagedFileSideFilesArePrivate() async throws {
        let url = try makeStoreURL()
        do {
            let store = try TransactionStore(url: url)
            for _ in 0..<50 { store.record(makeTransaction(body: Data(repeating: 1, count: 4000))) }
            try await store.flush()
        }
        let data = try Data(contentsOf: url)
        let damaged = url.deletingLastPathComponent().appendingPathComponent("trunc.sqlite")
        try data.prefix(data.count / 2).write(to: damaged)
        chmod(damaged.path, 0o644)
        var error: StoreError?
        do {
            let reader = try TransactionStore(url: damaged, mode: .readOnly)
            _ = try await reader.transactions(includingBodies: true)
        } catch let caught {
            error = caught
        }
        #expect(error != nil)
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: damaged.path + suffix) {
            #expect(try permissions(damaged.path + suffix) == 0o600, "\(suffix)")
        }
        #expect(try permissions(damaged.path) == 0o644)
    }

    @Test("a read-only open does not change the mode of side files that were already there")
    func existingSideFilesKeepTheirMode() async throws {
        let url = try makeStoreURL()
        let writer = try TransactionStore(url: url)
        writer.record(makeTransaction())
        try await writer.flush()
        chmod(url.path + "-shm", 0o640)
        let reader = try TransactionStore(url: url, mode: .readOnly)
        #expect(try await reader.count() == 1)
        #expect(try permissions(url.path + "-shm") == 0o640)
    }
}
