import Foundation

extension WireDetails {
    /// `HTTP/1.0`, `HTTP/1.1`, `HTTP/2` or `HTTP/3` for the spellings transports and tools write (`http/2.0`,
    /// `h2`, `h3`, …); other non-empty values as written; `nil` when empty.
    package static func normalizedHTTPVersion(_ version: String) -> String? {
        let trimmed = version.trimmingCharacters(in: .whitespaces)
        switch trimmed.lowercased() {
        case "": return nil
        case "http/1.0": return "HTTP/1.0"
        case "http/1.1": return "HTTP/1.1"
        case "h2", "http/2", "http/2.0": return "HTTP/2"
        case "h3", "http/3", "http/3.0": return "HTTP/3"
        default: return trimmed
        }
    }
}

extension Transaction {
    /// The protocol the exchange used: what the transport negotiated (``WireDetails/httpVersion``), else the
    /// response's version spelled as ``WireDetails`` spells it; `nil` without either.
    package var negotiatedHTTPVersion: String? {
        wire?.httpVersion ?? response.flatMap { WireDetails.normalizedHTTPVersion($0.httpVersion) }
    }
}
