#!/usr/bin/env bash
# Builds the library with `canImport(SwiftUI)` true, against the stand-ins of
# SwiftUI and Combine in Tests/SwiftUIStandIns, and runs the miniature SwiftUI app's
# tests there. Fails on any compiler warning in the library or the app.
#
#     scripts/check-swiftui.sh               # build and test
#     scripts/check-swiftui.sh --build-only  # build (check-readme.sh type-checks against it)
#
# The stand-ins are built first, on their own: the library's targets do not depend
# on them, so `canImport(SwiftUI)` is true when the library compiles only if the
# stand-in modules are already in the build's module folder. The app then fails to
# compile unless the library's SwiftUI branch was compiled (`@InjectedObject` and
# the `EmptyView` forms exist only there).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
package=Tests/SwiftUIStandIns

log="$(mktemp)"
trap 'rm -f "$log"' EXIT

swift build --package-path "$package" --target SwiftUI
swift build --package-path "$package" --target os
# Only the test product: the library package's own executables do not link the stand-ins.
swift build --package-path "$package" --product SwiftUIStandInsPackageTests 2>&1 | tee "$log"
if grep -E "^$root/(Sources|$package/Sources/MiniApp|$package/Tests)/[^:]+:[0-9]+:[0-9]+: warning:" "$log"; then
    echo "error: the library or the miniature app has compiler warnings with SwiftUI (above)" >&2
    exit 1
fi
[[ "${1:-}" == "--build-only" ]] && exit 0
swift test --package-path "$package" --skip-build
