import Foundation

/// The throughput totals of one ``MockVariant`` over the rounds.
struct MockRate {
    /// Requests answered.
    var requests = 0
    /// Wall-clock seconds they took, summed over the rounds.
    var seconds = 0.0
    /// This process's CPU seconds (user + system) meanwhile.
    var cpuSeconds = 0.0

    /// Requests per second.
    var perSecond: Double { Double(requests) / seconds }
    /// This process's CPU time per request, in microseconds (the server's CPU is not included).
    var cpuMicroseconds: Double { cpuSeconds / Double(requests) * 1e6 }

    /// Adds one round.
    /// - Parameters:
    ///   - requests: Requests in the round.
    ///   - seconds: Its wall-clock time.
    ///   - cpuSeconds: This process's CPU time during it.
    mutating func add(requests: Int, seconds: Double, cpuSeconds: Double) {
        self.requests += requests
        self.seconds += seconds
        self.cpuSeconds += cpuSeconds
    }
}
