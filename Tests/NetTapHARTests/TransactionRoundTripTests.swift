import Foundation
import NetTapCore
import NetTapHAR
import Testing

@Suite("Transaction → HAR → transaction")
struct TransactionRoundTripTests {
    @Test("Export then import gives equal transactions: text, binary, redirects, errors, truncation, notes")
    func roundTrip() throws {
        let data = try HARDocument(transactions: SampleTransactions.all).encoded()
        let imported = try HARDocument.decode(data, source: "round-trip.har").transactions()
        #expect(imported.count == SampleTransactions.all.count)
        for (original, back) in zip(SampleTransactions.all, imported) {
            #expect(back == original, "\(original.request.method) \(original.request.url)")
        }
    }

    @Test("The entry comment says what HAR 1.2 has no field for")
    func summary() {
        let mocked = HAREntry(transaction: SampleTransactions.mocked)
        #expect(mocked.comment == "NetTap: answered by mock; notes scenario=happy path, stub=delete-item")
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
        #expect(transaction.answeredBy == Transaction.answeredByNetwork)
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
    }
}
