#!/usr/bin/env bash
# The Server example under load (issue 58). Builds FactoryServer and the load generator
# FactoryLoad (Sources/FactoryLoad: needs nothing but the Swift toolchain) in release,
# then runs, each run against a fresh server process:
#
#   compare   the fixed mix against the factory wiring and the hand-written one
#             (`FactoryServer --wiring hand`), in turn, 3 runs of 30 s each: the
#             throughput and p99 ratio is what the container per request costs
#   million   1,000,000 requests: every answer checked, memory flat after the warm-up,
#             every request-scoped instance released, then SIGTERM
#   sigterm   SIGTERM in the middle of the load: no accepted request lost, new
#             connections refused, shutdown once each in reverse order, exit 0
#   hostile   10,000 malformed requests and headers at the limits, interleaved with
#             the mix: every good request answered, memory flat
#
# Usage: ./loadtest.sh [all|compare|million|sigterm|hostile]... [--debug]
# (default: all, about 8 minutes once built). FactoryLoad exits 1 when a check fails,
# and so does this script. `FactoryLoad --help` lists its options for other runs.
set -euo pipefail
cd "$(dirname "$0")"

config=release
runs=()
for argument in "$@"; do
    case "$argument" in
        --debug) config=debug ;;
        all | compare | million | sigterm | hostile) runs+=("$argument") ;;
        *)
            echo "usage: $0 [all|compare|million|sigterm|hostile]... [--debug]" >&2
            exit 2
            ;;
    esac
done
[ ${#runs[@]} -eq 0 ] && runs=(all)
[ "${runs[*]}" = all ] && runs=(compare million sigterm hostile)

swift build -c "$config" --product FactoryServer
swift build -c "$config" --product FactoryLoad
bin=".build/$config"
load() {
    echo
    echo "\$ FactoryLoad --server $bin/FactoryServer $*"
    "$bin/FactoryLoad" --server "$bin/FactoryServer" "$@"
}

for run in "${runs[@]}"; do
    case "$run" in
        compare) load --wiring both --rounds 3 --duration 30 --warmup 5 --connections 32 ;;
        million) load --requests 1000000 --warmup 5 --connections 32 --rss-bound 16 ;;
        sigterm) load --duration 20 --warmup 5 --connections 64 --sigterm ;;
        hostile) load --duration 60 --warmup 5 --connections 32 --malformed 10000 --rss-bound 16 ;;
    esac
done
