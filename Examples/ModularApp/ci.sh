#!/usr/bin/env bash
# What CI runs for this example (`.ci/run` calls it): the catalog of every module
# NotesAppTests reaches is current (`factory-catalog --test-target ... --check`),
# everything builds without a warning in this example's own files, the app runs,
# and the tests (which validate that catalog) pass.
set -euo pipefail
cd "$(dirname "$0")"

log="$(mktemp)"
trap 'rm -f "$log"' EXIT

swift package --allow-writing-to-package-directory factory-catalog --test-target NotesAppTests --check
swift build --build-tests 2>&1 | tee "$log"
if grep -E "^$PWD/[^:]+:[0-9]+:[0-9]+: warning:" "$log"; then
    echo "error: the example has compiler warnings (above)" >&2
    exit 1
fi

swift run NotesApp
swift test
