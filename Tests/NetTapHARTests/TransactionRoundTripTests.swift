import Foundation
import NetTapCore
import NetTapHAR
import Testing

@Suite("CapturedTransaction → HAR → transaction")
struct TransactionRoundTripTests {
    @Test("Export then import gives equal transactions: text, binary, redirects, errors, truncation, notes")
    func roundTrip() throws {
        let data = try HARDocument(transactions: SampleTransactions.all, redactor: .disabled).encoded()
        let imported = try HARDocument.decode(data, source: "round-trip.har").transactions()
        #expect(imported.count == SampleTransactions.all.count)
        for (original, back) in zip(SampleTransactions.all, imported) {
            #expect(back == original, "\(original.request.method) \(original.request.url)")
        }
    }

    @Test("Hop entries fold back: one transaction per redirected transaction, with its first request")
    func foldsHops() throws {
        let document = try HARDocument.decode(
            try HARDocument(transactions: SampleTransactions.all, redactor: .disabled).encoded(),
            source: "hops.har"
        )
        #expect(document.log.entries.count == SampleTransactions.Entry.count)
        let imported = document.transactions()
        #expect(imported.map(\.id) == SampleTransactions.all.map(\.id))
        let post = try #require(imported.first { $0.id == SampleTransactions.postRedirected.id })
        #expect(post.request.method == "POST")
        #expect(post.request.url.absoluteString == "http://127.0.0.1:8080/form")
        #expect(post.request.body?.data == Data("name=caf%C3%A9".utf8))
        #expect(post.request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(post.redirects.map(\.statusCode) == [307, 303])
        #expect(post.response?.url.absoluteString == "http://127.0.0.1:8080/done")
    }

    @Test("The final entry alone restores the first method and URL and the hops, with the last request's body")
    func finalEntryAlone() throws {
        let entries = HAREntry.entries(for: SampleTransactions.postRedirected)
        #expect(entries.count == 3)
        let alone = try #require(entries.last).transaction()
        #expect(alone.id == SampleTransactions.postRedirected.id)
        #expect(alone.request.method == "POST")
        #expect(alone.request.url == SampleTransactions.postRedirected.request.url)
        #expect(alone.request.body == nil)
        #expect(alone.redirects == SampleTransactions.postRedirected.redirects)
        #expect(alone.timings == SampleTransactions.postRedirected.timings)
        #expect(alone.response == SampleTransactions.postRedirected.response)

        // A hop entry read on its own is a plain 3xx exchange, as from another tool.
        let hop = entries[0].transaction()
        #expect(hop.response?.statusCode == 307)
        #expect(hop.redirects.isEmpty)
        #expect(hop.timings.end == 3)
    }

    @Test("Without _netTap (other tools' files) every entry, redirects included, is its own transaction")
    func noFoldingWithoutRecord() throws {
        var document = HARDocument(transactions: SampleTransactions.all, redactor: .disabled)
        for index in document.log.entries.indices { document.log.entries[index].netTap = nil }
        let imported = document.transactions()
        #expect(imported.count == SampleTransactions.Entry.count)
        let index = SampleTransactions.Entry.redirectedHops[0]
        #expect(imported[index].response?.statusCode == 302)
        #expect(imported[index].request.url.absoluteString == "http://127.0.0.1:8080/old")

        // A hop entry whose final entry is gone is kept as a transaction too.
        var orphaned = HARDocument(transactions: [SampleTransactions.redirected], redactor: .disabled)
        orphaned.log.entries.removeLast()
        #expect(orphaned.transactions().map { $0.response?.statusCode } == [302, 301])
    }

