import Foundation

extension CapturedTransaction {
    /// The protocol the exchange used: what the transport negotiated (``WireDetails/httpVersion``), else the
    /// response's version spelled as ``WireDetails`` spells it; `nil` without either.
    package var negotiatedHTTPVersion: String? {
        wire?.httpVersion ?? response.flatMap { WireDetails.normalizedHTTPVersion($0.httpVersion) }
    }
}
