#!/usr/bin/env bash
# An app whose features are dynamic libraries (Tests/DynamicProduct: two feature
# libraries and the module they share, each `type: .dynamic`, and an executable in a
# package of its own), built twice, debug:
#
# 1. the features link the static FactoryKit (`--traits StaticFactory`): the known
#    failure. Each library carries a copy of Factory; at its first container the
#    library stops the program (a DEBUG build), naming two of the three images that
#    hold a copy. With FACTORY_ALLOW_LIBRARY_COPIES=1 it runs, and shows what the copies do:
#    two `Container.shared`, two singletons, a registration one feature does not see, and
#    a profile (FactoryProfiling) that does not see the other feature's builds.
# 2. they link FactoryKitDynamic (the default trait): one copy, nothing reported, one
#    `Container.shared`, one singleton, a registration made in one feature is
#    resolved in the other, and a profile recorded in one sees the other's build
#    (FactoryKitDynamic has FactoryProfiling too).
#
# Linux (the images are `.so` files; `ldd` shows what the features link).
#
#     scripts/check-dynamic-product.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/Tests/DynamicProduct/App"
export SWIFT_BACKTRACE=enable=no
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# shellcheck source=expect.sh
source "$root/scripts/expect.sh"
# `build NAME [FLAGS...]`: builds the app into .build-NAME, failing on a warning in these packages' own files.
build() {
    local name="$1"
    shift
    swift build --scratch-path ".build-$name" "$@" > "$work/build-$name.txt" 2>&1 \
        || fail "the $name build failed:" "$work/build-$name.txt"
    if grep -E "^$root/Tests/DynamicProduct/[^:]+:[0-9]+:[0-9]+: warning:" "$work/build-$name.txt"; then
        fail "the $name build has compiler warnings (above)"
    fi
}

echo "== 1. static products: a copy of Factory in each library (the known failure)"
build static --traits StaticFactory
app=".build-static/debug/CopiesApp"
# (In a command substitution whose stderr is dropped, so bash's own "Illegal instruction" is not printed.)
status="$( { "$app" > "$work/static.txt" 2>&1 && echo 0 || echo $?; } 2> /dev/null)"
if [[ $status -eq 0 ]]; then
    fail "two copies of the library ran without a word:" "$work/static.txt"
fi
expect "$work/static.txt" "FactoryCore: this process has loaded more than one copy of the Factory library"
# The first copy (FeatureA's, the first library the executable loads) and the next one.
for image in libFeatureA.so libFeatureB.so; do
    expect "$work/static.txt" "/debug/$image"
done
expect "$work/static.txt" "FACTORY_ALLOW_LIBRARY_COPIES=1"
FACTORY_ALLOW_LIBRARY_COPIES=1 "$app" > "$work/allowed.txt" 2>&1 || fail "the allowed run failed:" "$work/allowed.txt"
expect "$work/allowed.txt" "Container.shared: two instances"
expect "$work/allowed.txt" "clock singleton: two instances"
expect "$work/allowed.txt" "a clock registered in FeatureA, resolved in FeatureB: real"
expect "$work/allowed.txt" "builds in FeatureB that a profile recorded in FeatureA: 0"
if grep -q "copies of the Factory library" "$work/allowed.txt"; then
    fail "FACTORY_ALLOW_LIBRARY_COPIES=1 did not silence the report:" "$work/allowed.txt"
fi

echo "== 2. FactoryKitDynamic: one copy"
build dynamic
"$root/Tests/DynamicProduct/App/.build-dynamic/debug/CopiesApp" > "$work/dynamic.txt" 2>&1 \
    || fail "the app failed with the dynamic product:" "$work/dynamic.txt"
expect "$work/dynamic.txt" "Container.shared: one instance"
expect "$work/dynamic.txt" "clock singleton: one instance"
expect "$work/dynamic.txt" "a clock registered in FeatureA, resolved in FeatureB: mock from FeatureA"
expect "$work/dynamic.txt" "builds in FeatureB that a profile recorded in FeatureA: 1"
if grep -q "copies of the Factory library" "$work/dynamic.txt"; then
    fail "one copy was reported as several:" "$work/dynamic.txt"
fi
ldd ".build-dynamic/debug/libFeatureA.so" > "$work/ldd.txt" 2>&1 || true
expect "$work/ldd.txt" "libFactoryKitDynamic.so"

echo "check-dynamic-product: static products report their copies and show them; FactoryKitDynamic gives one copy"
