// swift-tools-version: 6.2
import PackageDescription

// A Hummingbird 2 server in which every request resolves its services from
// its own `Container`, while `.singleton` services are shared by all requests.
let package = Package(
    name: "FactoryServerExample",
    platforms: [.macOS(.v15)],
    products: [
        // The ServiceLifecycle adapter, for apps that want it without copying it.
        .library(name: "FactoryServiceLifecycle", targets: ["FactoryServiceLifecycle"])
    ],
    dependencies: [
        .package(name: "Factory", path: "../.."),
        // No traits: Hummingbird's two default traits (ConfigurationSupport, FullFoundation)
        // reach the compiler as two -D flags in an order SwiftPM redraws whenever it plans a
        // build, and a new order recompiles every Hummingbird module although nothing changed
        // (swiftlang/swift-package-manager#10525). This server uses neither trait.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "FactoryServiceLifecycle",
            dependencies: [
                .product(name: "FactoryScopes", package: "Factory"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "ServerApp",
            dependencies: [
                .product(name: "FactoryProfiling", package: "Factory"),
                .product(name: "FactoryScopes", package: "Factory"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                // IOError: the server's bind failure, told apart to name a port in use.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "FactoryServer",
            dependencies: ["ServerApp", "FactoryServiceLifecycle"]
        ),
        // The load generator (`loadtest.sh`, `ci.sh`): starts FactoryServer, puts it under
        // load and checks it. Plain POSIX sockets and Foundation's Process: it needs
        // nothing but the toolchain, and builds in seconds.
        .executableTarget(name: "FactoryLoad"),
        // What the library's part of one request costs, step by step, without HTTP
        // (`swift run -c release RequestCost`; README, "Under load").
        .executableTarget(
            name: "RequestCost",
            dependencies: ["ServerApp", .product(name: "FactoryScopes", package: "Factory")]
        ),
        .testTarget(
            name: "ServerAppTests",
            dependencies: [
                "ServerApp",
                // Built before the tests: ServerShutdownTests runs it as a child process.
                "FactoryServer",
                .product(name: "FactoryTesting", package: "Factory"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                // The tests' HTTP client (Tests/ServerAppTests/LiveServer.swift), on the NIO
                // modules the server already builds; HummingbirdTesting would add
                // AsyncHTTPClient, BoringSSL and HTTP/2 to the build.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
