#!/usr/bin/env bash
# Type-checks every ```swift block of README.md against the library, with
# warnings as errors, so the README shows only real API.
#
# Each block is checked on its own, as `main.swift` beside the app types of
# scripts/readme-prelude/Types.swift and the shared factories of
# scripts/readme-prelude/Factories.swift. A block without an `import` gets
# `import FactoryWrappers`; a block that imports Testing or XCTest is checked as a
# library file (-parse-as-library), as in a test target. A marker comment on the
# line before a block changes how it is checked:
#
#     <!-- snippet: standalone -->   declares its own factories: no Factories.swift
#     <!-- snippet: continue -->     appended to the previous block's check
#     <!-- snippet: skip -->         not Swift that compiles on its own (Package.swift fragments)
#
#     scripts/check-readme.sh [README.md]
set -euo pipefail
cd "$(dirname "$0")/.."
readme="${1:-README.md}"
prelude=scripts/readme-prelude

swift build --target FactoryTesting
bin="$(swift build --show-bin-path)"
flags=(-typecheck -swift-version 6 -warnings-as-errors -enable-upcoming-feature ExistentialAny -I "$bin/Modules")
for map in "$bin"/*.build/module.modulemap; do
    [[ -e "$map" ]] && flags+=(-Xcc "-fmodule-map-file=$map")
done

work=.build/readme-snippets
rm -rf "$work"
mkdir -p "$work"

# Split the README into numbered units: unit-N/main.swift (+ unit-N/standalone, unit-N/line).
awk -v work="$work" '
    /^<!-- snippet: [a-z]+ -->$/ { marker = $3; next }
    /^```swift$/ {
        inside = 1
        if (marker == "continue" && unit > 0) { appending = 1 } else { appending = 0; unit++ }
        dir = sprintf("%s/unit-%02d", work, unit)
        if (!appending) {
            system("mkdir -p " dir)
            print NR > (dir "/line")
            if (marker == "standalone") print "" > (dir "/standalone")
            if (marker == "skip") print "" > (dir "/skip")
        }
        marker = ""
        next
    }
    /^```/ && inside { inside = 0; next }
    inside { print >> (dir "/main.swift") }
    !/^[[:space:]]*$/ && !inside { marker = "" }
' "$readme"

failed=0
count=0
for dir in "$work"/unit-*; do
    [[ -e "$dir/skip" ]] && continue
    count=$((count + 1))
    line="$(cat "$dir/line")"
    if ! grep -q '^import ' "$dir/main.swift"; then
        { echo "import FactoryWrappers"; cat "$dir/main.swift"; } > "$dir/main.tmp" && mv "$dir/main.tmp" "$dir/main.swift"
    fi
    sources=("$prelude/Types.swift")
    [[ -e "$dir/standalone" ]] || sources+=("$prelude/Factories.swift")
    # Test code lives in library files, not in main.swift: no top-level statements,
    # and globals are not main-actor isolated.
    mode=()
    if grep -qE '^import (Testing|XCTest)$' "$dir/main.swift"; then
        mode=(-parse-as-library)
    fi
    if ! swiftc "${flags[@]}" "${mode[@]}" -module-name "Snippet${line}" "${sources[@]}" "$dir/main.swift" \
        > "$dir/output.txt" 2>&1; then
        echo "check-readme: $readme:$line: the snippet does not type-check ($dir/main.swift):" >&2
        cat "$dir/output.txt" >&2
        failed=$((failed + 1))
    fi
done

if [[ $failed -gt 0 ]]; then
    echo "check-readme: $failed of $count snippets failed" >&2
    exit 1
fi
echo "check-readme: $count snippets type-check"
