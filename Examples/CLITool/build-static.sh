#!/usr/bin/env bash
# Builds a release `textstats` with no dynamic Swift dependency and prints its size.
#
#   ./build-static.sh                   --static-swift-stdlib: the Swift runtime,
#                                       Foundation and every package are linked in;
#                                       glibc, libstdc++ and libm stay dynamic.
#   ./build-static.sh --fully-static    -static-executable: nothing is dynamic
#                                       (Linux only; glibc's linker warns that
#                                       getpwuid_r, dlopen... need a matching
#                                       glibc at run time; the tool calls none).
set -euo pipefail
cd "$(dirname "$0")"

case "${1:-}" in
    "")
        flags=(--static-swift-stdlib)
        ;;
    --fully-static)
        # Its own build folder, so switching modes does not rebuild everything.
        flags=(-Xswiftc -static-executable --scratch-path .build-static)
        ;;
    *)
        echo "usage: $0 [--fully-static]" >&2
        exit 64
        ;;
esac

swift build -c release "${flags[@]}" --product textstats
binary="$(swift build -c release "${flags[@]}" --show-bin-path)/textstats"

"$binary" --mock > /dev/null
bytes=$(stat -c %s "$binary" 2>/dev/null || stat -f %z "$binary")
echo "binary: $binary"
echo "size: $bytes bytes ($(( (bytes + 524288) / 1048576 )) MiB)"
if command -v ldd > /dev/null; then
    echo "dynamic libraries:"
    ldd "$binary" || true
fi
