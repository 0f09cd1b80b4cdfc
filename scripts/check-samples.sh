#!/usr/bin/env bash
# Checks the output samples of Markdown files against real runs.
#
# A fenced block preceded by a marker comment
#
#     <!-- output: COMMAND -->
#
# is the output of COMMAND, run with bash in the Markdown file's folder, standard
# output and standard error together. The check fails unless the real output
# matches the block (scripts/compare-output.py: addresses and other numbers of six
# digits or more are masked, and a `...` line stands for any lines). The command is
# run as written; build what it needs first (the examples' ci.sh do).
#
#     scripts/check-samples.sh Examples/CLITool/README.md [more.md ...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
compare="$root/scripts/compare-output.py"

failed=0
count=0
for file in "$@"; do
    dir="$(cd "$(dirname "$file")" && pwd)"
    work="$(mktemp -d)"
    # Split into work/N.cmd (the command) and work/N.sample (the block).
    awk -v work="$work" '
        /^<!-- output: .* -->$/ {
            n++
            cmd = $0
            sub(/^<!-- output: /, "", cmd)
            sub(/ -->$/, "", cmd)
            print cmd > (work "/" n ".cmd")
            print NR > (work "/" n ".line")
            pending = 1
            next
        }
        /^```/ && capturing { capturing = 0; close(work "/" n ".sample"); next }
        capturing { print > (work "/" n ".sample"); next }
        /^```/ && pending { capturing = 1; pending = 0; printf "" > (work "/" n ".sample"); next }
        !/^[[:space:]]*$/ { pending = 0 }
    ' "$file"
    for cmd_file in "$work"/*.cmd; do
        [[ -e "$cmd_file" ]] || continue
        n="$(basename "$cmd_file" .cmd)"
        line="$(cat "$work/$n.line")"
        if [[ ! -e "$work/$n.sample" ]]; then
            echo "check-samples: $file:$line: the marker is not followed by a fenced block" >&2
            failed=$((failed + 1))
            continue
        fi
        count=$((count + 1))
        status=0
        (cd "$dir" && bash -c "$(cat "$cmd_file")") > "$work/$n.actual" 2>&1 || status=$?
        if [[ $status -ne 0 ]]; then
            echo "check-samples: $file:$line: \`$(cat "$cmd_file")\` exited with status $status:" >&2
            cat "$work/$n.actual" >&2
            failed=$((failed + 1))
        elif ! "$compare" "$work/$n.sample" "$work/$n.actual" "$file:$line (\`$(cat "$cmd_file")\`)" >&2; then
            failed=$((failed + 1))
        fi
    done
    rm -rf "$work"
done

if [[ $failed -gt 0 ]]; then
    echo "check-samples: $failed of $count output samples do not match" >&2
    exit 1
fi
echo "check-samples: $count output samples match a real run"
