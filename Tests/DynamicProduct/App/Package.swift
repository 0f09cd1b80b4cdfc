// swift-tools-version: 6.2
import PackageDescription

// An executable in a package of its own that links the two feature libraries and
// compares what each sees. Built twice by scripts/check-dynamic-product.sh:
// `--traits StaticFactory` (each library links the static FactoryKit: the known
// failure, a copy of the library in each, which the library reports) and the
// default `DynamicFactory` (they link FactoryKitDynamic: one copy).
let package = Package(
    name: "CopiesApp",
    traits: [
        .trait(name: "StaticFactory", description: "The features link Factory's static FactoryKit"),
        .trait(name: "DynamicFactory", description: "The features link FactoryKitDynamic"),
        .default(enabledTraits: ["DynamicFactory"]),
    ],
    dependencies: [
        .package(
            path: "../Features",
            traits: [
                .trait(name: "StaticFactory", condition: .when(traits: ["StaticFactory"])),
                .trait(name: "DynamicFactory", condition: .when(traits: ["DynamicFactory"])),
            ])
    ],
    targets: [
        .executableTarget(
            name: "CopiesApp",
            dependencies: [
                .product(name: "FeatureA", package: "Features"),
                .product(name: "FeatureB", package: "Features"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
