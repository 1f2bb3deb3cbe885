import Foundation
import NetTapCore
import NetTapReport

extension HARSummary {
    /// The traffic of one GraphQL operation: every request for it, whatever its endpoint.
    package struct GraphQLOperationTotals: Sendable, Hashable, Codable {
        /// The operation's name, `(anonymous)`, or for a batch every operation's, joined with `, `.
        package var operation: String
        /// `query`, `mutation` or `subscription` (a batch's distinct types joined with `, `), when known.
        package var type: String?
        /// The requests' figures, from `FlowStatistics` like every other figure (its `host` is `(all)`).
        package var statistics: FlowStatistics.Totals
    }

    /// The GraphQL operations of the transactions, most requests first, then by name.
    static func graphQLOperations(of transactions: [CapturedTransaction]) -> [GraphQLOperationTotals] {
        var groups: [String: (type: String?, transactions: [CapturedTransaction])] = [:]
        for transaction in transactions {
            guard let label = GraphQLRequest.label(of: transaction) else { continue }
            groups[label.operation, default: (label.type, [])].transactions.append(transaction)
        }
        return groups.map { operation, group in
            let statistics = FlowStatistics(transactions: group.transactions, includesEmptyBuckets: false)
            return GraphQLOperationTotals(operation: operation, type: group.type, statistics: statistics.total)
        }
        .sorted { ($0.statistics.requests, $1.operation) > ($1.statistics.requests, $0.operation) }
    }
}
