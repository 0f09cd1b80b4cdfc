// swift-tools-version: 6.0
import PackageDescription

// A command-line tool that links FactoryCore alone: no scopes, no property
// wrappers, just containers, factories and overrides.
let package = Package(
    name: "TextStatsTool",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "textstats", targets: ["textstats"])
    ],
    dependencies: [
        .package(name: "Factory", path: "../.."),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        .target(
            name: "TextStatsKit",
            dependencies: [
                .product(name: "FactoryCore", package: "Factory"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "textstats",
            dependencies: ["TextStatsKit"]
        ),
        .testTarget(
            name: "TextStatsKitTests",
            dependencies: ["TextStatsKit"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
