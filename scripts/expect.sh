# Sourced by the check scripts: how they fail and what they expect of an output.

# `fail MESSAGE [FILE]`: prints MESSAGE, prefixed with the script's name, and FILE; exits 1.
fail() {
    echo "$(basename "$0" .sh): $1" >&2
    [[ -n "${2:-}" && -e "$2" ]] && cat "$2" >&2
    exit 1
}

# `expect FILE TEXT`: FILE has a line containing TEXT.
expect() {
    grep -qF -- "$2" "$1" || fail "expected a line with '$2' in:" "$1"
}
