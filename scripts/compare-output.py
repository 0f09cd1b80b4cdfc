#!/usr/bin/env python3
"""Compares an output sample from the documentation with the output of a real run.

    scripts/compare-output.py SAMPLE ACTUAL [LABEL]

Both files are read as lines with trailing blanks removed. What legitimately changes
from run to run is masked on both sides before comparing: numbers of six digits or
more (object addresses, instance tags) become <n>. A sample line that is exactly
`...` stands for any number of output lines (zero included), so a sample can leave
out uninteresting parts; every other line must match, in order. Exits 1 with a diff
when the sample no longer matches.
"""
import difflib
import re
import sys

LONG_NUMBER = re.compile(r"\d{6,}")
SOURCE_LINE = re.compile(r"(\.swift):\d+(:\d+)?")


def lines(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    return [
        SOURCE_LINE.sub(r"\1:<line>", LONG_NUMBER.sub("<n>", line.rstrip()))
        for line in text.rstrip("\n").split("\n")
    ]


def matches(sample, actual):
    # Backtracking over `...` lines; samples are short.
    if not sample:
        return not actual
    if sample[0] == "...":
        return any(matches(sample[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and sample[0] == actual[0] and matches(sample[1:], actual[1:])


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 64
    sample, actual = lines(sys.argv[1]), lines(sys.argv[2])
    label = sys.argv[3] if len(sys.argv) > 3 else sys.argv[1]
    if matches(sample, actual):
        return 0
    print(f"{label}: the output sample does not match a real run (numbers of 6+ digits masked as <n>, source lines as <line>):")
    for line in difflib.unified_diff(sample, actual, "sample", "real run", lineterm=""):
        print("    " + line)
    return 1


if __name__ == "__main__":
    sys.exit(main())
