#!/usr/bin/env bash
# Builds a release `textstats` with the Swift runtime, Foundation and every
# package linked in statically (`--static-swift-stdlib`), then prints its size.
# Only the C library (glibc) stays dynamic; `ldd` shows what is left.
set -euo pipefail
cd "$(dirname "$0")"

swift build -c release --static-swift-stdlib --product textstats
binary="$(swift build -c release --static-swift-stdlib --show-bin-path)/textstats"

"$binary" --mock > /dev/null
bytes=$(stat -c %s "$binary" 2>/dev/null || stat -f %z "$binary")
echo "binary: $binary"
echo "size: $bytes bytes ($(( (bytes + 524288) / 1048576 )) MiB)"
if command -v ldd > /dev/null; then
    echo "dynamic libraries:"
    ldd "$binary" || true
fi
