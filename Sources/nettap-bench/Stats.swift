import Foundation

/// Order statistics of a sample (latencies in microseconds, rates, byte counts).
struct Stats {
    /// The samples, ascending.
    let sorted: [Double]

    /// Creates the statistics of `samples`; an empty sample gives `nan` for every figure.
    /// - Parameter samples: The values, in any order.
    init(_ samples: [Double]) {
        sorted = samples.sorted()
    }

    /// The number of samples.
    var count: Int { sorted.count }

    /// The nearest-rank percentile: the smallest sample with at least `p` percent of the samples at or below it.
    /// - Parameter p: The percentile, 0...100.
    /// - Returns: The sample, or `nan` when there are none.
    func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        let index = min(max(rank - 1, 0), sorted.count - 1)
        return sorted[index]
    }

    /// The median (the 50th nearest-rank percentile).
    var median: Double { percentile(50) }

    /// The arithmetic mean, or `nan` when there are no samples.
    var mean: Double {
        guard !sorted.isEmpty else { return .nan }
        return sorted.reduce(0, +) / Double(sorted.count)
    }

    /// The largest sample, or `nan` when there are none.
    var maximum: Double { sorted.last ?? .nan }
}
