// swift-tools-version: 6.0
import PackageDescription

// A Hummingbird 2 server in which every request resolves its services from
// its own `Container`, while `.singleton` services are shared by all requests.
let package = Package(
    name: "FactoryServerExample",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Factory", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
    ],
    targets: [
        .target(
            name: "ServerApp",
            dependencies: [
                .product(name: "FactoryScopes", package: "Factory"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "FactoryServer",
            dependencies: ["ServerApp"]
        ),
        .testTarget(
            name: "ServerAppTests",
            dependencies: [
                "ServerApp",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
