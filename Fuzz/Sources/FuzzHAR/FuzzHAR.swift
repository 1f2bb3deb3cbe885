import Foundation
import FuzzSupport
import NetTapCore
import NetTapHAR

/// Decodes the input as a HAR 1.2 document, turns it into transactions and encodes it again.
///
/// A thrown `HARError` is a correct rejection; a trap, hang or leak is a bug.
///
/// - Parameters:
///   - start: The input's first byte.
///   - count: The input's length in bytes.
/// - Returns: 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHAR(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    guard let document = try? HARDocument.decode(input.data, source: "fuzz.har") else { return 0 }
    let transactions = document.transactions()
    for transaction in transactions {
        _ = HARCookie.requestCookies(in: transaction.request.headers)
        if let response = transaction.response {
            _ = HARCookie.responseCookies(in: response.headers, url: response.url)
        }
    }
    if let encoded = try? document.encoded() {
        _ = try? HARDocument.decode(encoded, source: "fuzz-encoded.har")
    }
    _ = HARDocument(transactions: transactions)
    return 0
}
