// swift-tools-version: 6.2
import PackageDescription

// An app whose modules isolate their declarations to the main actor by default
// (`defaultIsolation(MainActor.self)`, Swift 6.2) declares and resolves
// factories, injects with `@Injected` and tests with FactoryTesting. The
// library and the test target share the setting, as an app's targets would.
let appSettings: [SwiftSetting] = [
    .defaultIsolation(MainActor.self)
]

let package = Package(
    name: "DefaultIsolationExample",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Factory", path: "../..")
    ],
    targets: [
        .target(
            name: "AppModels",
            dependencies: [.product(name: "FactoryWrappers", package: "Factory")],
            swiftSettings: appSettings
        ),
        .executableTarget(
            name: "DefaultIsolationDemo",
            dependencies: ["AppModels"],
            swiftSettings: appSettings
        ),
        .testTarget(
            name: "AppModelsTests",
            dependencies: [
                "AppModels",
                .product(name: "FactoryTesting", package: "Factory"),
            ],
            swiftSettings: appSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
