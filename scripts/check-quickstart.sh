#!/usr/bin/env bash
# The README's first five minutes, as a newcomer pastes them: a new package made of
# exactly the README's blocks marked `<!-- file: PATH -->` (Package.swift, the Quick
# start's sources and its test), built, run and tested.
#
# The Install block depends on the package's published URL at the version the README
# names. With no network, that URL is mirrored (`swift package config set-mirror`) to a
# clone of this repository's HEAD tagged with that version, so SwiftPM resolves the
# dependency exactly as written. Commit first: the clone takes HEAD, not the working tree.
set -euo pipefail
cd "$(dirname "$0")/.."

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
app="$work/app"
mkdir -p "$app"

# Each `<!-- file: PATH -->` block (a `<!-- snippet: ... -->` line may stand between the
# two) is appended to PATH in the new package; the `<!-- output -->` sample after the
# run block is what the app must print.
awk -v app="$app" '
    /^<!-- file: [^ ]+ -->$/ { file = $3; next }
    /^<!-- snippet: [a-z ]+ -->$/ { next }
    /^```swift$/ && file != "" { inside = 1; path = app "/" file; system("mkdir -p \"$(dirname \"" path "\")\""); next }
    /^```/ && inside { inside = 0; file = ""; next }
    inside { print >> path; next }
    /^<!-- output -->$/ { output = 1; next }
    /^```/ && output == 1 { output = 2; next }
    /^```/ && output == 2 { output = 3; next }
    output == 2 { print >> (app "/.expected-output") }
    !/^[[:space:]]*$/ { file = "" }
' README.md

for required in Package.swift Sources/App/main.swift Tests/AppTests/ForecastTests.swift; do
    if [[ ! -s "$app/$required" ]]; then
        echo "check-quickstart: README.md has no block marked <!-- file: $required -->" >&2
        exit 1
    fi
done

url="$(sed -n 's|.*\.package(url: "\([^"]*\)", from: "\([^"]*\)").*|\1|p' "$app/Package.swift")"
version="$(sed -n 's|.*\.package(url: "\([^"]*\)", from: "\([^"]*\)").*|\2|p' "$app/Package.swift")"
if [[ -z "$url" || -z "$version" ]]; then
    echo "check-quickstart: the Install block has no .package(url:from:) dependency" >&2
    exit 1
fi
if [[ "$version" != "$(cat api/RELEASE)" ]]; then
    echo "check-quickstart: the README installs $version, the release is $(cat api/RELEASE) (api/RELEASE)" >&2
    exit 1
fi

git clone --quiet "$PWD" "$work/factory"
git -C "$work/factory" tag -f "$version" > /dev/null
swift package --package-path "$app" config set-mirror --original "$url" --mirror "$work/factory"

echo "check-quickstart: a new package from README.md's blocks: $(cd "$app" && find . -name '*.swift' -not -path './.build/*' | sort | tr '\n' ' ')"
(
    cd "$app"
    swift build --build-tests
    swift run App > "$work/run.txt"
    cat "$work/run.txt"
    if ! diff -u .expected-output "$work/run.txt"; then
        echo "check-quickstart: the app did not print the README's output sample" >&2
        exit 1
    fi
    swift test --skip-build
)
echo "check-quickstart: README.md's Install, Quick start and test build, run and pass as pasted"
