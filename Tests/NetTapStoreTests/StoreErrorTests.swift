import Foundation
import NetTapCore
import Testing

@testable import NetTapStore

@Suite("TransactionStore: clear errors for files it cannot use")
struct StoreErrorTests {
    @Test("a missing file opened read-only is a missingFile error naming it")
    func missingFile() throws {
        let url = try makeStoreURL()
        let error = #expect(throws: StoreError.self) { try TransactionStore(url: url, mode: .readOnly) }
        #expect(error?.code == .missingFile)
        #expect(error?.description == "\(url.path): no such file")
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("a text file is notAStore, naming the file")
    func textFile() throws {
        let url = try makeStoreURL()
        try Data(String(repeating: "not a database at all\n", count: 100).utf8).write(to: url)
        for mode in [TransactionStore.Mode.readWrite, .readOnly] {
            let error = #expect(throws: StoreError.self) { try TransactionStore(url: url, mode: mode) }
            #expect(error?.code == .notAStore)
            #expect(error?.description.hasPrefix("\(url.path): not a NetTap store") == true)
        }
    }

    @Test("another program's SQLite database is notAStore and is left unchanged")
    func foreignDatabase() throws {
        let url = try makeStoreURL()
        do {
            let database = try Database(path: url.path, access: .readWriteCreate)
            try database.execute("CREATE TABLE notes (text TEXT)")
        }
        let error = #expect(throws: StoreError.self) { try TransactionStore(url: url) }
        #expect(error?.code == .notAStore)
        #expect(error?.message.contains("some other program") == true)
        #expect(try rawText(url, "SELECT group_concat(name) FROM sqlite_master") == "notes")
    }

    @Test("a store of a newer schema version is newerSchema, naming both versions")
    func newerSchema() async throws {
        let url = try makeStoreURL()
        _ = try TransactionStore(url: url)
        _ = try rawText(url, "PRAGMA user_version = 99")
        let error = #expect(throws: StoreError.self) { try TransactionStore(url: url) }
        #expect(error?.code == .newerSchema)
        #expect(
            error?.description
                == "\(url.path): schema version 99 is newer than this NetTap supports (\(Schema.currentVersion)); "
                + "update NetTap to read it"
        )
    }

    @Test("a damaged store is reported by the integrity check or on opening, never read as valid")
    func damagedFile() async throws {
        let url = try makeStoreURL()
        do {
            let store = try TransactionStore(url: url)
            for _ in 0..<200 { store.record(makeTransaction(body: Data(UUID().uuidString.utf8) + Data(count: 500))) }
            try await store.flush()
            try await store.checkpoint()
        }
        var bytes = try Data(contentsOf: url)
        #expect(bytes.count > 16 * 4096)
        bytes.replaceSubrange(4096..<(bytes.count - 4096), with: Data(repeating: 0x5A, count: bytes.count - 8192))
        try bytes.write(to: url)
        let outcome: String
        do {
            let store = try TransactionStore(url: url, mode: .readOnly)
            let check = try await store.integrityCheck()
            outcome = check == ["ok"] ? "ok" : "reported"
        } catch {
            outcome = error.code == .corrupt || error.code == .notAStore ? "reported" : "other: \(error)"
        }
        #expect(outcome == "reported")
    }

    @Test("a query on a store opened read-only reads what a writer flushed")
    func readOnlySeesWriter() async throws {
        let url = try makeStoreURL()
        let writer = try TransactionStore(url: url)
        writer.record(makeTransaction())
        try await writer.flush()
        let reader = try TransactionStore(url: url, mode: .readOnly)
        #expect(try await reader.count() == 1)
    }
}
