// swift-tools-version: 6.1
//
// Benchmarks for Factory, measured against Swinject, swift-dependencies and a
// hand-written baseline. This is its own package so the library package keeps
// zero dependencies. Run everything with `./run.sh`; CI only builds it
// (see README.md).
import PackageDescription

// The suites keep containers and peers' non-Sendable resolvers in globals that
// the harness's @Sendable closures capture; Swift 5 mode keeps that readable.
// The library and BenchSupport are compiled in Swift 6 mode.
let benchSettings: [SwiftSetting] = [.swiftLanguageMode(.v5)]

let package = Package(
    name: "FactoryBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "Factory", path: ".."),
        // MallocInterposer gives the mallocCountTotal metric on Linux without
        // jemalloc; naming the trait list also leaves out the 6.3-only ARC
        // runtime interposer, which is not needed for these metrics.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/Swinject/Swinject.git", exact: "2.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
    ],
    targets: [
        // Service types shared by every benchmark, in their own module so that
        // no library (and not the baseline) gets them inlined away.
        .target(
            name: "BenchSupport",
            dependencies: [.product(name: "Benchmark", package: "benchmark")],
            path: "Sources/BenchSupport"
        ),

        // package-benchmark suites: one executable per library, each runs in
        // its own process. The harness requires them under Benchmarks/.
        .executableTarget(
            name: "FactoryBench",
            dependencies: [
                "BenchSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "FactoryWrappers", package: "Factory"),
            ],
            path: "Benchmarks/FactoryBench",
            swiftSettings: benchSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "SwinjectBench",
            dependencies: [
                "BenchSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Swinject", package: "Swinject"),
            ],
            path: "Benchmarks/SwinjectBench",
            swiftSettings: benchSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "DependenciesBench",
            dependencies: [
                "BenchSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ],
            path: "Benchmarks/DependenciesBench",
            swiftSettings: benchSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "BaselineBench",
            dependencies: [
                "BenchSupport",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/BaselineBench",
            swiftSettings: benchSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),

        // Scenario 10 ("app launch"): one small program per library that
        // resolves 1,000 distinct types once each, in a fresh process.
        // Sources/Launch*/Generated.swift is written by Scripts/generate-launch.swift.
        .executableTarget(name: "LaunchBaseline", path: "Sources/LaunchBaseline"),
        .executableTarget(
            name: "LaunchFactory",
            dependencies: [.product(name: "FactoryCore", package: "Factory")],
            path: "Sources/LaunchFactory"
        ),
        .executableTarget(
            name: "LaunchSwinject",
            dependencies: [.product(name: "Swinject", package: "Swinject")],
            path: "Sources/LaunchSwinject"
        ),
        .executableTarget(
            name: "LaunchDependencies",
            dependencies: [.product(name: "Dependencies", package: "swift-dependencies")],
            path: "Sources/LaunchDependencies"
        ),

        // Runs the launch programs, reads the harness's export and prints the table.
        .executableTarget(name: "BenchReport", path: "Sources/BenchReport"),
    ],
    swiftLanguageModes: [.v6]
)
