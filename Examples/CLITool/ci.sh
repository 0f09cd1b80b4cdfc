#!/usr/bin/env bash
# What CI runs for this example (`.ci/run` calls it): build everything and run
# the tests, failing on any compiler warning in this example's own files.
set -euo pipefail
cd "$(dirname "$0")"

log="$(mktemp)"
trap 'rm -f "$log"' EXIT

swift test 2>&1 | tee "$log"
if grep -E "^$PWD/[^:]+:[0-9]+:[0-9]+: warning:" "$log"; then
    echo "error: the example has compiler warnings (above)" >&2
    exit 1
fi

# The README's output samples, from the binary just built.
../../scripts/check-samples.sh README.md

# The statically linked release binary the README measures; its size must be
# within 2% of the README's first size row (sizes move a few KB as the library changes).
./build-static.sh | tee "$log"
measured="$(sed -n 's/^size: \([0-9]*\) bytes.*/\1/p' "$log")"
documented="$(grep -m1 '^| `--static-swift-stdlib` |' README.md | sed 's/^[^|]*|[^|]*| \([0-9,]*\) bytes.*/\1/' | tr -d ,)"
if [[ -z "$measured" || -z "$documented" ]] || (( measured * 100 < documented * 98 || measured * 100 > documented * 102 )); then
    echo "error: the static binary is ${measured:-?} bytes; README.md says ${documented:-?} (more than 2% apart): update the table" >&2
    exit 1
fi
echo "static binary: $measured bytes, README: $documented bytes"

# What FactoryCore adds to a small static tool, built whole-program: within
# issue 23's budget (1.15x the empty program with the default traits, +0.20 MiB
# with none). The ordinary release rows are printed, not checked.
./measure-core.sh --check
