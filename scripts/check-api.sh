#!/usr/bin/env bash
# Guards the public API of every library product against the last release.
#
# api/<Module>.json is the module's public API as the toolchain's swift-api-digester
# dumped it from the release's debug build (`scripts/check-api.sh --update`, run when a
# version is released; api/RELEASE names the version). The check dumps the API of the
# current debug build (run `swift build` first) and lists every breaking change against
# that baseline: a removed or renamed declaration, a changed type or signature, a lost
# conformance. Each must be listed, as the line printed here, in CHANGELOG.md's
# `## [Unreleased]` section; an unlisted one fails the check. Additions are not breaking
# and are not checked.
#
#     scripts/check-api.sh              check
#     scripts/check-api.sh --update     record the current API as the baseline (a release)
#     scripts/check-api.sh --self-test  check a baseline in which one public method has
#                                       another name: the check must fail, naming it
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(FactoryCore FactoryScopes FactoryWrappers FactoryTesting FactoryKit FactoryProfiling)
digester="$(dirname "$(readlink -f "$(command -v swift)")")/swift-api-digester"
bin="$(swift build --show-bin-path)"
includes=(-I "$bin/Modules" -I "$bin")
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

for module in "${modules[@]}"; do
    if [[ ! -e "$bin/Modules/$module.swiftmodule" ]]; then
        echo "check-api: $module is not built; run \`swift build\` first" >&2
        exit 1
    fi
done

# `dump MODULE OUTPUT`: the module's public API. The digester's dump has the `package` and
# `@usableFromInline` declarations too (`isInternal`): not the public API, and free to
# change, so they are left out of the baseline and of what is compared with it.
dump() {
    "$digester" -dump-sdk -avoid-location -avoid-tool-args -module "$1" "${includes[@]}" -o "$work/raw.json"
    python3 - "$work/raw.json" "$2" <<'EOF'
import json, sys
def public(node):
    node["children"] = [public(child) for child in node.get("children", []) if not child.get("isInternal")]
    if not node["children"]:
        del node["children"]
    return node
root = json.load(open(sys.argv[1]))
public(root["ABIRoot"])
json.dump(root, open(sys.argv[2], "w"), indent=1, sort_keys=True)
EOF
}

if [[ "${1:-}" == "--update" ]]; then
    mkdir -p api
    for module in "${modules[@]}"; do dump "$module" "api/$module.json"; done
    echo "check-api: recorded the API of ${modules[*]} in api/"
    exit 0
fi

baselines=api
if [[ "${1:-}" == "--self-test" ]]; then
    # The baseline as it would be had `ContainerManager.reset(options:)` been called
    # `resetAll(options:)` at the release: to the check, a rename of a public method.
    cp -r api "$work/baseline"
    python3 - "$work/baseline/FactoryCore.json" <<'EOF'
import json, sys
path = sys.argv[1]
root = json.load(open(path))
def rename(node, parent):
    for child in node.get("children", []):
        if parent == "ContainerManager" and child.get("printedName") == "reset(options:)":
            child["printedName"] = "resetAll(options:)"
            child["name"] = "resetAll"
            return True
        if rename(child, child.get("name")):
            return True
    return False
assert rename(root["ABIRoot"], None), "ContainerManager.reset(options:) is not in the baseline"
json.dump(root, open(path, "w"))
EOF
    baselines="$work/baseline"
    if "$0" --baselines "$baselines" > "$work/self-test.txt" 2>&1; then
        cat "$work/self-test.txt"
        echo "check-api: self-test: a renamed public method passed the check" >&2
        exit 1
    fi
    if ! grep -q "resetAll(options:) has been renamed" "$work/self-test.txt"; then
        cat "$work/self-test.txt"
        echo "check-api: self-test: the check failed without naming the renamed method" >&2
        exit 1
    fi
    grep -E "^(  |check-api)" "$work/self-test.txt" | sed 's/^/self-test: /'
    echo "check-api: self-test: a renamed public method fails the check, as it should"
    exit 0
fi
if [[ "${1:-}" == "--baselines" ]]; then baselines="$2"; fi

# The changelog's next version: what follows `## [Unreleased]` up to the next version.
unreleased="$(awk '/^## \[Unreleased\]/ { on = 1; next } /^## / { on = 0 } on' CHANGELOG.md)"

unlisted=0
listed=0
for module in "${modules[@]}"; do
    if [[ ! -e "$baselines/$module.json" ]]; then
        echo "check-api: no baseline for $module ($baselines/$module.json); a new product is no breaking change"
        continue
    fi
    dump "$module" "$work/$module.json"
    "$digester" -diagnose-sdk -input-paths "$baselines/$module.json" -input-paths "$work/$module.json" \
        > "$work/$module.diagnostics" 2>&1
    # The report's section headers (`/* Removed Decls */`) and blank lines are not findings.
    while IFS= read -r change; do
        if grep -qF -- "$change" <<< "$unreleased"; then
            echo "  $module: $change (listed in CHANGELOG.md)"
            listed=$((listed + 1))
        else
            echo "  $module: $change"
            unlisted=$((unlisted + 1))
        fi
    done < <(grep -vE '^\s*$|^/\*.*\*/$' "$work/$module.diagnostics" || true)
done

if [[ $unlisted -gt 0 ]]; then
    echo "check-api: $unlisted breaking change(s) to the public API since $(cat api/RELEASE) not listed in CHANGELOG.md's [Unreleased] section (above)." >&2
    echo "check-api: restore the API, or list each line above there with what users must change." >&2
    exit 1
fi
if [[ $listed -gt 0 ]]; then
    echo "check-api: $listed breaking change(s) since $(cat api/RELEASE), each listed in CHANGELOG.md's [Unreleased] section"
else
    echo "check-api: the public API of ${modules[*]} keeps every declaration of $(cat api/RELEASE)"
fi
