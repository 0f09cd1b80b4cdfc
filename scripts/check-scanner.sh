#!/usr/bin/env bash
# The catalog plugin's source scanner against the compiler on the packages CI builds
# beside this one: for each module of the fixture and example packages, every factory
# property its symbol graph declares is read by the scanner at the same place, with
# the same container, kind, access, static and @MainActor, under an #if condition that
# holds in that build, and every other factory the scanner reads sits in a branch the
# build left out (Tests/FactoryCatalogPluginTests/SymbolGraphAgreementTests.swift).
# `swift test` runs the same test on this package's own tests and examples, which it
# checks here again (a few seconds).
#
# Reads each package's debug build, brought up to date here (`swift build --build-tests`,
# which after the CI steps that built the package only catches up with files they added
# and removed): run it after them.
#
#     scripts/check-scanner.sh                 # the packages below
#     scripts/check-scanner.sh Tests/CatalogFixture ...
set -euo pipefail
cd "$(dirname "$0")/.."

# A package directory, or DIRECTORY=MANIFEST for a build in another scratch folder.
packages=("$@")
if [ ${#packages[@]} -eq 0 ]; then
    packages=(
        Tests/CatalogFixture
        Tests/ModularFixture
        Tests/SwiftUIStandIns
        "Tests/DynamicProduct=Tests/DynamicProduct/App/.build-dynamic/debug.yaml"
    )
    for example in Examples/*/; do
        if [ -f "$example/Package.swift" ]; then packages+=("${example%/}"); fi
    done
fi

missing=0
for package in "${packages[@]}"; do
    manifest="${package#*=}"
    if [[ "$manifest" == "$package" ]]; then manifest="$package/.build/debug.yaml"; fi
    if [ ! -f "$manifest" ]; then
        echo "error: no debug build of ${package%%=*} ($manifest): run this after the step that builds it"
        missing=1
        continue
    fi
    # The package the manifest describes, and its scratch folder (`.build`, or another).
    scratch="$(dirname "$manifest")"
    directory="$(dirname "$scratch")"
    flags=()
    if [[ "$(basename "$scratch")" == .build ]]; then flags=(--build-tests); fi
    swift build --package-path "$directory" --scratch-path "$scratch" "${flags[@]}" > /dev/null
done
[ $missing -eq 0 ] || exit 1

swift build --build-tests > /dev/null
FACTORY_SCANNER_PACKAGES="${packages[*]}" swift test --skip-build --disable-xctest \
    --filter SymbolGraphAgreementTests.theScannerReadsWhatTheCompilerDeclares
