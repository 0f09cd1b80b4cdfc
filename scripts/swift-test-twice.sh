#!/usr/bin/env bash
# Runs the package's tests like `swift test --skip-build`, except that the Swift
# Testing tests run twice in one process, with Swift Testing's own option
# `--repetitions 2`: a test that leaves state behind for its next run (a global it
# appends to, a registration it never undoes) fails the second time. `swift test`
# does not accept that option, so the test binary is run directly, with the
# argument `swift test` gives it to select Swift Testing; the XCTest tests run
# once, through `swift test`. Build first (`swift build --build-tests`).
#
#     scripts/swift-test-twice.sh
set -euo pipefail
cd "$(dirname "$0")/.."

swift test --skip-build --disable-swift-testing
tests="$(swift build --show-bin-path)/FactoryPackageTests.xctest"
"$tests" --testing-library swift-testing --repetitions 2
