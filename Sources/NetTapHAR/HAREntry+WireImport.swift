import Foundation
import NetTapCore

extension HAREntry {
    /// The `transport` of wire details read from another tool's standard HAR fields: the tool, not NetTap, sent
    /// the request.
    public static let importedTransport = "har"

    /// The wire details of the entry: from NetTap's `_netTap.wire` record when it has one, else from the
    /// standard fields other tools write (see ``standardWireDetails()``).
    ///
    /// - Parameter record: The entry's `_netTap.wire`, if any.
    /// - Returns: The details, or `nil` when the entry says nothing about the wire.
    func wireDetails(record: HARNetTapRecord.Wire?) -> WireDetails? {
        if let details = record?.details(remoteAddress: remoteAddress, localPort: localPort) { return details }
        return standardWireDetails()
    }

    /// Wire details from the standard fields: `serverIPAddress` (brackets of an IPv6 address dropped),
    /// `connection` when it is a port number (1–65535), Playwright's `_serverPort`, the phases when any of
    /// `dns`, `connect` or `ssl` is ≥ 0 (a new connection when `connect` is), Chrome's `_securityDetails`, and
    /// the response's `httpVersion` (`http/2.0`, `h2` → `HTTP/2`).
    ///
    /// Odd values are skipped, never fatal. The transport is ``importedTransport``.
    /// - Returns: The details, or `nil` when none of those fields says anything.
    public func standardWireDetails() -> WireDetails? {
        var details = WireDetails(transport: Self.importedTransport)
        details.remoteAddress = remoteAddress
        details.localPort = localPort
        details.remotePort = customFields["_serverPort"].flatMap(Self.port)
        if [timings.dns, timings.connect, timings.ssl].contains(where: { $0 >= 0 }) {
            details.phases = WirePhases(
                dns: timings.dns,
                connect: timings.connect,
                ssl: timings.ssl,
                send: timings.send,
                wait: timings.wait,
                receive: timings.receive
            )
            details.isNewConnection = timings.connect >= 0
        }
        details.tls = customFields["_securityDetails"].flatMap(Self.tlsDetails)
        guard
            details.remoteAddress != nil || details.localPort != nil || details.remotePort != nil
                || details.phases != nil || details.tls != nil
        else { return nil }
        details.httpVersion = WireDetails.normalizedHTTPVersion(response.httpVersion)
        return details
    }

    /// The protocol the exchange used: `_netTap.wire.httpVersion` in NetTap's exports, else the response's
    /// `httpVersion` as `WireDetails` spells it (`HTTP/1.1`, `HTTP/2`, `HTTP/3`); `nil` when neither says.
    package var negotiatedHTTPVersion: String? {
        netTap?.wire?.httpVersion ?? WireDetails.normalizedHTTPVersion(response.httpVersion)
    }

    /// `serverIPAddress` without surrounding whitespace or IPv6 brackets; `nil` when empty.
    var remoteAddress: String? {
        guard var address = serverIPAddress?.trimmingCharacters(in: .whitespaces), !address.isEmpty else {
            return nil
        }
        if address.hasPrefix("["), address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
        return address.isEmpty ? nil : address
    }

    /// `connection` as a local port, when it is a whole number from 1 to 65535.
    var localPort: Int? {
        guard let number = connection.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else { return nil }
        return (1...65_535).contains(number) ? number : nil
    }

    /// A port from a JSON number or numeric string from 1 to 65535.
    static func port(_ value: HARValue) -> Int? {
        let number: Int?
        switch value {
        case .integer(let integer): number = Int(exactly: integer)
        case .number(let double): number = double.rounded() == double && double.magnitude < 1e6 ? Int(double) : nil
        case .string(let text): number = Int(text.trimmingCharacters(in: .whitespaces))
        default: number = nil
        }
        return number.flatMap { (1...65_535).contains($0) ? $0 : nil }
    }
}
