#!/usr/bin/env bash
# Runs the FactoryCatalog plugin and catalog validation on two packages made for it,
# and checks each outcome a user relies on.
#
# Tests/CatalogFixture, one module (`--target FixtureApp`):
# 1. generate: the plugin writes exactly the checked-in catalog (so it is
#    deterministic), lint-clean, and reports the private factories it skips; the
#    factories under `#if` are listed inside their conditions, those of branches
#    this machine does not compile included, and the source reads each conditional
#    declaration as the symbol graph does (no "note:");
# 2. --check passes on it, also with --conditional-from-source (every factory under
#    `#if` read from the source, as a machine that compiles none of those branches
#    does: a catalog written on Linux is current on macOS and in release);
# 3. the fixture's tests pass: one validation run finds the cycle, the captive
#    dependency, the unregistered promise and the async factory that throws, each
#    once with every chain that reached it, lists the parameter factories without a
#    sample as unchecked, and builds the main-actor factory on the main actor (Swift
#    Testing and XCTest); the tests also build in release with testing enabled,
#    where the `#if DEBUG` factories do not exist;
# 4. a factory added without regenerating: --check fails, naming it and its file;
# 5. a catalog that lists a factory the code no longer declares, or with another
#    access level: --check fails, naming it as stale or changed.
#
# Tests/ModularFixture, an app in four modules (`--test-target ShopTests`):
# 6. generate and check the one catalog of every module ShopTests reaches; its tests
#    find the promise nobody registers once, with its three chains, and draw one
#    graph with a subgraph per module; `--target` on a module no test target depends
#    on directly names the test target that reaches it; a factory added under `#if`
#    in one module makes --check fail naming its module, condition and file:line.
#
# The check output the DocC article "Checking the whole graph" shows must match
# step 4's (scripts/compare-output.py), its report the fixture's (a test there), and
# the Swift snippets of that article and of "Modular apps" type-check
# (scripts/check-readme.sh).
#
#     scripts/check-catalog.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/Tests/CatalogFixture"
export SWIFT_BACKTRACE=enable=no

catalog=Tests/FixtureAppTests/FactoryCatalog+FixtureApp.swift
added=Sources/FixtureApp/AddedLater.swift
article="$root/Sources/FactoryTesting/FactoryTesting.docc/CheckingTheWholeGraph.md"
modular_article="$root/Sources/FactoryTesting/FactoryTesting.docc/ModularApps.md"
plugin=(swift package --allow-writing-to-package-directory factory-catalog --target FixtureApp)
work="$(mktemp -d)"
later="$root/Tests/ModularFixture/Sources/ShopData/AddedLater.swift"
trap 'rm -f "$added" "$later"; rm -rf "$work"' EXIT

# shellcheck source=expect.sh
source "$root/scripts/expect.sh"
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
expect "$work/generate.txt" "wrote $catalog: 28 factories of 3 containers, 4 skipped"
expect "$work/generate.txt" "skipped Container.salt (fileprivate): a test target cannot reach it"
expect "$work/generate.txt" "skipped Container.secretKey (private): a test target cannot reach it"
expect "$work/generate.txt" \
    "skipped Container.unreachableLog (private, Sources/FixtureApp/Container+Conditional.swift:43): a test target cannot reach it"
if grep -q "^note:" "$work/generate.txt"; then fail "the plugin printed notes:" "$work/generate.txt"; fi
# Both branches of `#if os(Linux)`, the one this machine compiles and the other, and a container of macOS only.
expect "$catalog" '        #if !os(Linux)'
expect "$catalog" '        #if os(Linux)'
expect "$catalog" '        #if !(os(iOS) || os(tvOS)) && canImport(Glibc) && DEBUG'
expect "$catalog" '        $0.factory("MenuBarContainer.statusItem", \MenuBarContainer.statusItem, access: .internal)'

