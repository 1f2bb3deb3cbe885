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

    /// The GraphQL operations of the transactions, one per name and type (a query and a mutation of one name are
    /// two operations), most requests first, then by name and type.
    static func graphQLOperations(of transactions: [CapturedTransaction]) -> [GraphQLOperationTotals] {
        var groups: [OperationKey: [CapturedTransaction]] = [:]
        for transaction in transactions {
            guard let label = GraphQLRequest.label(of: transaction) else { continue }
            groups[OperationKey(operation: label.operation, type: label.type), default: []].append(transaction)
        }
        return groups.map { key, group in
            let statistics = FlowStatistics(transactions: group, includesEmptyBuckets: false)
            return GraphQLOperationTotals(operation: key.operation, type: key.type, statistics: statistics.total)
        }
        .sorted {
            ($0.statistics.requests, $1.operation, $1.type ?? "")
                > ($1.statistics.requests, $0.operation, $0.type ?? "")
        }
    }

    /// What tells GraphQL operations apart in the table.
    private struct OperationKey: Hashable {
        var operation: String
        var type: String?
    }
}
