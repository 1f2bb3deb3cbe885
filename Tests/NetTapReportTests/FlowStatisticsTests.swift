import Foundation
import NetTapCore
import NetTapReport
import Testing

@Suite("Flow statistics")
struct FlowStatisticsTests {
    /// Two hosts; a 500, a 404 from a mock, a failure; durations 100, 300, 50, 20 ms.
    static let transactions = [
        Samples.transaction("GET", "https://a.example.com/one", offset: 0, end: 100, down: 1000),
        Samples.transaction(
            "POST",
            "https://a.example.com/two",
            status: 500,
            offset: 0.5,
            sent: 2,
            end: 300,
            up: 500,
            down: 200
        ),
        Samples.transaction(
            "GET",
            "http://b.example.com:8080/three",
            status: 404,
            offset: 1.2,
            end: 50,
            down: 300,
            answeredBy: "mock"
        ),
        Samples.transaction("GET", "http://b.example.com:8080/four", status: nil, offset: 2.5, end: 20),
    ]

    @Test("overall counts, bytes, errors, nearest-rank percentiles and source shares are exact")
    func total() {
        let statistics = FlowStatistics(transactions: Self.transactions)
        let total = statistics.total
        #expect(total.host == "(all)")
        #expect(total.requests == 4)
        #expect(total.bytesOut == 500)
        #expect(total.bytesIn == 1500)
        #expect(total.failed == 1)
        #expect(total.clientErrors == 1)
        #expect(total.serverErrors == 1)
        // Ascending 20, 50, 100, 300: rank ⌈0.5·4⌉ = 2, ⌈0.95·4⌉ = 4, ⌈0.99·4⌉ = 4.
        #expect(total.p50Milliseconds == 50)
        #expect(total.p95Milliseconds == 300)
        #expect(total.p99Milliseconds == 300)
        #expect(total.answeredBy.map(\.source) == ["network", "mock"])
        #expect(total.answeredBy.map(\.count) == [3, 1])
        #expect(total.answeredBy.map(\.share) == [0.75, 0.25])
        #expect(statistics.range == DateInterval(start: Samples.start, end: Samples.start.addingTimeInterval(2.52)))
    }

    @Test("per host: the port is part of the host, ties sort by name")
    func hosts() {
        let hosts = FlowStatistics(transactions: Self.transactions).hosts
        #expect(hosts.map(\.host) == ["a.example.com", "b.example.com:8080"])
        let a = hosts[0]
        #expect([a.requests, a.failed, a.clientErrors, a.serverErrors] as [Int] == [2, 0, 0, 1])
        #expect([a.bytesOut, a.bytesIn] == [500, 1200])
        #expect([a.p50Milliseconds, a.p95Milliseconds, a.p99Milliseconds] == [100, 300, 300])
        let b = hosts[1]
        #expect([b.requests, b.failed, b.clientErrors, b.serverErrors] as [Int] == [2, 1, 1, 0])
        #expect([b.bytesOut, b.bytesIn] == [0, 300])
        #expect([b.p50Milliseconds, b.p95Milliseconds] == [20, 50])
        #expect(b.answeredBy.map(\.share) == [0.5, 0.5])
    }

    @Test("1-second buckets: requests at their start, bytes out when sent, bytes in at the end")
    func secondBuckets() {
        let series = FlowStatistics(transactions: Self.transactions).series
        #expect(series.map(\.start) == [0, 1, 2].map { Samples.start.addingTimeInterval($0) })
        #expect(series.map(\.requests) == [2, 1, 1])
        #expect(series.map(\.bytesOut) == [500, 0, 0])
        #expect(series.map(\.bytesIn) == [1200, 300, 0])
        #expect(series.map(\.bytesInPerSecond) == [1200, 300, 0])
        #expect(series.map(\.requestsPerSecond) == [2, 1, 1])
    }

    @Test("half-second buckets give per-second rates")
    func halfSecondBuckets() {
        let statistics = FlowStatistics(transactions: Self.transactions, bucketDuration: .milliseconds(500))
        #expect(statistics.bucketSeconds == 0.5)
        #expect(statistics.series.map(\.requests) == [1, 1, 1, 0, 0, 1])
        #expect(statistics.series.map(\.bytesInPerSecond) == [2000, 400, 600, 0, 0, 0])
        #expect(statistics.series.map(\.bytesOutPerSecond) == [0, 1000, 0, 0, 0, 0])
        #expect(statistics.series.map(\.requestsPerSecond) == [2, 2, 2, 0, 0, 2])
    }

    @Test("a time range keeps the transactions that start in it and starts the buckets there")
    func range() {
        let range = DateInterval(start: Samples.start.addingTimeInterval(1), duration: 2)
        let statistics = FlowStatistics(transactions: Self.transactions, range: range)
        #expect(statistics.total.requests == 2)
        #expect(statistics.total.bytesIn == 300)
        #expect(statistics.series.count == 2)
        #expect(statistics.series.map(\.requests) == [1, 1])
        #expect(statistics.series.first?.start == range.start)
    }

    @Test("no transactions: zero counts, no percentiles, no series")
    func empty() {
        let statistics = FlowStatistics(transactions: [])
        #expect(statistics.total.requests == 0)
        #expect(statistics.total.p50Milliseconds == nil)
        #expect(statistics.hosts.isEmpty)
        #expect(statistics.series.isEmpty)
        #expect(statistics.range == nil)
    }

    @Test("nearest rank: rank ⌈p/100 · n⌉ of the ascending values")
    func nearestRank() {
        let values = (1...10).map(Double.init)
        #expect(FlowStatistics.nearestRankPercentile(50, of: values) == 5)
        #expect(FlowStatistics.nearestRankPercentile(95, of: values) == 10)
        #expect(FlowStatistics.nearestRankPercentile(0, of: values) == 1)
        #expect(FlowStatistics.nearestRankPercentile(99, of: []) == nil)
    }
}

@Suite("Host labels: one host whatever its case; a host that needed escaping is no host")
struct HostLabelCaseTests {
    @Test("upper and lower case name one host; exa%20mple.com and a text that is no URL are (no host)")
    func labels() throws {
        #expect(FlowStatistics.host(of: try #require(URL(string: "HTTPS://H.EXAMPLE.COM/x"))) == "h.example.com")
        #expect(FlowStatistics.host(of: "https://API.example.com:8443/v1") == "api.example.com:8443")
        #expect(FlowStatistics.host(of: try #require(URL(string: "http://exa%20mple.com/"))) == FlowStatistics.noHost)
        #expect(FlowStatistics.host(of: "http://exa mple.com/?a=1") == FlowStatistics.noHost)
        #expect(FlowStatistics.host(of: "/relative?a=1") == FlowStatistics.noHost)
    }
}

@Suite("Host labels of internationalised, dotted and bracketed hosts")
struct HostLabelFormTests {
    @Test("punycode stays as written, a trailing dot names the same host, an IPv6 literal keeps its brackets")
    func forms() {
        #expect(FlowStatistics.host(of: "https://xn--bcher-kva.example/a") == "xn--bcher-kva.example")
        #expect(FlowStatistics.host(of: "http://WWW.xn--mnchen-3ya.de/") == "www.xn--mnchen-3ya.de")
        #expect(FlowStatistics.host(of: "http://cdn.stats.example./x") == "cdn.stats.example")
        #expect(FlowStatistics.host(of: "http://[::1]:8080/") == "[::1]:8080")
    }
}
