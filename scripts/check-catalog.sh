#!/usr/bin/env bash
# Runs the FactoryCatalog plugin and catalog validation on Tests/CatalogFixture, a
# package made for it, and checks each outcome a user relies on:
#
# 1. generate: the plugin writes exactly the checked-in catalog (so it is
#    deterministic), lint-clean, and reports the private factories it skips;
# 2. --check passes on it;
# 3. the fixture's tests pass: one validation run finds the cycle, the captive
#    dependency, the unregistered promise and the async factory that throws, each
#    with its chain, lists the parameter factory without a sample as unchecked, and
#    builds the main-actor factory on the main actor (Swift Testing and XCTest);
# 4. a factory added without regenerating: --check fails, naming it and its file;
# 5. a catalog that lists a factory the code no longer declares, or with another
#    access level: --check fails, naming it as stale or changed.
#
# The check output the DocC article "Checking the whole graph" shows must match
# step 4's (scripts/compare-output.py), its report the fixture's (a test there), and
# its Swift snippets type-check (scripts/check-readme.sh).
#
#     scripts/check-catalog.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/Tests/CatalogFixture"
export SWIFT_BACKTRACE=enable=no

catalog=Tests/FixtureAppTests/FactoryCatalog+FixtureApp.swift
added=Sources/FixtureApp/AddedLater.swift
article="$root/Sources/FactoryTesting/FactoryTesting.docc/CheckingTheWholeGraph.md"
plugin=(swift package --allow-writing-to-package-directory factory-catalog --target FixtureApp)
work="$(mktemp -d)"
trap 'rm -f "$added"; rm -rf "$work"' EXIT

fail() {
    echo "check-catalog: $1" >&2
    [[ -n "${2:-}" && -e "$2" ]] && cat "$2" >&2
    exit 1
}
# `expect FILE TEXT`: FILE has a line containing TEXT.
expect() {
    grep -qF -- "$2" "$1" || fail "expected a line with '$2' in the output:" "$1"
}
# Runs the plugin's check mode; the output goes to $work/$1.txt. Must fail.
check_fails() {
    local name="$1"
    shift
    if "${plugin[@]}" --check "$@" > "$work/$name.txt" 2>&1; then
        fail "--check passed ($name), it should have failed:" "$work/$name.txt"
    fi
}

echo "== 1. generate"
"${plugin[@]}" > "$work/generate.txt" 2>&1 || fail "generating the catalog failed:" "$work/generate.txt"
git diff --exit-code -- "$catalog" || fail "the generated catalog is not the checked-in one (diff above)"
swift format lint --strict --configuration "$root/.swift-format" "$catalog" || fail "the generated catalog is not lint-clean"
expect "$work/generate.txt" "wrote $catalog: 20 factories of 2 containers, 2 skipped"
expect "$work/generate.txt" "skipped Container.salt (fileprivate): a test target cannot reach it"
expect "$work/generate.txt" "skipped Container.secretKey (private): a test target cannot reach it"

echo "== 2. check, current"
"${plugin[@]}" --check > "$work/current.txt" 2>&1 || fail "--check failed on the current catalog:" "$work/current.txt"
expect "$work/current.txt" "$catalog is current: 20 factories of 2 containers, 2 skipped"

echo "== 3. the fixture's tests"
swift test > "$work/test.txt" 2>&1 || fail "the fixture's tests failed:" "$work/test.txt"
expect "$work/test.txt" "Test run with 6 tests in 2 suites passed"
expect "$work/test.txt" "Executed 2 tests, with 0 failures"

echo "== 4. a factory added without regenerating"
cp Added/AddedLater.swift "$added"
check_fails added
expect "$work/added.txt" "missing: FeatureContainer.addedLater, internal Factory (Sources/FixtureApp/AddedLater.swift:6)"
expect "$work/added.txt" "error: factory-catalog: $catalog does not match target FixtureApp:"
expect "$work/added.txt" "Regenerate it: swift package --allow-writing-to-package-directory factory-catalog --target FixtureApp"
rm "$added"
# The article's sample: the plugin's lines, without SwiftPM's build lines.
grep -E "^(error: factory-catalog|  |Regenerate)" "$work/added.txt" > "$work/added-lines.txt"
awk '/^<!-- check-catalog: added -->$/ { marked = 1; next }
    marked && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }' "$article" > "$work/added-sample.txt"
[[ -s "$work/added-sample.txt" ]] || fail "no sample after '<!-- check-catalog: added -->' in $article"
"$root/scripts/compare-output.py" "$work/added-sample.txt" "$work/added-lines.txt" "$article (check-catalog: added)" \
    || fail "the article's check output is not what the plugin printed"

echo "== 5. a stale and a changed entry"
# The checked-in catalog, listing a factory the code no longer declares and with
# `api` made internal.
sed -e 's|^\(        \$0.factory("Container.analytics".*\)$|        $0.factory("Container.removedLongAgo", \\Container.clock, access: .internal)\n\1|' \
    -e 's|\$0.factory("Container.api", \\Container.api, access: .public)|$0.factory("Container.api", \\Container.api, access: .internal)|' \
    "$catalog" > "$work/Stale.swift"
check_fails stale --output "$work/Stale.swift"
expect "$work/stale.txt" "stale: Container.removedLongAgo, listed in the catalog but no longer declared"
expect "$work/stale.txt" 'changed: Container.api: the catalog says `$0.factory("Container.api", \Container.api, access: .internal)`'

echo "== 6. the article's snippets type-check"
"$root/scripts/check-readme.sh" "$article"

echo "check-catalog: generate, check (current, missing, stale, changed) and the fixture's validation behave as expected"
