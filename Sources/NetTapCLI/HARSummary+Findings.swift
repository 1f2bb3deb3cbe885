import Foundation
import NetTapAudit
import NetTapCore
import NetTapHAR

extension HARSummary {
    /// One finding of the summarized file: which entry, the request, and the finding without secrets.
    package struct FindingEntry: Sendable, Hashable, Codable {
        /// The entry's position in `log.entries`, from 0.
        package var index: Int
        /// The request method.
        package var method: String
        /// The request URL without query, fragment and user info (they may hold the secret found).
        package var url: String
        /// The finding.
        package var finding: Finding
        /// Whether `nettap report --audit` found it now (`true`) or the capture recorded it (`false`).
        package var isFromAudit: Bool
    }

    /// The findings recorded in NetTap's `_netTap` entry records (integrity, audit, …), in entry order, then
    /// those `audit` finds when given (for HAR files from other tools, or captures made without an audit).
    ///
    /// - Parameters:
    ///   - entries: The HAR 1.2 `log.entries`.
    ///   - audit: An audit to run on each entry's transaction, or `nil` for the recorded findings only.
    /// - Returns: The findings, most severe first, then in entry order.
    static func findings(of entries: [HAREntry], audit: AuditHandler?) -> [FindingEntry] {
        var found: [FindingEntry] = []
        for (index, entry) in entries.enumerated() {
            let recorded = entry.netTap?.findings ?? []
            // Reading an entry as a transaction costs (its date, headers and body): only when there is a use.
            if recorded.isEmpty && audit == nil { continue }
            let transaction = entry.transaction()
            let url = Self.shownURL(of: entry, transaction.request.url)
            let audited = audit.map { audit in audit.findings(for: transaction).filter { !recorded.contains($0) } }
            let all = recorded.map { ($0, false) } + (audited ?? []).map { ($0, true) }
            for (finding, isFromAudit) in all {
                found.append(
                    FindingEntry(
                        index: index,
                        method: transaction.request.method,
                        url: url,
                        finding: finding,
                        isFromAudit: isFromAudit
                    )
                )
            }
        }
        return found.enumerated().sorted { lhs, rhs in
            lhs.element.finding.severity != rhs.element.finding.severity
                ? lhs.element.finding.severity > rhs.element.finding.severity : lhs.offset < rhs.offset
        }
        .map(\.element)
    }

    /// A URL without query, fragment and user info; text that is no URL as the file wrote it, without its query
    /// (as the slowest list shows it, not the escaped form it is read as).
    private static func shownURL(of entry: HAREntry, _ url: URL) -> String {
        if URL(string: entry.request.url) == nil, url.scheme == nil {
            return String(entry.request.url.prefix { $0 != "?" && $0 != "#" })
        }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.host ?? "" }
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        return components.string ?? (url.host ?? "")
    }
}

extension HARSummary {
    /// Numbers the slowest entries, the findings and the rewritten entries by their positions in the file's `log.entries` (as
    /// `mock save --entry` takes them), which differ from positions in `log.entries` once entries were left out.
    ///
    /// - Parameter log: The log the summary was made from.
    package mutating func numberEntries(asIn log: HARLog) {
        entriesLeftOut = log.leftOutEntryPositions.count
        guard !log.leftOutEntryPositions.isEmpty else { return }
        for index in slowest.indices { slowest[index].index = log.filePosition(ofEntry: slowest[index].index) }
        for index in findings.indices { findings[index].index = log.filePosition(ofEntry: findings[index].index) }
        for index in rewrites.indices { rewrites[index].index = log.filePosition(ofEntry: rewrites[index].index) }
    }
}
