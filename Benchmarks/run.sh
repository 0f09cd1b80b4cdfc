#!/usr/bin/env bash
# Runs every benchmark and prints the results table (Markdown).
#
#   ./run.sh                   run everything, print the table, keep it in results/report.md
#   ./run.sh --update-readme   ... and put it in README.md between the results markers
#   ./run.sh --build-only      only build every product in release (what CI runs)
#
# Steps: one release build; package-benchmark twice (mallocs with the malloc
# interposer, wall time from a build without it, so the interposer's own cost
# is not in the times); instructions per operation under valgrind if it is
# installed; the scenario-10 launch programs in fresh processes; the table.
# Takes about 10 minutes on 2 cores once built. All build output stays in .build/.
set -euo pipefail
cd "$(dirname "$0")"

update_readme=()
build_only=false
for argument in "$@"; do
    case "$argument" in
        --update-readme) update_readme=(--readme README.md) ;;
        --build-only) build_only=true ;;
        *) echo "unknown option: $argument" >&2; exit 2 ;;
    esac
done

# Product by product: a bare `swift build` would also build every product of
# the dependencies (the library's demos, swift-dependencies' test observer
# and its macro plugin, which compiles all of swift-syntax).
products=(BaselineBench FactoryBench SwinjectBench DependenciesBench InstructionProbe
          LaunchBaseline LaunchFactory LaunchSwinject LaunchDependencies BenchReport)

# SwiftPM's incremental build can miss that the library's inlinable code
# changed (`@inlinable`, `@_alwaysEmitIntoClient`, bodies it optimizes across
# modules): the targets that inlined it are not recompiled, the library's own
# upper modules included (FactoryWrappers keeps FactoryCore's bodies). Either
# the link then fails (undefined `package` symbols), or, worse, it succeeds and
# the benchmarks measure the old code. So the objects of the library's targets
# and of those that use it go whenever the library's sources differ from the
# ones the last build in this scratch path used.
forget_library_users() {
    local target
    for target in ../Sources/*/ ScenariosFactory FactoryBench LaunchFactory InstructionProbe; do
        rm -f "$1/release/$(basename "$target").build/"*.o
    done
}

library_fingerprint() {
    (cd .. && find Sources Package.swift -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum)
}

# build <scratch path> <product>...
build() {
    local scratch="$1"
    shift
    local fingerprint recorded="$scratch/library-sources.sha256"
    fingerprint="$(library_fingerprint)"
    if [[ ! -f "$recorded" || "$(cat "$recorded")" != "$fingerprint" ]]; then
        forget_library_users "$scratch"
    fi
    local product
    for product in "$@"; do
        if ! swift build -c release --scratch-path "$scratch" --product "$product" 2>&1 \
            | { grep -v -E '^\[[0-9]+/[0-9]+\]' || true; } >&2; then
            echo "== $product failed; rebuilding the targets that use the library and retrying" >&2
            forget_library_users "$scratch"
            swift build -c release --scratch-path "$scratch" --product "$product" >&2
        fi
    done
    echo "$fingerprint" > "$recorded"
}

# The scenario-10 sources are generated, not committed.
Scripts/generate-launch.sh

echo "== build (release)" >&2
build .build "${products[@]}"
if $build_only; then
    exit 0
fi

rm -rf results
mkdir -p results/malloc results/time .build/probe

# swift package [global options] benchmark <plugin options>, quietly.
benchmark() {
    swift package "$@" 2>&1 | { grep -v -E '^\[[0-9]+/[0-9]+\]|^Writing to ' || true; } >&2
}

# The machine's load while timing goes into the report: on a shared machine
# it is the main source of noise.
load() { echo "$1: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)" >> results/load.txt; }

echo "== mallocs (package-benchmark, malloc interposer on)" >&2
FACTORY_BENCH_MAX_MS=300 benchmark --allow-writing-to-package-directory benchmark \
    --no-progress --format histogramSamples \
    --metric mallocCountTotal --metric instructions --path results/malloc

echo "== wall time (package-benchmark, separate build without the interposer)" >&2
FACTORY_BENCH_WALLCLOCK=1 build .build/wallclock BaselineBench FactoryBench SwinjectBench DependenciesBench
load "before timing"
FACTORY_BENCH_WALLCLOCK=1 benchmark --scratch-path .build/wallclock --allow-writing-to-package-directory \
    benchmark --no-progress --format histogramSamples --metric wallClock --path results/time
load "after timing"

# valgrind cannot read the DWARF that Swift 6.3 emits; copies without debug
# info still have the symbol table, which is all callgrind needs.
probe=.build/release/InstructionProbe
if command -v strip > /dev/null; then
    for program in InstructionProbe LaunchBaseline LaunchFactory LaunchSwinject LaunchDependencies; do
        strip --strip-debug -o ".build/probe/$program" ".build/release/$program"
    done
    probe=.build/probe/InstructionProbe
fi

echo "== instructions (valgrind) and launch programs; building the table" >&2
.build/release/BenchReport \
    --time-results results/time --malloc-results results/malloc \
    --bin .build/release --probe "$probe" --load results/load.txt \
    --swift-version "$(swift --version 2>&1 | grep -o 'Swift version [^ ]*' | head -1)" \
    "${update_readme[@]}" | tee results/report.md
