#!/usr/bin/env bash
# Runs a command with a time limit, so that a hang fails CI quickly and says where
# it hung instead of using up the whole run:
#
#     scripts/bounded.sh SECONDS COMMAND...
#
# When the command is still running after SECONDS, every thread's stack of each
# process of its session is printed (gdb, installed from Debian if missing), then
# they are killed and the script exits 124. Otherwise it exits with the command's
# status. The command runs in a session of its own so that a process it started
# and lost (an orphan that still holds its output open) is found and killed too.
set -uo pipefail
limit="$1"
shift

print_stacks() {
    if ! command -v gdb >/dev/null 2>&1; then
        (apt-get install -y -q gdb >/dev/null 2>&1 || (apt-get update -q >/dev/null 2>&1 &&
            apt-get install -y -q gdb >/dev/null 2>&1)) || echo "(gdb is not available: no stacks)"
    fi
    command -v gdb >/dev/null 2>&1 || return 0
    local process
    for process in "$@"; do
        echo "--- process $process: $(tr '\0' ' ' <"/proc/$process/cmdline" 2>/dev/null)"
        timeout 300 gdb -p "$process" -batch -nx -iex "set auto-load off" -ex "thread apply all bt 40" 2>&1 |
            grep -vE "^\[(New LWP|Thread debugging|Inferior)|^Using host libthread_db|No such file or directory"
    done
}

# A background job of a script is not a group leader, so setsid(1) makes the
# session in place: its id is the command's pid.
setsid "$@" &
pid=$!
deadline=$((SECONDS + limit))
while kill -0 "$pid" 2>/dev/null; do
    if [ "$SECONDS" -ge "$deadline" ]; then
        echo "error: still running after ${limit}s, so it hung: $*"
        mapfile -t processes < <(pgrep -s "$pid")
        # Stop them first, so that each process's stacks are from one moment.
        kill -STOP "${processes[@]}" 2>/dev/null
        print_stacks "${processes[@]}"
        kill -KILL "${processes[@]}" 2>/dev/null
        wait "$pid" 2>/dev/null
        exit 124
    fi
    sleep 1
done
wait "$pid"
status=$?
# What the command left running would hold its output open.
pkill -KILL -s "$pid" 2>/dev/null
exit "$status"
