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
#     <!-- snippet: continue -->     appended to the previous block's check; a continued block
#                                    that imports Testing or XCTest after one that does not
#                                    is checked as a file of its own beside it (test code
#                                    beside the code it tests, which may have top-level code)
#     <!-- snippet: skip -->         not Swift that compiles on its own (Package.swift fragments)
#     <!-- snippet: run -->          also linked against the library and run (no Testing/XCTest)
#     <!-- snippet: crash -->        the same, and the program must stop with a failure
#     <!-- snippet: error -->        must NOT type-check, with each message its `// error: ...`
#                                    comments quote (what the docs say the compiler says)
#     <!-- snippet: swiftui -->      checked against the library built with SwiftUI's stand-ins
#                                    (scripts/check-swiftui.sh); a `#Preview {` line is checked
#                                    as what its body is, a main-actor view builder
#     <!-- snippet: run standalone -->   markers combine
#
# A `<!-- file: PATH -->` line above a block names the file it is in a user's package
# (scripts/check-quickstart.sh builds the README's Install and Quick start that way); a
# continued test block's `@testable import App` is dropped here, where the blocks it
# continues are in the same module as the test.
#
# A fenced block marked `<!-- output -->` after a `run` block is that block's
# output sample: the check fails unless the real run prints it
# (scripts/compare-output.py masks addresses; a `...` line stands for any lines).
#
#     scripts/check-readme.sh [FILE.md ...]              # default README.md; the DocC articles too
#     scripts/check-readme.sh --samples-only FILE.md ...  # only the run/crash blocks
#     SCRATCH_PATH=.build-mine scripts/check-readme.sh   # another build folder (default .build)
set -euo pipefail
cd "$(dirname "$0")/.."
samples_only=false
if [[ "${1:-}" == "--samples-only" ]]; then
    samples_only=true
    shift
