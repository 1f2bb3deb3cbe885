import Foundation

/// Presets from Apple's Network Link Conditioner (NLC) and Chrome DevTools, and one per condition.
///
/// Where the numbers come from:
///
/// | preset | name in config | source | down | up | latency | loss |
/// | --- | --- | --- | --- | --- | --- | --- |
/// | ``threeG`` | `3g` | NLC "3G" | 780 kbit/s | 330 kbit/s | 100 ms each way | 0 |
/// | ``edge`` | `edge` | NLC "Edge" | 240 kbit/s | 200 kbit/s | 400 ms down, 440 ms up | 0 |
/// | ``veryBadNetwork`` | `very-bad-network` | NLC "Very Bad Network" | 1 Mbit/s | 1 Mbit/s | 500 ms each way | 10 % |
/// | ``totalLoss`` | `100%-loss` | NLC "100% Loss" | – | – | – | 100 % |
/// | ``lte`` | `lte` | NLC "LTE" | 50 Mbit/s | 10 Mbit/s | 50 ms down, 65 ms up | 0 |
/// | ``dsl`` | `dsl` | NLC "DSL" | 2 Mbit/s | 256 kbit/s | 5 ms each way | 0 |
/// | ``wifi`` | `wifi` | NLC "Wi-Fi" | 40 Mbit/s | 33 Mbit/s | 1 ms each way | 0 |
/// | ``slow3G`` | `slow-3g` | Chrome DevTools "Slow 3G" | 400 kbit/s | 400 kbit/s | 2,000 ms | 0 |
/// | ``fast3G`` | `fast-3g` | Chrome DevTools "Fast 3G" | 1.44 Mbit/s | 675 kbit/s | 562.5 ms | 0 |
///
/// NLC sets a delay per direction; a request and its response cross the link once each way, so a profile's
/// ``latency`` (the added round trip) is the downlink delay plus the uplink delay. NLC drops packets; NetTap
/// turns the loss percentage into a per-request ``failureRate``. Apple publishes no text table of the presets: the NLC
/// numbers are those its preference pane (Additional Tools for Xcode) shows for each built-in profile. The 3G,
/// Edge and Very Bad Network numbers are also those the NetTap issue tracker quotes; third-party write-ups agree on
/// 3G, Edge, DSL and Wi-Fi but some quote older LTE numbers, so check a preset against your own pane ("Manage
/// Profiles") when the exact value matters, and build a ``NetworkProfile`` of your own where it differs.
///
/// Chrome's numbers are those of DevTools' `NetworkManager` throttling conditions (mirrored by Puppeteer's
/// `PredefinedNetworkConditions`): Slow 3G is 500 kbit/s × 0.8 both ways with a 400 ms round trip × 5;
/// Fast 3G is 1.6 Mbit/s × 0.9 down, 750 kbit/s × 0.9 up, with a 150 ms round trip × 3.75. The products are
/// what DevTools applies, so they are what NetTap applies.
extension NetworkProfile {
    /// NLC "3G": 780 kbit/s down, 330 kbit/s up, 100 ms delay each way (200 ms added round trip).
    public static let threeG = NetworkProfile(
        latency: .milliseconds(200),
        downloadBytesPerSecond: bytesPerSecond(kilobitsPerSecond: 780),
        uploadBytesPerSecond: bytesPerSecond(kilobitsPerSecond: 330)
    )

    /// NLC "Edge": 240 kbit/s down with 400 ms delay, 200 kbit/s up with 440 ms delay (840 ms round trip).
    public static let edge = NetworkProfile(
        latency: .milliseconds(840),
        downloadBytesPerSecond: bytesPerSecond(kilobitsPerSecond: 240),
        uploadBytesPerSecond: bytesPerSecond(kilobitsPerSecond: 200)
    )

    /// NLC "Very Bad Network": 1 Mbit/s and 500 ms delay each way (1,000 ms round trip), 10 % loss (a 0.1
    /// failure rate).
    public static let veryBadNetwork = NetworkProfile(
        latency: .milliseconds(1000),
        downloadBytesPerSecond: bytesPerSecond(megabitsPerSecond: 1),
        uploadBytesPerSecond: bytesPerSecond(megabitsPerSecond: 1),
        failureRate: 0.1
    )

