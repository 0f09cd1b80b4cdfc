#!/usr/bin/env bash
# Checks the Apple platforms' workflow without a Mac (scripts/check-apple-workflow.py):
# it parses as YAML, and the Xcode each job selects ships a Swift at least as new as
# the swift-tools-version of every manifest the job builds. Installs python3 and
# PyYAML from Debian when they are missing (CI runs on a fresh machine).
#
#     scripts/check-apple-workflow.sh [WORKFLOW]
set -euo pipefail
cd "$(dirname "$0")/.."

if ! python3 -c "import yaml" >/dev/null 2>&1; then
    (apt-get install -y -q python3 python3-yaml >/dev/null 2>&1 ||
        (apt-get update -q >/dev/null 2>&1 && apt-get install -y -q python3 python3-yaml >/dev/null 2>&1)) ||
        pip install -q pyyaml >/dev/null 2>&1 || true
    python3 -c "import yaml" || { echo "error: PyYAML is missing and could not be installed"; exit 1; }
fi
exec python3 scripts/check-apple-workflow.py "$@"
