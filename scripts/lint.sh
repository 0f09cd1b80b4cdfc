#!/usr/bin/env bash
# Lints every Swift file of the package and its examples with the toolchain's
# `swift format` and the repository's `.swift-format` (the plugin's too). Exits non-zero on any
# finding (--strict). Build folders (`.build`, `.build-*`) inside the examples,
# which hold checkouts of other packages, are skipped.
#
#     scripts/lint.sh            # lint
#     scripts/lint.sh --summary  # lint, then count findings per rule
set -euo pipefail
cd "$(dirname "$0")/.."

files=()
while IFS= read -r -d '' file; do
    files+=("$file")
done < <(find Sources Plugins Tests Examples -name '.build*' -prune -o -name '*.swift' -type f -print0 | sort -z)
files+=(Package.swift)

if [[ "${1:-}" == "--summary" ]]; then
    output="$(swift format lint --strict --parallel "${files[@]}" 2>&1)" && status=0 || status=$?
    printf '%s\n' "$output"
    echo "--- ${#files[@]} files; findings per rule:"
    printf '%s\n' "$output" | sed -n 's/.*: \(error\|warning\): \[\([A-Za-z]*\)\].*/\2/p' | sort | uniq -c | sort -rn
    exit "$status"
fi

exec swift format lint --strict --parallel "${files[@]}"
