#!/usr/bin/env python3
"""Checks FactoryDemo's step 8, the profile of a shop's start-up, from a real run:

    swift run FactoryDemo --profile /tmp/startup.json > /tmp/demo.txt
    scripts/check-demo-profile.py /tmp/demo.txt /tmp/startup.json

The summary names each of the five factories the start-up built, once each, with total
and self times (self no more than total; the database's 20 ms and the catalog's 10 ms of
sleep at least), the largest self time first; the tree nests database under catalog
under recommendations, and imageCache under storefront, with the main thread's waits;
the Chrome trace has one complete event per build, with the trace-event format's fields.
"""
import json
import re
import sys

FACTORIES = ["database", "catalog", "recommendations", "storefront", "imageCache"]


def milliseconds(text):
    number, unit = text.split()
    return float(number) * {"µs": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def fail(message):
    sys.exit(f"check-demo-profile: {message}")


def main(output_path, trace_path):
    lines = open(output_path, encoding="utf-8").read().splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("== 8.")), None)
    if start is None:
        fail("no step 8 in the demo's output")
    step = [line.strip() for line in lines[start + 1:]]
    if not step[0].startswith("5 builds of 5 factories in "):
        fail(f"summary header: {step[0]!r}")
    rows = {}
    selfs = []
    for line in step[2:7]:
        match = re.match(r"^(\d+)\s+([\d.]+ (?:µs|ms|s))\s+([\d.]+ (?:µs|ms|s))\s+(\w+)\s+(main|thread \d+)\s+Container\.(\w+)<", line)
        if not match:
            fail(f"summary line: {line!r}")
        count, total, self_time, _, _, name = match.groups()
        rows[name] = (int(count), milliseconds(total), milliseconds(self_time))
        selfs.append(milliseconds(self_time))
    if sorted(rows) != sorted(FACTORIES) or any(count != 1 for count, _, _ in rows.values()):
        fail(f"the summary's factories and counts: {rows}")
    if any(self_time > total for _, total, self_time in rows.values()):
        fail("a self time above its total")
    if selfs != sorted(selfs, reverse=True):
        fail("the summary is not in order of self time")
    if rows["database"][2] < 20 or rows["catalog"][2] < 10 or rows["catalog"][1] < 30:
        fail(f"the sleeps are not in the times: {rows}")
    tree = lines[lines.index("  Who built what:") + 1:]
    depth = {}
    for line in tree:
        match = re.match(r"^( *)Container\.(\w+)<", line)
        if match:
            depth[match.group(2)] = (len(match.group(1)) - 4) // 4
    expected = {"recommendations": 0, "catalog": 1, "database": 2, "storefront": 0, "imageCache": 1}
    if depth != expected:
        fail(f"the tree's nesting: {depth}, expected {expected}")
    if not any("waited for by main" in line for line in tree):
        fail("the tree shows no wait of the main thread")
    trace = json.load(open(trace_path, encoding="utf-8"))
    builds = [e for e in trace["traceEvents"] if e.get("ph") == "X" and e.get("cat") == "build"]
    if len(builds) != 5:
        fail(f"{len(builds)} build events in the trace")
    for event in trace["traceEvents"]:
        if event.get("ph") == "X" and not all(key in event for key in ("name", "ph", "ts", "dur", "pid", "tid")):
            fail(f"a trace event without the format's fields: {event}")
    print("check-demo-profile: FactoryDemo's start-up profile names its 5 builds, nested, in order of self time")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