    /// NLC "100% Loss": every request fails with `URLError(.networkConnectionLost)`.
    public static let totalLoss = NetworkProfile(failureRate: 1)

    /// NLC "LTE": 50 Mbit/s down with 50 ms delay, 10 Mbit/s up with 65 ms delay (115 ms round trip).
    public static let lte = NetworkProfile(
        latency: .milliseconds(115),
        downloadBytesPerSecond: bytesPerSecond(megabitsPerSecond: 50),
        uploadBytesPerSecond: bytesPerSecond(megabitsPerSecond: 10)
    )

    /// NLC "DSL": 2 Mbit/s down, 256 kbit/s up, 5 ms delay each way (10 ms round trip).
    public static let dsl = NetworkProfile(
        latency: .milliseconds(10),
        downloadBytesPerSecond: bytesPerSecond(megabitsPerSecond: 2),
        uploadBytesPerSecond: bytesPerSecond(kilobitsPerSecond: 256)
    )

    /// NLC "Wi-Fi": 40 Mbit/s down, 33 Mbit/s up, 1 ms delay each way (2 ms round trip).
    public static let wifi = NetworkProfile(
        latency: .milliseconds(2),
        downloadBytesPerSecond: bytesPerSecond(megabitsPerSecond: 40),
        uploadBytesPerSecond: bytesPerSecond(megabitsPerSecond: 33)
    )

    /// Chrome DevTools "Slow 3G": 50,000 bytes per second (400 kbit/s) both ways, 2,000 ms latency.
    public static let slow3G = NetworkProfile(
        latency: .milliseconds(2000),
        downloadBytesPerSecond: 50_000,
        uploadBytesPerSecond: 50_000
    )

    /// Chrome DevTools "Fast 3G": 180,000 bytes per second (1.44 Mbit/s) down, 84,375 bytes per second
    /// (675 kbit/s) up, 562.5 ms latency.
    public static let fast3G = NetworkProfile(
        latency: .microseconds(562_500),
        downloadBytesPerSecond: 180_000,
        uploadBytesPerSecond: 84_375
    )

    /// No shaping: no delay, unlimited bandwidth, no failures.
    public static let unrestricted = NetworkProfile()

    /// No network: every request fails with `URLError(.notConnectedToInternet)` before leaving the device.
    public static let offline = NetworkProfile(condition: .offline)

    /// Host names do not resolve: every request fails with `URLError(.cannotFindHost)`.
    public static let dnsFailure = NetworkProfile(condition: .dnsFailure)

    /// Requests hang until their own timeout, then fail with `URLError(.timedOut)`.
    public static let timeout = NetworkProfile(condition: .timeout)

    /// The server is down: every request fails with `URLError(.cannotConnectToHost)`.
    public static let serverDown = NetworkProfile(condition: .serverDown)

    /// The presets by their configuration names: `3g`, `edge`, `lte`, `dsl`, `wifi`, `very-bad-network`,
    /// `100%-loss`, `slow-3g`, `fast-3g`, `none`, `offline`, `dns-failure`, `timeout`, `server-down`.
    public static let presets: [String: NetworkProfile] = [
        "3g": .threeG,
        "edge": .edge,
        "lte": .lte,
        "dsl": .dsl,
        "wifi": .wifi,
        "very-bad-network": .veryBadNetwork,
        "100%-loss": .totalLoss,
        "slow-3g": .slow3G,
        "fast-3g": .fast3G,
        "none": .unrestricted,
        "offline": .offline,
        "dns-failure": .dnsFailure,
        "timeout": .timeout,
        "server-down": .serverDown,
    ]

    /// The preset with a configuration name, ignoring case.
    ///
    /// - Parameter name: A key of ``presets``, for example `3g` or `Slow-3G`.
    /// - Returns: The profile, or `nil` for an unknown name.
    public static func preset(named name: String) -> NetworkProfile? {
        presets[name.lowercased()]
    }
}
