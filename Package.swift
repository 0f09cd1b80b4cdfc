// swift-tools-version: 6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "Factory",
    platforms: [.iOS(.v13), .macOS(.v10_15), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .library(name: "FactoryCore", targets: ["FactoryCore"]),
        .library(name: "FactoryScopes", targets: ["FactoryScopes"]),
        .library(name: "FactoryWrappers", targets: ["FactoryWrappers"]),
        .library(name: "FactoryTesting", targets: ["FactoryTesting"]),
        // Beside the layers: `FactoryProfile`, for the apps that record their start-up. The engine's hooks stay in
        // FactoryCore; an app that never imports this module carries none of the profile's own code.
        .library(name: "FactoryProfiling", targets: ["FactoryProfiling"]),
        // Factory 3's module name, for apps that migrate without touching their imports.
        .library(name: "FactoryKit", targets: ["FactoryKit"]),
        // The whole runtime stack as one shared library, for an app whose modules are dynamic
        // libraries (frameworks): every module that links it shares one copy, so one
        // `Container.shared`, one set of singletons and registrations. FactoryProfiling is in it too: linked
        // statically beside it, it would bring a second FactoryCore, whose recorder sees none of the app's builds.
        .library(name: "FactoryKitDynamic", type: .dynamic, targets: ["FactoryKit", "FactoryProfiling"]),
        .executable(name: "FactoryDemo", targets: ["FactoryDemo"]),
        .executable(name: "CoreDemo", targets: ["CoreDemo"]),
        // `swift package factory-catalog`: the catalog of every factory of a target, for FactoryCatalog.
        .plugin(name: "FactoryCatalog", targets: ["FactoryCatalogPlugin"]),
    ],
    traits: [
        .trait(
            name: "SwiftConcurrency",
            description: "Container.shared is task-local, async container transforms, resolveOnMainActor and "
                + "resolveOnGlobalActor, and the main-actor check of factory closures. FactoryTesting needs it. "
                + "FactoryProfiling's FactoryProfile (recording every factory build of a span of code) needs it. "
                + "Off, FactoryCore needs no Swift Concurrency runtime (smaller static binaries): "
                + "Container.shared is a lock-guarded static, a second copy of the library in the process "
                + "(a dynamic library that linked it again) is not looked for, and FactoryProfiling is empty."
        ),
        // One default trait: SwiftPM passes a build's traits to the compiler in an order that changes from one planning
        // to the next (swiftlang/swift-package-manager#10525), so with two every other re-planning rebuilt the library
        // and everything above it, here and in every package that depends on it (scripts/check-traits.py).
        .default(enabledTraits: ["SwiftConcurrency"]),
    ],
    targets: [
        // C11 atomics for the few flags the resolution path reads without a lock.
        .target(
            name: "CFactoryAtomics",
            // The main-actor check reads libdispatch's main-queue marker on Linux.
            linkerSettings: [.linkedLibrary("dispatch", .when(platforms: [.linux], traits: ["SwiftConcurrency"]))]
        ),
        .target(name: "FactoryCore", dependencies: ["CFactoryAtomics"]),
        .target(name: "FactoryScopes", dependencies: ["FactoryCore"]),
        .target(name: "FactoryWrappers", dependencies: ["FactoryScopes"]),
        .target(name: "FactoryTesting", dependencies: ["FactoryWrappers"]),
        .target(name: "FactoryProfiling", dependencies: ["FactoryCore", "CFactoryAtomics"]),
        .target(name: "FactoryKit", dependencies: ["FactoryWrappers"]),
        .plugin(
            name: "FactoryCatalogPlugin",
            capability: .command(
                intent: .custom(
                    verb: "factory-catalog",
                    description: "Writes the catalog of every factory of a target's containers into its test target, "
                        + "from the compiler's symbol graph; with --check, fails when the catalog is stale"
                ),
                permissions: [.writeToPackageDirectory(reason: "Writes the catalog file into the target's test target")]
            ),
            path: "Plugins/FactoryCatalogPlugin"
        ),

        .executableTarget(name: "CoreDemo", dependencies: ["FactoryCore"], path: "Examples/CoreDemo"),
        .executableTarget(
            name: "FactoryDemo", dependencies: ["FactoryWrappers", "FactoryProfiling"], path: "Examples/FactoryDemo"
        ),
        .executableTarget(name: "FactoryStress", dependencies: ["FactoryWrappers"], path: "Examples/Stress"),

        .target(name: "FactoryTestSupport", dependencies: ["FactoryWrappers"], path: "Tests/FactoryTestSupport"),
        .testTarget(name: "FactoryCoreTests", dependencies: ["FactoryCore", "FactoryTestSupport"]),
        .testTarget(name: "FactoryScopesTests", dependencies: ["FactoryScopes", "FactoryTestSupport"]),
        .testTarget(name: "FactoryWrappersTests", dependencies: ["FactoryWrappers", "FactoryTestSupport"]),
        .testTarget(name: "FactoryTestingTests", dependencies: ["FactoryTesting", "FactoryTestSupport"]),
        .testTarget(name: "FactoryProfilingTests", dependencies: ["FactoryProfiling", "FactoryTestSupport"]),
        .testTarget(name: "FactoryCompatibilityTests", dependencies: ["FactoryKit", "FactoryTesting", "FactoryTestSupport"]),
        // The catalog plugin's source scanner: its sources (symbolic links into Plugins/FactoryCatalogPlugin, since a
        // plugin's code cannot be imported), a corpus of tricky Swift, and the scan of this package's own code
        // checked against the compiler's symbol graph.
        .testTarget(name: "FactoryCatalogPluginTests", dependencies: ["FactoryKit", "FactoryProfiling"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system && target.type != .plugin && target.name != "CFactoryAtomics" {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}

// Swift Testing runs exit tests (`#expect(processExitsWith:)`) where a test can start
// a process of its own; on iOS, tvOS, watchOS and visionOS they do not compile, so
// each is inside `#if EXIT_TESTS`.
for target in package.targets where target.type == .test {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .define("EXIT_TESTS", .when(platforms: [.macOS, .linux, .windows]))
        ]
}
