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

func fuzzer(_ name: String, _ modules: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport"] + modules.map { .product(name: $0, package: netTap) },
        swiftSettings: fuzzTarget
    )
}

let package = Package(
    name: "NetTapFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: "..")],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "NetTapCore", package: netTap)],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        fuzzer("FuzzHAR", ["NetTapHAR", "NetTapCore"]),
        fuzzer("FuzzConfiguration", ["NetTapConfiguration", "NetTapCore"]),
        fuzzer("FuzzMatcher", ["NetTapCore"]),
        fuzzer("FuzzIntegrity", ["NetTapIntegrity", "NetTapCore"]),
        fuzzer("FuzzHeaders", ["NetTapCore", "NetTapHAR", "NetTapAudit", "NetTapFiles", "NetTapCache"]),
        fuzzer("FuzzInspector", ["NetTapInspector", "NetTapCore"]),
    ],
    swiftLanguageModes: [.v6]
)
