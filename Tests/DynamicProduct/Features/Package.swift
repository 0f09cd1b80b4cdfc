// swift-tools-version: 6.2
import PackageDescription

// Two features, each a dynamic library, as an app split into frameworks has them;
// both resolve the shared clock. The app chooses which Factory product they link
// (and SharedClock with them) through the traits.
let factory: [Target.Dependency] = [
    .product(name: "SharedClock", package: "Shared"),
    .product(name: "FactoryKit", package: "Factory", condition: .when(traits: ["StaticFactory"])),
    .product(name: "FactoryProfiling", package: "Factory", condition: .when(traits: ["StaticFactory"])),
    .product(name: "FactoryKitDynamic", package: "Factory", condition: .when(traits: ["DynamicFactory"])),
]

let package = Package(
    name: "Features",
    products: [
        .library(name: "FeatureA", type: .dynamic, targets: ["FeatureA"]),
        .library(name: "FeatureB", type: .dynamic, targets: ["FeatureB"]),
    ],
    traits: [
        .trait(name: "StaticFactory", description: "Link Factory's static FactoryKit: a copy in each feature"),
        .trait(name: "DynamicFactory", description: "Link FactoryKitDynamic: the process's one copy"),
        .default(enabledTraits: ["DynamicFactory"]),
    ],
    dependencies: [
        .package(name: "Factory", path: "../../.."),
        .package(
            path: "../Shared",
            traits: [
                .trait(name: "StaticFactory", condition: .when(traits: ["StaticFactory"])),
                .trait(name: "DynamicFactory", condition: .when(traits: ["DynamicFactory"])),
            ]),
    ],
    targets: [
        .target(name: "FeatureA", dependencies: factory),
        .target(name: "FeatureB", dependencies: factory),
    ],
    swiftLanguageModes: [.v6]
)
