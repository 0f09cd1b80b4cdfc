#!/usr/bin/env python3
"""Draws a FactoryProfile's Chrome trace (`profile.chromeTrace()`) as an SVG flame chart, the way Perfetto lays it
out: one band per track (thread, or an async factory's tasks), a build's slice under the build it ran inside, and
waits in grey. Used for the picture of the "Profiling start-up" article:

    swift run FactoryDemo --profile /tmp/startup.json
    scripts/flame-chart.py /tmp/startup.json Sources/FactoryCore/FactoryCore.docc/Resources/startup-profile.svg
"""
import json
import sys
from xml.sax.saxutils import escape

ROW, GAP, LABEL, WIDTH, AXIS = 22, 14, 150, 900, 28
PALETTE = ["#f4a259", "#e76f51", "#f6bd60", "#e9c46a", "#f28482", "#f7a072", "#eddea4", "#f5cac3"]


def main(source, target):
    trace = json.load(open(source))
    events = trace["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"}
    slices = [e for e in events if e.get("ph") == "X"]
    if not slices:
        sys.exit("flame-chart: no slices in " + source)
    end = max(s["ts"] + s["dur"] for s in slices)
    scale = (WIDTH - LABEL - 20) / end
    tracks = sorted({s["tid"] for s in slices})
    parts, y = [], AXIS
    for tid in tracks:
        mine = sorted((s for s in slices if s["tid"] == tid), key=lambda s: (s["ts"], -s["dur"]))
        # A slice's row is the number of slices on its track that hold it.
        open_ends, rows = [], []
        for s in mine:
            open_ends = [e for e in open_ends if e > s["ts"]]
            rows.append(len(open_ends))
            open_ends.append(s["ts"] + s["dur"])
        depth = max(rows) + 1
        parts.append(f'<text x="8" y="{y + 15}" class="track">{escape(names.get(tid, f"track {tid}"))}</text>')
        for s, row in zip(mine, rows):
            x, w = LABEL + s["ts"] * scale, max(1.0, s["dur"] * scale)
            top = y + row * ROW
            wait = s.get("cat") == "wait"
            fill = "#c8c8c8" if wait else PALETTE[sum(map(ord, s["name"])) % len(PALETTE)]
            title = f'{s["name"]}: {s["dur"] / 1000:.1f} ms'
            parts.append(
                f'<g><title>{escape(title)}</title><rect x="{x:.1f}" y="{top}" width="{w:.1f}" height="{ROW - 2}" '
                f'fill="{fill}" rx="2"/>'
            )
            label = short(s["name"])
            if len(label) * 6.2 < w - 6:
                parts.append(f'<text x="{x + 4:.1f}" y="{top + 15}" class="slice">{escape(label)}</text>')
            parts.append("</g>")
        y += depth * ROW + GAP
    ticks = []
    step = nice_step(end / 1000)
    t = 0.0
    while t * 1000 <= end:
        x = LABEL + t * 1000 * scale
        ticks.append(f'<line x1="{x:.1f}" y1="{AXIS - 6}" x2="{x:.1f}" y2="{y - GAP}" class="grid"/>')
        ticks.append(f'<text x="{x + 2:.1f}" y="{AXIS - 10}" class="tick">{t:g} ms</text>')
        t += step
    height = y + 4
    svg = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" '
        'font-family="-apple-system, Helvetica, Arial, sans-serif">',
        "<style>.track{font-size:12px;fill:#333}.slice{font-size:11px;fill:#222}.tick{font-size:10px;fill:#666}"
        ".grid{stroke:#e4e4e4;stroke-width:1}</style>",
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        *ticks,
        *parts,
        "</svg>",
    ]
    open(target, "w").write("\n".join(svg) + "\n")


def short(name):
    """`Container.catalog<Catalog>` -> `catalog`; `wait for Container.catalog<Catalog>` -> `wait for catalog`."""
    prefix = "wait for " if name.startswith("wait for ") else ""
    core = name[len(prefix):]
    return prefix + core.split("<")[0].split(".")[-1]


def nice_step(total_ms):
    for step in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000):
        if total_ms / step <= 10:
            return step
    return 1000


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: flame-chart.py TRACE.json OUT.svg")
    main(sys.argv[1], sys.argv[2])
