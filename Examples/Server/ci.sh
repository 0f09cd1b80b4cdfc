#!/usr/bin/env bash
# What CI runs for this example (`.ci/run` calls it): check that the factory catalog
# is current, build everything and run the tests, failing on any compiler warning in
# this example's own files.
set -euo pipefail
cd "$(dirname "$0")"

log="$(mktemp)"
trap 'rm -f "$log"' EXIT

# The factory catalog the tests validate (Tests/ServerAppTests/FactoryCatalog+ServerApp.swift)
# must list every factory of ServerApp: this fails, naming each factory missing or stale,
# until `swift package --allow-writing-to-package-directory factory-catalog --target ServerApp`
# is run again. It builds ServerApp, which `swift test` then reuses.
swift package --allow-writing-to-package-directory factory-catalog --target ServerApp --check 2>&1 | tee "$log"

swift test 2>&1 | tee -a "$log"
if grep -E "^$PWD/[^:]+:[0-9]+:[0-9]+: warning:" "$log"; then
    echo "error: the example has compiler warnings (above)" >&2
    exit 1
fi

# The README's output samples that have an `output` marker, from the binary just built.
../../scripts/check-samples.sh README.md
