#!/usr/bin/env bash
# Prepares a fresh Linux machine for the benchmark package.
#
#   ./setup.sh          what building needs (CI): the generated launch sources;
#                       nothing to install beyond Swift and git
#   ./setup.sh --run    also what ./run.sh uses: valgrind (instructions per op)
#
# package-benchmark 1.38.1 counts mallocs with its own malloc interposer
# (the "MallocInterposer" trait), so unlike releases before 1.30 it needs no
# jemalloc: there is no libjemalloc-dev to install.
set -euo pipefail

command -v swift > /dev/null || { echo "setup.sh: swift is not on PATH" >&2; exit 1; }
command -v git > /dev/null || { echo "setup.sh: git is not on PATH (SwiftPM needs it)" >&2; exit 1; }

if [[ "${1:-}" == "--run" ]] && ! command -v valgrind > /dev/null; then
    if command -v apt-get > /dev/null; then
        sudo=""
        [[ $(id -u) -eq 0 ]] || sudo="sudo"
        $sudo apt-get update -qq
        $sudo apt-get install -y -qq valgrind binutils
    else
        echo "setup.sh: install valgrind for the instructions column (optional)" >&2
    fi
fi
# The scenario-10 launch programs' sources (1,000 generated types per library)
# are not in git: generate them here, deterministic, in about a second.
(cd "$(dirname "$0")" && Scripts/generate-launch.sh)
echo "setup.sh: ready"
