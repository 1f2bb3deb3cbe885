// swift-tools-version: 6.0
// NetTap: see, record, mock and shape every URLSession request from inside the app.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "NetTap",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "NetTap", targets: ["NetTap"]),
        .library(name: "NetTapTesting", targets: ["NetTapTesting"]),
        .executable(name: "nettap", targets: ["nettap"]),
        .executable(name: "nettap-bench", targets: ["nettap-bench"]),
    ],
    targets: [
        .systemLibrary(
            name: "CNetTapCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev", "libssl-dev"])]
        ),
        .target(
            name: "NetTapCore",
            dependencies: [.target(name: "CNetTapCurl", condition: .when(platforms: [.linux]))],
            swiftSettings: strict
        ),
        .target(name: "NetTapHAR", dependencies: ["NetTapCore"], swiftSettings: strict),
        .target(name: "NetTapMocking", dependencies: ["NetTapCore", "NetTapHAR"], swiftSettings: strict),
        .target(name: "NetTapReplay", dependencies: ["NetTapCore", "NetTapHAR"], swiftSettings: strict),
        .target(name: "NetTapShaping", dependencies: ["NetTapCore"], swiftSettings: strict),
        .target(name: "NetTapRewrite", dependencies: ["NetTapCore"], swiftSettings: strict),
        .target(name: "NetTapReport", dependencies: ["NetTapCore", "NetTapHAR"], swiftSettings: strict),
        .target(name: "NetTapAudit", dependencies: ["NetTapCore"], swiftSettings: strict),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(
            name: "NetTapStore",
            dependencies: [
                "NetTapCore", "NetTapHAR", "NetTapCrypto",
                .target(name: "CSQLite", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: strict
        ),
        .target(name: "NetTapCache", dependencies: ["NetTapCore"], swiftSettings: strict),
        .target(name: "NetTapFiles", dependencies: ["NetTapCore"], swiftSettings: strict),
        .systemLibrary(name: "CNetTapCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(
            name: "NetTapCrypto",
            dependencies: [.target(name: "CNetTapCrypto", condition: .when(platforms: [.linux]))],
            swiftSettings: strict
        ),
        .target(name: "NetTapIntegrity", dependencies: ["NetTapCore", "NetTapCrypto"], swiftSettings: strict),
        .target(
            name: "NetTapInspector",
            dependencies: ["NetTapCore", "NetTapCrypto", "NetTapHAR", "NetTapMocking", "NetTapShaping"],
            swiftSettings: strict
        ),
        .target(
            name: "NetTapConfiguration",
            dependencies: [
                "NetTapCore", "NetTapMocking", "NetTapReplay", "NetTapShaping", "NetTapCache", "NetTapFiles",
                "NetTapIntegrity", "NetTapAudit", "NetTapStore", "NetTapInspector", "NetTapRewrite",
            ],
            swiftSettings: strict
        ),
        .target(
            name: "NetTap",
            dependencies: [
                "NetTapCore", "NetTapHAR", "NetTapMocking", "NetTapReplay", "NetTapShaping", "NetTapCache",
                "NetTapFiles", "NetTapIntegrity", "NetTapAudit", "NetTapStore", "NetTapReport",
                "NetTapConfiguration", "NetTapInspector", "NetTapRewrite",
            ],
            swiftSettings: strict
        ),
        .target(
            name: "NetTapTesting",
            dependencies: ["NetTapCore", "NetTapMocking", "NetTapReplay"],
            swiftSettings: strict
        ),
        .target(
            name: "NetTapCLI",
            dependencies: [
                "NetTapCore", "NetTapHAR", "NetTapMocking", "NetTapReplay", "NetTapShaping", "NetTapFiles",
                "NetTapIntegrity", "NetTapAudit", "NetTapStore", "NetTapReport", "NetTapConfiguration",
                "NetTapInspector", "NetTapRewrite",
            ],
            resources: [
                .copy("Resources/demo.har"), .copy("Resources/demo-mocks.json"), .copy("Resources/web"),
                .copy("Resources/web-fallback"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "nettap", dependencies: ["NetTapCLI"], swiftSettings: strict),
        .executableTarget(
            name: "nettap-bench",
            dependencies: [
                "NetTapCore", "NetTapMocking", "NetTapReplay", "NetTapShaping", "NetTapStore", "NetTapReport",
                "NetTapCrypto", "NetTapInspector",
                .target(name: "CNetTapCurl", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "StoreWriterFixture",
            dependencies: ["NetTapStore", "NetTapCore"],
            path: "Tests/StoreWriterFixture",
            swiftSettings: strict
        ),

        .target(
            name: "NetTapTestSupport",
            dependencies: ["NetTapCore"],
            path: "Tests/NetTapTestSupport",
            exclude: ["FaultServer.py"],
            swiftSettings: strict
        ),
        // Declares the names apps import from Alamofire, swift-http-types, SwiftUI and swift-clocks.
        .target(name: "EcosystemStandIn", path: "Tests/EcosystemStandIn", swiftSettings: strict),
        .testTarget(
            name: "NameCoexistenceTests",
            dependencies: ["NetTap", "NetTapTesting", "EcosystemStandIn"],
            swiftSettings: strict
        ),
        .testTarget(name: "NetTapCoreTests", dependencies: ["NetTapCore", "NetTapTesting"]),
        .testTarget(name: "NetTapTests", dependencies: ["NetTap", "NetTapTesting", "NetTapTestSupport"]),
        .testTarget(
            name: "NetTapTestingTests",
            dependencies: ["NetTapTesting", "NetTapCore", "NetTapMocking", "NetTapReplay", "NetTapHAR"]
        ),
        .testTarget(
            name: "NetTapHARTests",
            dependencies: ["NetTapHAR", "NetTapCore", "NetTapTestSupport", "NetTapTesting"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "NetTapMockingTests",
            dependencies: ["NetTapMocking", "NetTapCore", "NetTapHAR", "NetTapTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NetTapRewriteTests",
            dependencies: ["NetTapRewrite", "NetTapCore", "NetTapTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NetTapShapingTests",
            dependencies: ["NetTapShaping", "NetTapCore", "NetTapTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NetTapAuditTests",
            dependencies: ["NetTapAudit", "NetTapCore", "NetTapTesting", "NetTapTestSupport"],
            resources: [.copy("Fixtures")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NetTapCacheTests",
            dependencies: ["NetTapCache", "NetTapCore", "NetTapTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NetTapFilesTests",
            dependencies: ["NetTapFiles", "NetTapCore", "NetTapTesting", "NetTapTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NetTapStoreTests",
            dependencies: [
                "NetTapStore", "NetTapCore", "NetTapHAR", "NetTapTesting", "NetTapTestSupport", "StoreWriterFixture",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NetTapReportTests",
            dependencies: ["NetTapReport", "NetTapCore", "NetTapHAR", "NetTapTestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NetTapConfigurationTests",
            dependencies: [
                "NetTapConfiguration", "NetTapCore", "NetTapMocking", "NetTapReplay", "NetTapShaping", "NetTapCache",
                "NetTapFiles", "NetTapIntegrity", "NetTapAudit", "NetTapStore", "NetTapTesting", "NetTapTestSupport",
                "NetTapInspector", "NetTapRewrite",
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "NetTapCryptoTests", dependencies: ["NetTapCrypto"], swiftSettings: strict),
        .testTarget(
            name: "NetTapInspectorTests",
            dependencies: [
                "NetTapInspector", "NetTapCore", "NetTapShaping", "NetTapHAR", "NetTapCLI", "NetTapTestSupport",
                "NetTapTesting",
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NetTapIntegrityTests",
            dependencies: ["NetTapIntegrity", "NetTapCore", "NetTapTesting", "NetTapTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NetTapReplayTests",
            dependencies: ["NetTapReplay", "NetTapHAR", "NetTapCore", "NetTapTesting", "NetTapTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NetTapCLITests",
            dependencies: [
                "NetTapCLI", "NetTapHAR", "NetTapMocking", "NetTapReplay", "NetTapCore", "NetTapTesting",
                "NetTapTestSupport", "NetTapStore", "NetTapReport", "NetTapRewrite",
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "NetTapIntegrationTests",
            dependencies: [
                "NetTapCore", "NetTapHAR", "NetTapMocking", "NetTapReplay", "NetTapShaping", "NetTapCache",
                "NetTapFiles", "NetTapIntegrity", "NetTapAudit", "NetTapTestSupport", "NetTapTesting", "NetTapCrypto",
                "NetTapRewrite",
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