fi
files=("$@")
[[ ${#files[@]} -gt 0 ]] || files=(README.md)
prelude=scripts/readme-prelude

scratch="${SCRATCH_PATH:-.build}"
swift build --scratch-path "$scratch" --target FactoryTesting
swift build --scratch-path "$scratch" --target FactoryProfiling
bin="$(swift build --scratch-path "$scratch" --show-bin-path)"
common=(-swift-version 6 -warnings-as-errors -enable-upcoming-feature ExistentialAny -I "$bin/Modules")
for map in "$bin"/*.build/module.modulemap; do
    [[ -e "$map" ]] && common+=(-Xcc "-fmodule-map-file=$map")
done
flags=(-typecheck "${common[@]}")

# The library as it compiles where SwiftUI exists, for `swiftui` snippets: built once,
# on the first such snippet.
swiftui_flags=()
swiftui_typecheck() {
    if [[ ${#swiftui_flags[@]} -eq 0 ]]; then
        scripts/check-swiftui.sh --build-only > "$scratch/readme-snippets-swiftui-build.txt" 2>&1 || {
            cat "$scratch/readme-snippets-swiftui-build.txt" >&2
            return 1
        }
        local sbin
        sbin="$(swift build --package-path Tests/SwiftUIStandIns --show-bin-path)"
        swiftui_flags=(-typecheck -swift-version 6 -warnings-as-errors -enable-upcoming-feature ExistentialAny
            -I "$sbin/Modules")
        for map in "$sbin"/*.build/module.modulemap; do
            [[ -e "$map" ]] && swiftui_flags+=(-Xcc "-fmodule-map-file=$map")
        done
    fi
    # Each `#Preview {` becomes the function its body is: a main-actor view builder.
    awk '/^#Preview \{$/ { n++; print "@MainActor @ViewBuilder func preview" n "() -> some View {"; next } { print }' \
        "$1" > "$1.tmp" && mv "$1.tmp" "$1"
    swiftc "${swiftui_flags[@]}" "${@:2}" "$1"
}

# check_file FILE.md: checks one file's blocks; adds to the totals below.
failed=0
count=0
runs=0
check_file() {
    local readme="$1"
    local work="$scratch/readme-snippets/$(basename "$readme" .md)"
    local failed_before=$failed count_before=$count runs_before=$runs
    rm -rf "$work"
    mkdir -p "$work"

    # Split the README into numbered units: unit-N/main.swift (+ unit-N/standalone, unit-N/line).
    awk -v work="$work" '
        /^<!-- snippet: [a-z ]+ -->$/ { marker = " "; for (i = 3; i < NF; i++) marker = marker $i " "; next }
        /^<!-- output -->$/ { marker = "output"; next }
        /^```swift$/ {
            inside = 1
            if (index(marker, " continue ") && unit > 0) { appending = 1; part++ } else { appending = 0; unit++; part = 0 }
            dir = sprintf("%s/unit-%02d", work, unit)
            file = appending ? sprintf("%s/part-%02d.swift", dir, part) : (dir "/main.swift")
            if (!appending) {
                system("mkdir -p " dir)
                print NR > (dir "/line")
                if (index(marker, " standalone ")) print "" > (dir "/standalone")
                if (index(marker, " skip ")) print "" > (dir "/skip")
                if (index(marker, " run ") || index(marker, " crash ")) print "" > (dir "/run")
                if (index(marker, " crash ")) print "" > (dir "/crash")
                if (index(marker, " swiftui ")) print "" > (dir "/swiftui")
                if (index(marker, " error ")) print "" > (dir "/error")
            }
            marker = ""
            next
        }
        /^```/ && inside { inside = 0; next }
        inside { print >> file }
        /^```/ && capturing { capturing = 0; next }
        capturing { print >> (dir "/expected"); next }
        /^```/ && marker == "output" && unit > 0 { capturing = 1; marker = ""; printf "" > (dir "/expected"); next }
        !/^[[:space:]]*$/ && !inside { marker = "" }
    ' "$readme"

    for dir in "$work"/unit-*; do
        [[ -d "$dir" ]] || continue
        [[ -e "$dir/skip" ]] && continue
        [[ $samples_only == true && ! -e "$dir/run" ]] && continue
        count=$((count + 1))
        line="$(cat "$dir/line")"
        # Continued blocks: a test block after code that is not a test is a file of its own;
        # any other is appended to main.swift, as if the blocks were one.
        tests=()
        for part in "$dir"/part-*.swift; do
            [[ -e "$part" ]] || continue
            # A test's `@testable import App` names the app module the blocks before it
            # are in: here those are one module with the test, so the line goes.
            sed -i '/^@testable import App$/d' "$part"
            if grep -qE '^import (Testing|XCTest)$' "$part" && ! grep -qE '^import (Testing|XCTest)$' "$dir/main.swift"; then
                tests+=("$part")
            else
                cat "$part" >> "$dir/main.swift"
            fi
        done
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
        if [[ -e "$dir/swiftui" ]]; then
            if ! swiftui_typecheck "$dir/main.swift" -module-name "Snippet${line}" "${sources[@]}" > "$dir/output.txt" 2>&1; then
                echo "check-readme: $readme:$line: the snippet does not type-check with SwiftUI ($dir/main.swift):" >&2
                cat "$dir/output.txt" >&2
                failed=$((failed + 1))
            fi
            continue
        fi
        if [[ -e "$dir/error" ]]; then
            if swiftc "${flags[@]}" "${mode[@]}" -module-name "Snippet${line}" "${sources[@]}" "$dir/main.swift" \
                > "$dir/output.txt" 2>&1; then
                echo "check-readme: $readme:$line: the snippet type-checks, but the text says it does not" >&2
                failed=$((failed + 1))
            fi
            while IFS= read -r message; do
                # The diagnostic lines only: the compiler also quotes the source, comments included.
                if ! grep -E '^[^ ]+:[0-9]+:[0-9]+: error: ' "$dir/output.txt" | grep -qF -- ": error: $message"; then
                    echo "check-readme: $readme:$line: the compiler did not say \"$message\":" >&2
                    cat "$dir/output.txt" >&2
                    failed=$((failed + 1))
                fi
            done < <(sed -n 's|^ *// error: ||p' "$dir/main.swift")
            continue
        fi
        if ! swiftc "${flags[@]}" "${mode[@]}" -module-name "Snippet${line}" "${sources[@]}" "$dir/main.swift" "${tests[@]}" \
            > "$dir/output.txt" 2>&1; then
            echo "check-readme: $readme:$line: the snippet does not type-check ($dir/main.swift):" >&2
            cat "$dir/output.txt" >&2
            failed=$((failed + 1))
            continue
        fi
        [[ -e "$dir/run" ]] || continue
        # Linked against the library's objects, as an app would be, then run.
        objects=()
        for module in CFactoryAtomics FactoryCore FactoryScopes FactoryWrappers; do
            objects+=("$bin/$module.build"/*.o)
        done
        if ! swiftc "${common[@]}" -module-name "Snippet${line}" "${sources[@]}" "$dir/main.swift" \
            "${objects[@]}" -o "$dir/snippet" > "$dir/output.txt" 2>&1; then
            echo "check-readme: $readme:$line: the snippet does not link ($dir/main.swift):" >&2
            cat "$dir/output.txt" >&2
            failed=$((failed + 1))
            continue
        fi
        # No crash backtrace: the sample shows what a user reads first.
        # (In a command substitution whose stderr is dropped, so bash's own "Illegal instruction" is not printed.)
        status="$( { SWIFT_BACKTRACE=enable=no timeout 60 "$dir/snippet" > "$dir/run.txt" 2>&1 && echo 0 || echo $?; } 2> /dev/null)"
        if [[ -e "$dir/crash" && ( $status -eq 0 || $status -eq 124 ) ]] || [[ ! -e "$dir/crash" && $status -ne 0 ]]; then
            echo "check-readme: $readme:$line: the snippet exited with status $status:" >&2
            cat "$dir/run.txt" >&2
            failed=$((failed + 1))
            continue
        fi
        runs=$((runs + 1))
        if [[ -e "$dir/expected" ]] && ! scripts/compare-output.py "$dir/expected" "$dir/run.txt" "$readme:$line" >&2; then
            failed=$((failed + 1))
        fi
    done

    if [[ $failed -gt $failed_before ]]; then
        echo "check-readme: $readme: $((failed - failed_before)) of $((count - count_before)) snippets failed" >&2
    else
        echo "check-readme: $readme: $((count - count_before)) snippets type-check; $((runs - runs_before)) ran and printed their output samples"
    fi
}

for file in "${files[@]}"; do
    check_file "$file"
done
if [[ $failed -gt 0 ]]; then
    echo "check-readme: $failed of $count snippets failed" >&2
    exit 1
fi
[[ ${#files[@]} -eq 1 ]] || echo "check-readme: ${#files[@]} files, $count snippets type-check; $runs ran and printed their output samples"
