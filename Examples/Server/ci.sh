#!/usr/bin/env bash
# What CI runs for this example (`.ci/run` calls it): check that the factory catalog
# is current, build everything and run the tests, failing on any compiler warning in
# this example's own files, then a short load run with a SIGTERM in it.
set -euo pipefail
cd "$(dirname "$0")"

log="$(mktemp)"
trap 'rm -f "$log"' EXIT

# The factory catalog the tests validate (Tests/ServerAppTests/FactoryCatalog+ServerApp.swift)
# must list every factory of ServerApp: this fails, naming each factory missing or stale,
# until `swift package --allow-writing-to-package-directory factory-catalog --target ServerApp`
# is run again. It builds ServerApp, which `swift test` then reuses.
swift package --allow-writing-to-package-directory factory-catalog --target ServerApp --check 2>&1 | tee "$log"

# It builds every target of the package first, FactoryLoad and RequestCost included.
swift test 2>&1 | tee -a "$log"
if grep -E "^$PWD/[^:]+:[0-9]+:[0-9]+: warning:" "$log"; then
    echo "error: the example has compiler warnings (above)" >&2
    exit 1
fi

# The README's output samples that have an `output` marker, from the binary just built.
../../scripts/check-samples.sh README.md

# The load run, short (README, "Under load"): 10 s of the mix on 16 keep-alive connections,
# 200 malformed requests and headers at the limits among them, then SIGTERM while the load
# runs. FactoryLoad exits 1, failing CI, when an answer is wrong or missing, a request the
# server numbered did not get its whole answer, a request-scoped instance was not released,
# the services did not shut down once each in reverse order, the server did not exit 0
# within 30 s, or its memory grew past 8 MiB over what it held after the warm-up.
.build/debug/FactoryLoad --server .build/debug/FactoryServer \
    --duration 10 --warmup 4 --connections 16 --malformed 200 --sigterm --rss-bound 8