echo "== 2. check, current"
"${plugin[@]}" --check > "$work/current.txt" 2>&1 || fail "--check failed on the current catalog:" "$work/current.txt"
expect "$work/current.txt" "$catalog is current: 28 factories of 3 containers, 4 skipped"
"${plugin[@]}" --check --conditional-from-source > "$work/source.txt" 2>&1 \
    || fail "--check failed with every conditional factory read from the source:" "$work/source.txt"

echo "== 3. the fixture's tests, and their release build"
swift test > "$work/test.txt" 2>&1 || fail "the fixture's tests failed:" "$work/test.txt"
expect "$work/test.txt" "Test run with 8 tests in 2 suites passed"
expect "$work/test.txt" "Executed 2 tests, with 0 failures"
swift build --build-tests -c release -Xswiftc -enable-testing > "$work/release.txt" 2>&1 \
    || fail "the fixture's tests do not build in release:" "$work/release.txt"

echo "== 4. a factory added without regenerating"
cp Added/AddedLater.swift "$added"
check_fails added
expect "$work/added.txt" "missing: FeatureContainer.addedLater in FixtureApp, internal Factory (Sources/FixtureApp/AddedLater.swift:6)"
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
expect "$work/stale.txt" "stale: Container.removedLongAgo in FixtureApp, listed at $work/Stale.swift:18 but no longer declared"
expect "$work/stale.txt" \
    'changed: Container.api in FixtureApp (Sources/FixtureApp/Container+App.swift:10): the catalog says `$0.factory("Container.api", \Container.api, access: .internal)`'

echo "== 6. an app in modules: one catalog for the test target"
cd "$root/Tests/ModularFixture"
shop=(swift package --allow-writing-to-package-directory factory-catalog --test-target ShopTests)
shop_catalog=Tests/ShopTests/FactoryCatalog+ShopTests.swift
"${shop[@]}" > "$work/shop.txt" 2>&1 || fail "generating the modular catalog failed:" "$work/shop.txt"
git diff --exit-code -- "$shop_catalog" || fail "the generated modular catalog is not the checked-in one (diff above)"
swift format lint --strict --configuration "$root/.swift-format" "$shop_catalog" \
    || fail "the modular catalog is not lint-clean"
expect "$work/shop.txt" \
    "wrote $shop_catalog: 9 factories of 2 containers, 1 skipped, in the 4 modules ShopTests depends on"
expect "$work/shop.txt" "skipped CheckoutContainer.printerFirmware (in ShopData, private): a test target cannot reach it"
"${shop[@]}" --check --conditional-from-source > "$work/shop-current.txt" 2>&1 \
    || fail "--check failed on the modular catalog:" "$work/shop-current.txt"
if swift package --allow-writing-to-package-directory factory-catalog --target ShopDomain > "$work/direct.txt" 2>&1; then
    fail "--target ShopDomain found a test target that depends on it directly:" "$work/direct.txt"
fi
expect "$work/direct.txt" "error: factory-catalog: no test target depends on ShopDomain directly; ShopTests reaches it through other targets. Catalog every module a test target reaches with --test-target ShopTests"
swift test > "$work/shop-test.txt" 2>&1 || fail "the modular fixture's tests failed:" "$work/shop-test.txt"
expect "$work/shop-test.txt" "Test run with 6 tests in 2 suites passed"
cat > "$later" <<'SWIFT'
import FactoryKit
import ShopCheckout

extension CheckoutContainer {
    #if DEBUG
    var coupons: Factory<String> {
        self { "none" }
    }
    #endif
}
SWIFT
if "${shop[@]}" --check > "$work/shop-added.txt" 2>&1; then
    fail "--check passed with a factory added to ShopData:" "$work/shop-added.txt"
fi
expect "$work/shop-added.txt" \
    "missing: CheckoutContainer.coupons in ShopData under #if DEBUG, internal Factory (Sources/ShopData/AddedLater.swift:6)"
rm "$later"

echo "== 7. the articles' snippets type-check"
"$root/scripts/check-readme.sh" "$article"
"$root/scripts/check-readme.sh" "$modular_article"

echo "check-catalog: generate, check (current, from the source, missing, stale, changed), the fixtures' validation and the modular catalog behave as expected"
