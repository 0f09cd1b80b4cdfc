#!/usr/bin/env bash
# The "app scale" scenario: what the library costs an app, as users feel it.
#
# Generates an app-sized package (not committed) with N service classes in a
# `Services` module and two executables that wire them: `FactoryApp` declares one
# cached factory per service in `extension Container`, each resolving its
# predecessor inside its closure, and resolves each once at top level;
# `HandApp` is the same app written by hand with `static let`s. Both are built in
# release, stripped, at two sizes; then each app module is rebuilt (its source
# touched) in release and in debug, and timed.
#
#     AppScale/app-scale.sh                  # N = 150 and 300; prints the table
#     AppScale/app-scale.sh --sizes 200 400  # other sizes
#     AppScale/app-scale.sh --markdown       # the table for Benchmarks/README.md
#     AppScale/app-scale.sh --check          # also fails when a target is missed
#     AppScale/app-scale.sh --library DIR    # measure the library checked out at DIR
#     AppScale/app-scale.sh --sizes-only     # bytes only, no rebuild timings
#
# Bytes per factory = the slope, between the two sizes, of (FactoryApp - HandApp);
# the library's fixed bytes = that difference's intercept at N = 0. Rebuild
# times are of the larger size, each the median of five runs taken in turn with
# the hand-written app's, as a ratio to the hand-written app's. Targets (issue 46): <= 0.2 KB per factory,
# <= 0.45 MB fixed, release rebuild <= 2.2x the hand-written app's. Then the library's bytes in the
# smaller app by feature (feature-sizes.py), for deciding what every app should carry.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
library="${APP_SCALE_LIBRARY:-$(cd "$here/../.." && pwd)}"
small=150
large=300
markdown=false
check=false
sizes_only=false
while [[ $# -gt 0 ]]; do
    case "$1" in
        --sizes) small="$2"; large="$3"; shift 3 ;;
        --markdown) markdown=true; shift ;;
        --check) check=true; shift ;;
        --sizes-only) sizes_only=true; shift ;;
        --library) library="$(cd "$2" && pwd)"; shift 2 ;;
        *) echo "unknown option: $1" >&2; exit 2 ;;
    esac
done
work="${APP_SCALE_WORK:-$here/../.build/app-scale}"
mkdir -p "$work"

# generate <dir> <N>: the package.
generate() {
    local dir="$1" n="$2" i name previous
    rm -rf "$dir/Sources"
    mkdir -p "$dir/Sources/Services" "$dir/Sources/FactoryApp" "$dir/Sources/HandApp"
    cat > "$dir/Package.swift" <<MANIFEST
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "AppScale",
    dependencies: [.package(name: "Factory", path: "$library")],
    targets: [
        .target(name: "Services"),
        .executableTarget(
            name: "FactoryApp",
            dependencies: ["Services", .product(name: "FactoryScopes", package: "Factory")]),
        .executableTarget(name: "HandApp", dependencies: ["Services"]),
    ],
    swiftLanguageModes: [.v6]
)
MANIFEST
    {
        for ((i = 0; i < n; i++)); do
            printf 'public final class S%04d: Sendable {\n    public let dep: (any AnyObject & Sendable)?\n' "$i"
            printf '    public init(dep: (any AnyObject & Sendable)?) { self.dep = dep }\n}\n'
        done
    } > "$dir/Sources/Services/Services.swift"
    {
        echo "import FactoryScopes"
        echo "import Services"
        echo
        echo "extension Container {"
        for ((i = 0; i < n; i++)); do
            name=$(printf 's%04d' "$i")
            if ((i == 0)); then previous="nil"; else previous=$(printf 'self.s%04d()' $((i - 1))); fi
            printf '    var %s: Factory<S%04d> { self { S%04d(dep: %s) }.cached }\n' "$name" "$i" "$i" "$previous"
        done
        echo "}"
        echo
        echo "var count = 0"
        echo "let container = Container.shared"
        for ((i = 0; i < n; i++)); do
            printf 'if container.s%04d().dep != nil { count += 1 }\n' "$i"
        done
        echo 'print(count)'
    } > "$dir/Sources/FactoryApp/main.swift"
    {
        echo "import Services"
        echo
        echo "enum Hand {"
        for ((i = 0; i < n; i++)); do
            if ((i == 0)); then previous="nil"; else previous=$(printf 'Hand.s%04d' $((i - 1))); fi
            printf '    static let s%04d = S%04d(dep: %s)\n' "$i" "$i" "$previous"
        done
        echo "}"
        echo
        echo "var count = 0"
        for ((i = 0; i < n; i++)); do
            printf 'if Hand.s%04d.dep != nil { count += 1 }\n' "$i"
        done
        echo 'print(count)'
    } > "$dir/Sources/HandApp/main.swift"
}

# stripped <dir> <product>: the stripped release executable's size in bytes.
stripped() {
    local bin
    bin="$(swift build --package-path "$1" -c release --show-bin-path)"
    strip -o "$1/$2.stripped" "$bin/$2"
    stat -c %s "$1/$2.stripped"
}

