#!/usr/bin/env bash
# Serves the combined documentation site at http://localhost:${PORT:-8000}/documentation/
# (builds it first if .build/docs/Factory.doccarchive is missing). Needs python3.
#
#     scripts/serve-docs.sh            # build if needed, then serve
#     PORT=9000 scripts/serve-docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."

site="${SCRATCH_PATH:-.build}/docs/Factory.doccarchive"
if [[ ! -d "$site" ]]; then
    scripts/build-docs.sh
fi
port="${PORT:-8000}"
echo "serve-docs: open http://localhost:$port/documentation/ (Ctrl-C to stop)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site"
