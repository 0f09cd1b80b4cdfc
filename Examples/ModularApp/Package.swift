// swift-tools-version: 6.2
import PackageDescription

// A notes app split into modules, as the "Modular apps" article lays one out:
// NotesDomain declares the protocols and promises, NotesData implements them,
// NotesFeature has a container of its own and resolves the domain's factories,
// and the NotesApp executable registers the implementations in `autoRegister()`.
// Every module links the library's static FactoryKit: SwiftPM links them into one
// executable (and one test binary), so there is one copy of the library.
let package = Package(
    name: "ModularApp",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Factory", path: "../..")
    ],
    targets: [
        .target(name: "NotesDomain", dependencies: [.product(name: "FactoryKit", package: "Factory")]),
        .target(name: "NotesData", dependencies: ["NotesDomain"]),
        .target(name: "NotesFeature", dependencies: ["NotesDomain"]),
        .executableTarget(name: "NotesApp", dependencies: ["NotesData", "NotesFeature"]),
        .testTarget(
            name: "NotesAppTests",
            dependencies: ["NotesApp", .product(name: "FactoryTesting", package: "Factory")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
