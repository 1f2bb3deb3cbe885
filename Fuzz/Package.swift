// swift-tools-version: 6.0
// NetTap's libFuzzer targets: built and run by ../scripts/fuzz, never by the NetTap package itself.
//
// Each Fuzz* executable defines `LLVMFuzzerTestOneInput` and no `main` (`-parse-as-library`): libFuzzer's own
// `main` drives it, so the targets link only with `swift build --sanitize=fuzzer`.
import Foundation
import PackageDescription

// A path dependency's package identity is its folder's name, which depends on where NetTap is checked out.
let netTap = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

let fuzzTarget: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .unsafeFlags(["-parse-as-library"]),
]

// NetTap ships one library product, the umbrella `NetTap`; its modules (NetTapCore, NetTapHAR, …) come with it and
// the targets import the ones they exercise (some `@testable`, to reach internal parsers).
let netTapProduct: Target.Dependency = .product(name: "NetTap", package: netTap)

func fuzzer(_ name: String) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzSupport", netTapProduct], swiftSettings: fuzzTarget)
}

let package = Package(
    name: "NetTapFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: "..")],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [netTapProduct],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        fuzzer("FuzzHAR"),
        fuzzer("FuzzConfiguration"),
        fuzzer("FuzzMatcher"),
        fuzzer("FuzzIntegrity"),
        fuzzer("FuzzHeaders"),
        fuzzer("FuzzInspector"),
    ],
    swiftLanguageModes: [.v6]
)
