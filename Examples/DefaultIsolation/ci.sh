#!/usr/bin/env bash
# What CI runs for this example (`.ci/run` calls it): build, run the demo, run
# the tests, failing on any compiler warning in this example's own files.
set -euo pipefail
cd "$(dirname "$0")"

log="$(mktemp)"
trap 'rm -f "$log"' EXIT

swift build --build-tests 2>&1 | tee "$log"
if grep -E "^$PWD/[^:]+:[0-9]+:[0-9]+: warning:" "$log"; then
    echo "error: the example has compiler warnings (above)" >&2
    exit 1
fi

swift run DefaultIsolationDemo
swift test
