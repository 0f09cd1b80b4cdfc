// swift-tools-version: 6.2
import PackageDescription

// The module the two features share: a dynamic library of its own, so that its types
// exist once in the process (a static module linked into both features would be two
// modules at run time, with two `Clock` types and so two `clock` factories).
// Which Factory product it links is chosen by the app (scripts/check-dynamic-product.sh).
let package = Package(
    name: "Shared",
    products: [
        .library(name: "SharedClock", type: .dynamic, targets: ["SharedClock"])
    ],
    traits: [
        .trait(name: "StaticFactory", description: "Link Factory's static FactoryKit: a copy in this library"),
        .trait(name: "DynamicFactory", description: "Link FactoryKitDynamic: the process's one copy"),
        .default(enabledTraits: ["DynamicFactory"]),
    ],
    dependencies: [
        .package(name: "Factory", path: "../../..")
    ],
    targets: [
        .target(
            name: "SharedClock",
            dependencies: [
                .product(name: "FactoryKit", package: "Factory", condition: .when(traits: ["StaticFactory"])),
                .product(name: "FactoryKitDynamic", package: "Factory", condition: .when(traits: ["DynamicFactory"])),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