# rebuild <dir> <configuration>: seconds to rebuild each app module after
# touching its source, the median of five, as "factory hand". The two are
# rebuilt in turn (FactoryApp, HandApp, FactoryApp, ...) so that a change in the
# machine's load during the run weighs on both alike.
rebuild() {
    local factory=() hand=() product t0 t1 k
    for k in 1 2 3 4 5; do
        for product in FactoryApp HandApp; do
            touch "$1/Sources/$product/main.swift"
            t0=$(date +%s.%N)
            swift build --package-path "$1" -c "$2" --product "$product" > /dev/null
            t1=$(date +%s.%N)
            if [[ $product == FactoryApp ]]; then factory+=("$(echo "$t1 - $t0" | bc)"); else hand+=("$(echo "$t1 - $t0" | bc)"); fi
        done
    done
    echo "$(printf '%s\n' "${factory[@]}" | sort -n | sed -n 3p) $(printf '%s\n' "${hand[@]}" | sort -n | sed -n 3p)"
}

declare -A size
for n in "$small" "$large"; do
    dir="$work/n$n"
    mkdir -p "$dir"
    generate "$dir" "$n"
    echo "== N=$n: release build" >&2
    swift build --package-path "$dir" -c release --product FactoryApp 2>&1 | tail -1 >&2
    swift build --package-path "$dir" -c release --product HandApp 2>&1 | tail -1 >&2
    # Each resolves every factory (or reads every static) once, and says so.
    [[ "$("$(swift build --package-path "$dir" -c release --show-bin-path)/FactoryApp")" == "$((n - 1))" ]]
    size[factory$n]=$(stripped "$dir" FactoryApp)
    size[hand$n]=$(stripped "$dir" HandApp)
done
dir="$work/n$large"
# feature_table: the library's bytes in the smaller app, by feature.
feature_table() {
    echo
    "$here/feature-sizes.py" "$(swift build --package-path "$work/n$small" -c release --show-bin-path)/FactoryApp"
}
if $sizes_only; then
    per=$(( ( (size[factory$large] - size[hand$large]) - (size[factory$small] - size[hand$small]) ) / (large - small) ))
    fixed=$(( (size[factory$large] - size[hand$large]) - per * large ))
    echo "bytes per factory: $per; fixed bytes: $fixed; FactoryApp ${size[factory$small]} / ${size[factory$large]}, HandApp ${size[hand$small]} / ${size[hand$large]}"
    feature_table
    exit 0
fi
echo "== N=$large: rebuild times" >&2
read -r release_factory release_hand <<< "$(rebuild "$dir" release)"
swift build --package-path "$dir" -c debug --product FactoryApp > /dev/null
swift build --package-path "$dir" -c debug --product HandApp > /dev/null
read -r debug_factory debug_hand <<< "$(rebuild "$dir" debug)"

diff_small=$((size[factory$small] - size[hand$small]))
diff_large=$((size[factory$large] - size[hand$large]))
per_factory=$(echo "scale=1; ($diff_large - $diff_small) / ($large - $small)" | bc)
fixed=$(echo "scale=0; $diff_large - $per_factory * $large" | bc)
fixed_mb=$(printf '%.3f' "$(echo "scale=6; $fixed / 1000000" | bc)")
per_factory_kb=$(printf '%.2f' "$(echo "scale=4; $per_factory / 1000" | bc)")
release_ratio=$(printf '%.2f' "$(echo "scale=4; $release_factory / $release_hand" | bc)")
debug_ratio=$(printf '%.2f' "$(echo "scale=4; $debug_factory / $debug_hand" | bc)")
seconds() { printf '%.2f' "$1"; }

verdict() { if [[ "$(echo "$1" | bc)" == 1 ]]; then echo met; else echo MISSED; fi; }
rows=(
    "| bytes per factory over hand-written (stripped release) | ${per_factory_kb} KB | <= 0.2 KB | $(verdict "$per_factory <= 200") |"
    "| library's fixed bytes in the app | ${fixed_mb} MB | <= 0.45 MB | $(verdict "$fixed <= 450000") |"
    "| release rebuild of the app module, N=$large | $(seconds "$release_factory") s vs $(seconds "$release_hand") s: ${release_ratio}x | <= 2.2x | $(verdict "$release_ratio <= 2.2") |"
    "| debug rebuild of the app module, N=$large | $(seconds "$debug_factory") s vs $(seconds "$debug_hand") s: ${debug_ratio}x | - | - |"
)
if $markdown; then
    echo "| app scale (N=$small and $large) | measured | target | |"
    echo "|---|---|---|---|"
fi
printf '%s\n' "${rows[@]}"
if ! $markdown; then
    echo "stripped bytes: FactoryApp ${size[factory$small]} / ${size[factory$large]}, HandApp ${size[hand$small]} / ${size[hand$large]}"
fi
feature_table
if $check && printf '%s\n' "${rows[@]}" | grep -q MISSED; then
    echo "app-scale: a target is missed" >&2
    exit 1
fi
