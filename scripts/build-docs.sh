#!/usr/bin/env bash
# Builds the DocC documentation of the library modules with the Swift toolchain
# alone (no swift-docc-plugin): `swift build`, then `swift-symbolgraph-extract`
# for each module, then `docc convert` of the module's catalog with
# --warnings-as-errors, so a broken ``Symbol`` or <doc:Article> link fails it.
#
#     scripts/build-docs.sh                              # all four modules
#     scripts/build-docs.sh FactoryCore FactoryScopes    # some of them
#     SCRATCH_PATH=.build-mine scripts/build-docs.sh     # another build folder (default .build)
#
# Output: .build/docs/Factory.doccarchive, one site for the four modules (the
# per-module archives merged with `docc merge`, under a landing page that lists
# the four layers); scripts/serve-docs.sh serves it. The per-module archives stay
# in .build/docs/<Module>.doccarchive; symbol graphs in .build/docs/symbol-graphs.
# A layer's archive also documents the layers it re-exports, so a page read from
# any layer links to what its `import` gives.
set -euo pipefail
cd "$(dirname "$0")/.."

all_modules=(FactoryCore FactoryScopes FactoryWrappers FactoryTesting FactoryProfiling)
if [[ $# -gt 0 ]]; then modules=("$@"); else modules=("${all_modules[@]}"); fi

find_tool() {
    if command -v "$1" > /dev/null; then
        command -v "$1"
    elif command -v xcrun > /dev/null && xcrun --find "$1" > /dev/null 2>&1; then
        xcrun --find "$1"
    else
        echo "build-docs: '$1' not found; it ships with the Swift toolchain" >&2
        exit 1
    fi
}
docc="${DOCC:-$(find_tool docc)}"
extract="${SWIFT_SYMBOLGRAPH_EXTRACT:-$(find_tool swift-symbolgraph-extract)}"

scratch="${SCRATCH_PATH:-.build}"
out="$scratch/docs"
graphs="$out/symbol-graphs"
rm -rf "$out"
mkdir -p "$graphs"

# 1. Build the modules with the same settings as `swift build`/`swift test`,
#    so the build cache is shared with them.
for module in "${modules[@]}"; do
    echo "== swift build --target $module"
    swift build --scratch-path "$scratch" --target "$module"
done
bin="$(swift build --scratch-path "$scratch" --show-bin-path)"

# 2. Symbol graphs, read from the built modules. The C module under FactoryCore
#    is found through the module maps SwiftPM generated.
triple="$(swift -print-target-info | sed -n 's/^ *"triple": "\(.*\)",*$/\1/p' | head -n 1)"
extract_flags=(-I "$bin/Modules" -target "$triple" -minimum-access-level public -emit-extension-block-symbols)
for map in "$bin"/*.build/module.modulemap; do
    [[ -e "$map" ]] && extract_flags+=(-Xcc "-fmodule-map-file=$map")
done
if [[ "$(uname)" == "Darwin" ]]; then
    extract_flags+=(-sdk "$(xcrun --show-sdk-path --sdk macosx)")
fi

# Each layer re-exports the ones below it, and its documentation covers what its
# `import` gives: the symbols of the lower layers are included, so doc comments and
# articles link to them as ``Container`` from any layer.
reexported() {
    case "$1" in
        FactoryScopes) echo "FactoryCore" ;;
        FactoryWrappers) echo "FactoryScopes,FactoryCore" ;;
        FactoryTesting) echo "FactoryWrappers,FactoryScopes,FactoryCore" ;;
        FactoryProfiling) echo "FactoryCore" ;;
        *) echo "" ;;
    esac
}

# 3. One archive per module; keep going so one run reports every module's warnings.
failed=()
for module in "${modules[@]}"; do
    echo "== $module"
    mkdir -p "$graphs/$module"
    module_flags=()
    lower="$(reexported "$module")"
    [[ -n "$lower" ]] && module_flags+=("-experimental-allowed-reexported-modules=$lower")
    "$extract" -module-name "$module" -output-dir "$graphs/$module" "${extract_flags[@]}" "${module_flags[@]}"
    if ! "$docc" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$graphs/$module" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.swift-factory.$module" \
        --output-path "$out/$module.doccarchive" \
        --warnings-as-errors; then
        failed+=("$module")
    fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
    echo "build-docs: warnings or errors in: ${failed[*]}" >&2
    exit 1
fi

# 4. One site: the archives merged. `docc merge` synthesizes a landing page with only
#    a title and the module cards in alphabetical order; scripts/docs-landing.py gives
#    it the front page written in Documentation/Factory.docc (what the library is,
#    which layer to link, the articles to read first) and orders the cards by layer.
archives=()
for module in "${modules[@]}"; do archives+=("$out/$module.doccarchive"); done
"$docc" merge "${archives[@]}" \
    --synthesized-landing-page-name "Factory for Swift" \
    --synthesized-landing-page-kind Package \
    --synthesized-landing-page-topics-style detailedGrid \
    --output-path "$out/Factory.doccarchive"
"$docc" convert Documentation/Factory.docc \
    --fallback-display-name "Factory for Swift" \
    --fallback-bundle-identifier org.swift-factory.Factory \
    --output-path "$out/Landing.doccarchive" \
    --warnings-as-errors
scripts/docs-landing.py "$out/Factory.doccarchive" "$out/Landing.doccarchive" "${all_modules[@]}"
echo "build-docs: ${modules[*]} -> $out/Factory.doccarchive (serve it with scripts/serve-docs.sh)"
