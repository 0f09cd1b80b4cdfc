// swift-tools-version: 6.2
//
// Stand-ins for the parts of SwiftUI and Combine that FactoryWrappers' Apple-only
// code and a small app use, declared with Apple's public signatures, and a
// miniature SwiftUI app with tests. This package is test tooling: the library
// does not depend on it. `scripts/check-swiftui.sh` builds the stand-ins first,
// so that `canImport(SwiftUI)` is true when the library compiles in the same
// build, then builds and runs the app's tests (README.md says what this proves).
import PackageDescription

let package = Package(
    name: "SwiftUIStandIns",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Factory", path: "../..")
    ],
    targets: [
        // Swift 5 mode, as Apple's frameworks are built: a SwiftUI binding calls its
        // `@isolated(any)` closures synchronously, which Swift 6 mode rejects; what
        // clients see (the declarations, with their isolation) is the same.
        .target(name: "Combine", swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "SwiftUI", dependencies: ["Combine"], swiftSettings: [.swiftLanguageMode(.v5)]),
        // Apple's `os` signposts, which FactoryCore's profile recorder (FactoryProfiling's FactoryProfile) records builds to.
        .target(name: "os"),
        .target(
            name: "MiniApp",
            dependencies: ["SwiftUI", .product(name: "FactoryWrappers", package: "Factory")]
        ),
        .testTarget(
            name: "MiniAppTests",
            dependencies: ["MiniApp", "SwiftUI", "os", .product(name: "FactoryProfiling", package: "Factory")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
