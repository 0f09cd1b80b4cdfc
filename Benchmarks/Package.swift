// swift-tools-version: 6.1
//
// Benchmarks for Factory against Swinject, swift-dependencies and a
// hand-written baseline. Its own package, so the library keeps zero
// dependencies. `./run.sh` runs everything and prints the table; CI only
// builds it (README.md).
import PackageDescription

// The scenario modules keep containers and the peers' non-Sendable resolvers
// in closures that the harness runs; Swift 5 mode keeps that code plain.
let swift5: [SwiftSetting] = [.swiftLanguageMode(.v5)]

// The malloc interposer that gives `mallocCountTotal` on Linux also adds a
// header and counters to every malloc/free, which makes allocation-heavy
// code look ~5 ns per allocation slower than it is (measured: 38.6 vs
// 33.4 ns for one `Svc()` in the harness). So run.sh measures
// twice: mallocs with the interposer (the default build, and what CI builds),
// wall time from a second build without it (FACTORY_BENCH_WALLCLOCK=1,
// separate scratch path).
let wallClockBuild = Context.environment["FACTORY_BENCH_WALLCLOCK"] == "1"
let benchmarkTraits: Set<Package.Dependency.Trait> = wallClockBuild ? [] : ["MallocInterposer"]

let benchmarkHarness: Target.Dependency = .product(name: "Benchmark", package: "benchmark")
let benchmarkPlugin: Target.PluginUsage = .plugin(name: "BenchmarkPlugin", package: "benchmark")

let package = Package(
    name: "FactoryBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "Factory", path: ".."),
        // MallocInterposer gives the mallocCountTotal metric on Linux without
        // jemalloc. Naming the traits also leaves out the Swift 6.3 ARC
        // runtime interposer, which these metrics do not use.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: benchmarkTraits),
        .package(url: "https://github.com/Swinject/Swinject.git", exact: "2.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
    ],
    targets: [
        // Service types, the scenario list type, threads and a sink. Their own
        // module, so no library (and not the baseline) gets them inlined away.
        .target(name: "BenchSupport"),
        .target(name: "BenchHarness", dependencies: ["BenchSupport", benchmarkHarness]),

        // Each library's scenarios: `[Scenario]`, shared by the harness suites
        // and the instruction probe so both measure the same code.
        .target(name: "ScenariosBaseline", dependencies: ["BenchSupport"], swiftSettings: swift5),
        .target(
            name: "ScenariosFactory",
            dependencies: [
                "BenchSupport", .product(name: "FactoryWrappers", package: "Factory"),
                .product(name: "FactoryProfiling", package: "Factory"),
            ],
            swiftSettings: swift5
        ),
        .target(
            name: "ScenariosSwinject",
            dependencies: ["BenchSupport", .product(name: "Swinject", package: "Swinject")],
            swiftSettings: swift5
        ),
        .target(
            name: "ScenariosDependencies",
            dependencies: ["BenchSupport", .product(name: "Dependencies", package: "swift-dependencies")],
            swiftSettings: swift5
        ),

        // package-benchmark suites, one executable (one process) per library.
        // The harness wants them under Benchmarks/.
        .executableTarget(
            name: "FactoryBench",
            dependencies: ["BenchHarness", "ScenariosFactory", benchmarkHarness],
            path: "Benchmarks/FactoryBench",
            plugins: [benchmarkPlugin]
        ),
        .executableTarget(
            name: "SwinjectBench",
            dependencies: ["BenchHarness", "ScenariosSwinject", benchmarkHarness],
            path: "Benchmarks/SwinjectBench",
            plugins: [benchmarkPlugin]
        ),
        .executableTarget(
            name: "DependenciesBench",
            dependencies: ["BenchHarness", "ScenariosDependencies", benchmarkHarness],
            path: "Benchmarks/DependenciesBench",
            plugins: [benchmarkPlugin]
        ),
        .executableTarget(
            name: "BaselineBench",
            dependencies: ["BenchHarness", "ScenariosBaseline", benchmarkHarness],
            path: "Benchmarks/BaselineBench",
            plugins: [benchmarkPlugin]
        ),

        // Instructions per operation under valgrind (this VM has no hardware
        // counters for the harness's `instructions` metric).
        .executableTarget(
            name: "InstructionProbe",
            dependencies: ["ScenariosBaseline", "ScenariosFactory", "ScenariosSwinject", "ScenariosDependencies"]
        ),

        // Scenario 10, "app launch": a small program per library that resolves
        // 1,000 distinct types once each in a fresh process. Each
        // Generated.swift is written by Scripts/generate-launch.swift.
        .target(name: "LaunchServices"),
        .executableTarget(name: "LaunchBaseline", dependencies: ["BenchSupport", "LaunchServices"]),
        .executableTarget(
            name: "LaunchFactory",
            dependencies: ["BenchSupport", "LaunchServices", .product(name: "FactoryScopes", package: "Factory")]
        ),
        .executableTarget(
            name: "LaunchSwinject",
            dependencies: ["BenchSupport", "LaunchServices", .product(name: "Swinject", package: "Swinject")]
        ),
        .executableTarget(
            name: "LaunchDependencies",
            dependencies: ["BenchSupport", "LaunchServices", .product(name: "Dependencies", package: "swift-dependencies")]
        ),

        // Runs the launch programs and the probe, reads the harness's export
        // and prints the table.
        .executableTarget(name: "BenchReport"),
    ],
    swiftLanguageModes: [.v6]
)