    @Test("The entry comment says what HAR 1.2 has no field for")
    func summary() {
        let mocked = HAREntry(transaction: SampleTransactions.mocked)
        #expect(
            mocked.comment
                == "NetTap: answered by mock; notes scenario=happy path, stub=delete-item; finding [high] "
                + "integrity.mismatch at body: The body's SHA-256 differs from the manifest's. "
                + "(action=fallback, expected=sha256-AAAA)"
        )
        #expect(mocked.transaction().findings == SampleTransactions.mocked.findings)
        let redirected = HAREntry(transaction: SampleTransactions.redirected)
        #expect(
            redirected.comment
                == "NetTap: redirected 302 http://127.0.0.1:8080/old → 301 http://127.0.0.1:8080/middle"
                + " → http://127.0.0.1:8080/final"
        )
        #expect(HAREntry(transaction: SampleTransactions.get).comment == nil)
        let failed = HAREntry(transaction: SampleTransactions.failed)
        #expect(
            failed.comment == "NetTap: state failed; error NSURLErrorDomain -1001: The request timed out."
        )
    }

    @Test("Without _netTap, state and milestones are derived from the HAR fields")
    func withoutRecord() throws {
        var entry = HAREntry(transaction: SampleTransactions.get)
        entry.netTap = nil
        let transaction = entry.transaction()
        #expect(transaction.state == .completed)
        #expect(transaction.answeredBy == CapturedTransaction.answeredByNetwork)
        #expect(transaction.timings.requestSent == 1.25)
        #expect(transaction.timings.firstByte == 20.5)
        #expect(transaction.timings.end == 31.75)
        let start = transaction.timings.startDate.timeIntervalSince(SampleTransactions.start)
        #expect(abs(start) < 0.001)

        var failed = HAREntry(transaction: SampleTransactions.failed)
        failed.netTap = nil
        let failure = failed.transaction()
        #expect(failure.state == .failed)
        #expect(failure.response == nil)
        #expect(failure.error?.message.contains("The request timed out.") == true)
    }

    @Test("An edited startedDateTime wins over the exact start kept in _netTap")
    func editedStart() {
        var entry = HAREntry(transaction: SampleTransactions.get)
        entry.startedDateTime = "2020-01-01T00:00:00.000Z"
        #expect(entry.transaction().timings.startDate == Date(timeIntervalSince1970: 1_577_836_800))

        // A redirected transaction's final entry starts at its last hop (9.25 ms in).
        var final = HAREntry(transaction: SampleTransactions.redirected)
        #expect(final.transaction().timings.startDate == SampleTransactions.redirected.timings.startDate)
        final.startedDateTime = "2020-01-01T00:00:01.000Z"
        let edited = final.transaction().timings.startDate.timeIntervalSince1970
        #expect(abs(edited - 1_577_836_800.99075) < 0.000_001)
    }
}

@Suite("The _netTap record is typed and read field by field")
struct NetTapRecordTypingTests {
    @Test("a field that cannot be read is left out and the rest of the record kept")
    func fieldByField() throws {
        let json = #"""
            {"id": "not-a-uuid", "state": "teleported", "answeredBy": "mock", "annotations": {"stub": "cart"},
             "startSecondsSince2001": "soon", "requestSent": 1.5, "redirectOf": 7, "hop": 1}
            """#
        let record = try JSONDecoder().decode(HARNetTapRecord.self, from: Data(json.utf8))
        #expect(record.id == nil)
        #expect(record.state == nil)
        #expect(record.redirectOf == nil)
        #expect(record.startSecondsSince2001 == nil)
        #expect(record.answeredBy == "mock")
        #expect(record.annotations == ["stub": "cart"])
        #expect(record.requestSent == 1.5)
        #expect(record.hop == 1)
    }

    @Test("id, state and redirectOf are written as before: a UUID string and the state's name")
    func writtenAsBefore() throws {
        var record = HARNetTapRecord()
        let id = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        record.id = id
        record.state = .cancelled
        record.redirectOf = id
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any]
        )
        #expect(object["id"] as? String == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(object["state"] as? String == "cancelled")
        #expect(object["redirectOf"] as? String == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(try JSONDecoder().decode(HARNetTapRecord.self, from: JSONEncoder().encode(record)) == record)
    }
}
