#!/usr/bin/env bash
# Generates Sources/Launch*/Generated.swift (scenario 10's 1,000 service types and
# the code that resolves them) unless they are there and newer than the generator.
# Run by setup.sh and run.sh; the output is not committed.
set -euo pipefail
cd "$(dirname "$0")/.."

generator=Scripts/generate-launch.swift
stale=false
for target in LaunchServices LaunchBaseline LaunchFactory LaunchSwinject LaunchDependencies; do
    file="Sources/$target/Generated.swift"
    if [[ ! -f "$file" || "$generator" -nt "$file" ]]; then stale=true; fi
done
if $stale; then
    # A fresh clone has no LaunchServices folder at all: git keeps no empty folders.
    for target in LaunchServices LaunchBaseline LaunchFactory LaunchSwinject LaunchDependencies; do
        mkdir -p "Sources/$target"
    done
    swift "$generator" > /dev/null
    echo "generate-launch: wrote Sources/Launch*/Generated.swift"
fi
