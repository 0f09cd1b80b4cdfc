#!/usr/bin/env bash
# Measures what FactoryCore adds to a statically linked, stripped command-line
# tool: an empty program against one that declares and resolves a factory, built
# with the package's default traits and with none (--disable-default-traits
# turns off SwiftConcurrency). A third program, which only calls an `async`
# function, shows what the concurrency runtime alone adds. Linux only
# (-static-executable). Takes a few minutes; the figures go into README.md by hand.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d -t factory-size.XXXXXX)"
trap 'rm -rf "$work"' EXIT

probe() {
    local name="$1" traits="$2"
    mkdir -p "$work/$name/Sources/Empty" "$work/$name/Sources/CoreOnly" "$work/$name/Sources/AsyncOnly"
    cat > "$work/$name/Package.swift" <<MANIFEST
// swift-tools-version: 6.2
import PackageDescription
let package = Package(
    name: "$name",
    dependencies: [.package(name: "Factory", path: "$root"$traits)],
    targets: [
        .executableTarget(name: "Empty"),
        .executableTarget(name: "AsyncOnly"),
        .executableTarget(name: "CoreOnly", dependencies: [.product(name: "FactoryCore", package: "Factory")]),
    ]
)
MANIFEST
    echo 'print("hello", CommandLine.arguments.count)' > "$work/$name/Sources/Empty/main.swift"
    cat > "$work/$name/Sources/AsyncOnly/main.swift" <<'SOURCE'
func count() async -> Int { CommandLine.arguments.count }
print("hello", await count())
SOURCE
    cat > "$work/$name/Sources/CoreOnly/main.swift" <<'SOURCE'
import FactoryCore
extension Container {
    var greeting: Factory<String> { self { "hello" } }
}
print(Container.shared.greeting(), CommandLine.arguments.count)
SOURCE
    (cd "$work/$name" && swift build -c release -Xswiftc -static-executable > "$work/$name.log" 2>&1) || {
        cat "$work/$name.log"
        exit 1
    }
    local bin="$work/$name/.build/release"
    strip -o "$work/$name.empty" "$bin/Empty"
    strip -o "$work/$name.core" "$bin/CoreOnly"
    strip -o "$work/$name.async" "$bin/AsyncOnly"
    local empty core async
    empty=$(stat -c %s "$work/$name.empty")
    core=$(stat -c %s "$work/$name.core")
    async=$(stat -c %s "$work/$name.async")
    printf '%-28s empty %9d bytes, with FactoryCore %9d bytes: +%d KB\n' \
        "$name" "$empty" "$core" $(((core - empty) / 1024))
    printf '%-28s an async function alone     %9d bytes: +%d KB\n' "" "$async" $(((async - empty) / 1024))
}

probe "default-traits" ""
probe "no-traits" ", traits: []"
