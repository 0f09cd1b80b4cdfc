#!/usr/bin/env bash
# Measures what FactoryCore adds to a statically linked, stripped command-line
# tool: an empty program against one that declares and resolves a factory, built
# with the package's default traits and with none (--disable-default-traits
# turns off SwiftConcurrency). A third program, which only calls an `async`
# function, shows what the concurrency runtime alone adds.
#
# Each is built three ways: as `swift build -c release` builds it, fully static
# (`-static-executable`); the same with only the Swift runtime static
# (`--static-swift-stdlib`, libc shared: a common way to ship a Linux tool); and
# as a tool that wants to be small builds it (whole-program: full LTO, with
# FactoryCore's public symbols internalized at link time so that the linker drops
# what the tool never calls). Every program is run once, to show that it still works.
#
# `--check` fails when a build exceeds its budget: an ordinary release build 1.20x
# the empty program with the default traits and +0.35 MiB with none (issue 39), a
# whole-program build 1.15x and +0.20 MiB (issue 23). The same budget with only the
# Swift runtime static (issue 46) is missed today (1.24x, +500 KB: FactoryCore's own
# code, a long tail, and the standard library's pieces it uses), so `--check` (what CI
# runs) leaves those two builds out; without it they are built and reported, not
# checked. Benchmarks/README.md has the per-feature table.
# Linux only (-static-executable). Takes about three minutes; the figures go
# into README.md by hand.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
check=false
[[ "${1:-}" == "--check" ]] && check=true
work="$(mktemp -d -t factory-size.XXXXXX)"
trap 'rm -rf "$work"' EXIT

# The flags of the whole-program build. `-internalize-at-link` is what lets the
# linker drop unused public functions: without it the compiler keeps each of
# them (their sections are marked SHF_GNU_RETAIN), with or without LTO.
whole_program=(--experimental-lto-mode=full -Xswiftc -Xfrontend -Xswiftc -internalize-at-link)

write_package() {
    local dir="$1" traits="$2"
    mkdir -p "$dir/Sources/Empty" "$dir/Sources/CoreOnly" "$dir/Sources/AsyncOnly"
    cat > "$dir/Package.swift" <<MANIFEST
// swift-tools-version: 6.2
import PackageDescription
let package = Package(
    name: "probe",
    dependencies: [.package(name: "Factory", path: "$root"$traits)],
    targets: [
        .executableTarget(name: "Empty"),
        .executableTarget(name: "AsyncOnly"),
        .executableTarget(name: "CoreOnly", dependencies: [.product(name: "FactoryCore", package: "Factory")]),
    ]
)
MANIFEST
    echo 'print("hello", CommandLine.arguments.count)' > "$dir/Sources/Empty/main.swift"
    cat > "$dir/Sources/AsyncOnly/main.swift" <<'SOURCE'
func count() async -> Int { CommandLine.arguments.count }
print("hello", await count())
SOURCE
    cat > "$dir/Sources/CoreOnly/main.swift" <<'SOURCE'
import FactoryCore
extension Container {
    var greeting: Factory<String> { self { "hello" } }
}
print(Container.shared.greeting(), CommandLine.arguments.count)
SOURCE
}

# The size of `bin` stripped into `out`, after checking that `out` runs and prints "hello 1".
stripped_size() {
    local bin="$1" out="$2"
    strip -o "$out" "$bin"
    if [[ "$("$out")" != "hello 1" ]]; then
        echo "error: $bin does not print 'hello 1'" >&2
        exit 1
    fi
    stat -c %s "$out"
}

failed=0
# probe NAME TRAITS BUILD [FLAGS...]: builds and measures the three programs.
probe() {
    local name="$1" traits="$2" build="$3"
    shift 3
    local dir="$work/$name-$build"
    write_package "$dir" "$traits"
    local link=(-Xswiftc -static-executable)
    [[ "$build" == "static-stdlib" ]] && link=(--static-swift-stdlib)
    (cd "$dir" && swift build -c release "${link[@]}" "$@" > "$dir.log" 2>&1) || {
        cat "$dir.log"
        exit 1
    }
    local empty core async
    empty=$(stripped_size "$dir/.build/release/Empty" "$dir.empty")
    core=$(stripped_size "$dir/.build/release/CoreOnly" "$dir.core")
    async=$(stripped_size "$dir/.build/release/AsyncOnly" "$dir.async")
    printf '%-15s %-15s empty %9d bytes, with FactoryCore %9d bytes: +%d KB, %d.%03dx\n' \
        "$name" "$build" "$empty" "$core" $(((core - empty) / 1024)) $((core / empty)) $((core * 1000 / empty % 1000))
    printf '%-31s an async function alone      %9d bytes: +%d KB\n' "" "$async" $(((async - empty) / 1024))
    $check || return 0
    # Budgets, as a ratio in percent with the default traits and bytes with none.
    local ratio=120 bytes=367002 label="1.20x" mib="0.35"
    if [[ "$build" == "whole-program" ]]; then ratio=115 bytes=209715 label="1.15x" mib="0.20"; fi
    if [[ "$name" == "default-traits" ]] && ((core * 100 > empty * ratio)); then
        echo "error: FactoryCore takes the default-traits $build program over $label the empty one" >&2
        failed=1
    elif [[ "$name" == "no-traits" ]] && ((core - empty > bytes)); then
        echo "error: FactoryCore adds more than $mib MiB to the no-traits $build program" >&2
        failed=1
    fi
}

probe "default-traits" "" "release"
probe "no-traits" ", traits: []" "release"
if ! $check; then
    probe "default-traits" "" "static-stdlib"
    probe "no-traits" ", traits: []" "static-stdlib"
fi
probe "default-traits" "" "whole-program" "${whole_program[@]}"
probe "no-traits" ", traits: []" "whole-program" "${whole_program[@]}"
exit $failed
