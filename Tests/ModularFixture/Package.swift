// swift-tools-version: 6.2
import PackageDescription

// An app split into modules, the way Factory's users lay one out, made to test the
// FactoryCatalog plugin's `--test-target` mode (scripts/check-catalog.sh runs it):
// ShopDomain declares protocols and `promised()` factories, ShopCheckout a container
// of its own, ShopData the implementations (and factories on ShopCheckout's
// container), ShopApp registers them in `autoRegister()`. ShopTests depends on
// ShopApp alone and reaches the rest through it. One promise is registered nowhere.
let package = Package(
    name: "ModularFixture",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Factory", path: "../..")
    ],
    targets: [
        .target(name: "ShopDomain", dependencies: [.product(name: "FactoryKit", package: "Factory")]),
        .target(name: "ShopCheckout", dependencies: ["ShopDomain"]),
        .target(name: "ShopData", dependencies: ["ShopDomain", "ShopCheckout"]),
        .executableTarget(name: "ShopApp", dependencies: ["ShopData"]),
        .testTarget(
            name: "ShopTests",
            dependencies: ["ShopApp", .product(name: "FactoryTesting", package: "Factory")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
