#!/usr/bin/env bash
# Line coverage of the library (Sources/) by the whole test suite, and the functions
# of Sources/ that no test runs.
#
#     scripts/coverage.sh            # build with coverage, run `swift test`, report
#     scripts/coverage.sh --report   # report on the last run only
#
# The instrumented build has its own scratch folder (.build-coverage, git-ignored),
# so it does not invalidate the main .build. Prints `llvm-cov report`'s table for
# Sources/ (the TOTAL line is the figure CONTRIBUTING.md quotes), then every function
# of Sources/ with an execution count of zero, demangled, by file. Code that runs
# only in an exit test's child process that crashes (as it is meant to) writes no
# profile and counts as not run.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-coverage
if [[ "${1:-}" != "--report" ]]; then
    # A failing test still leaves its profile: report anyway, and fail at the end.
    status=0
    swift test --enable-code-coverage --scratch-path "$scratch" || status=$?
else
    status=0
fi

# The toolchain's own llvm-cov and swift-demangle: another llvm-cov on the PATH may not
# read the profile format this compiler writes.
tools="$(dirname "$(readlink -f "$(command -v swift)")")"
bin="$(swift build --show-bin-path --scratch-path "$scratch")"
profile="$bin/codecov/default.profdata"
tests="$bin/FactoryPackageTests.xctest"
[[ -f "$profile" ]] || { echo "error: no profile at $profile: run without --report first" >&2; exit 1; }

echo "=== line coverage of Sources/"
"$tools/llvm-cov" report "$tests" -instr-profile "$profile" -ignore-filename-regex '/(\.build[^/]*|Tests|Examples|Benchmarks|Plugins)/' \
    "$PWD/Sources"

echo
echo "=== functions of Sources/ no test runs"
"$tools/llvm-cov" export "$tests" -instr-profile "$profile" -format=text -skip-expansions -skip-functions=false \
    -ignore-filename-regex '/(\.build[^/]*|Tests|Examples|Benchmarks|Plugins)/' "$PWD/Sources" |
    python3 -c '
import json, sys, subprocess, collections
data = json.load(sys.stdin)
root = sys.argv[1] + "/"
# A function emitted into several modules (inlinable, emitted into clients) has a record in
# each: it ran if any of them did.
counts = collections.defaultdict(int)
places = {}
for export in data["data"]:
    for function in export["functions"]:
        files = [f for f in function["filenames"] if f.startswith(root + "Sources/")]
        if files:
            name = function["name"].split(":")[-1]
            counts[name] = max(counts[name], function["count"])
            places[name] = files[0][len(root):]
unrun = collections.defaultdict(set)
for name, count in counts.items():
    if count == 0:
        unrun[places[name]].add(name)
names = sorted({n for names in unrun.values() for n in names})
demangled = dict(zip(names, subprocess.run([sys.argv[2] + "/swift-demangle", "--simplified", "--compact"], input="\n".join(names),
    capture_output=True, text=True).stdout.splitlines())) if names else {}
total = 0
for path in sorted(unrun):
    print(path)
    for line in sorted({demangled.get(n, n) for n in unrun[path]}):
        print("   ", line)
        total += 1
print(f"{total} functions of Sources/ not run")
' "$PWD" "$tools"
exit $status
