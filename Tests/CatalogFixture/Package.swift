// swift-tools-version: 6.2
import PackageDescription

// A small app made to test the FactoryCatalog plugin and catalog validation
// (scripts/check-catalog.sh runs both): factories in several files, in `Container`
// and in a custom container, one of each finding (a cycle, a captive dependency, a
// `promised()` nothing registers, an async factory that throws), a parameter factory
// without a sample, and private factories the catalog skips.
let package = Package(
    name: "CatalogFixture",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Factory", path: "../..")
    ],
    targets: [
        .target(
            name: "FixtureApp",
            dependencies: [.product(name: "FactoryScopes", package: "Factory")]
        ),
        .testTarget(
            name: "FixtureAppTests",
            dependencies: ["FixtureApp", .product(name: "FactoryTesting", package: "Factory")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
