#!/usr/bin/env python3
"""Draws a SPERLI trace (Chrome Trace Event JSON, as `sperli run --trace` and the test kit write it) as a PNG,
headless: the standard library writes an SVG, rsvg-convert (Debian: librsvg2-bin) turns it into the PNG.

One block of rows per rank (pid), one row per thread of the rank that traced something (tid), nested spans one
level lower each; a box per span, coloured by its category, with its name where it fits; instants as marks (a
killed rank as a red cross); the incarnations' starts as dashed lines across all ranks. Perfetto shows the same file
with zoom and every argument; this is for a page of documentation.

usage: trace-png.py TRACE.json OUT.png [--title TEXT] [--width PIXELS] [--svg OUT.svg]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from xml.sax.saxutils import escape

COLOURS = {
    "program": "#e8e8e8",
    "setup": "#7aa6d8",
    "p2p": "#6cbf6c",
    "collective": "#f0a24a",
    "checkpoint": "#a57ad0",
    "fault": "#d63b3b",
}
ROW = 15
LEFT = 190
RIGHT = 20
TOP = 58
BOTTOM = 64


def load(path):
    with open(path, encoding="utf-8") as f:
        events = json.load(f)["traceEvents"]
    names, threads, spans, instants = {}, {}, [], []
    for e in events:
        if e["ph"] == "M" and e["name"] == "process_name":
            names[e["pid"]] = e["args"]["name"]
        elif e["ph"] == "M" and e["name"] == "thread_name":
            threads[(e["pid"], e["tid"])] = e["args"]["name"]
        elif e["ph"] == "X":
            spans.append(e)
        elif e["ph"] == "i":
            instants.append(e)
    return names, threads, spans, instants


def depths(spans):
    """Each span's nesting level on its track: the spans still open when it starts."""
    level = {}
    by_track = {}
    for s in sorted(spans, key=lambda s: (s["ts"], -s["dur"])):
        by_track.setdefault((s["pid"], s["tid"]), []).append(s)
    for track in by_track.values():
        open_ends = []
        for s in track:
            open_ends = [end for end in open_ends if end > s["ts"]]
            level[id(s)] = len(open_ends)
            open_ends.append(s["ts"] + s["dur"])
    return level


def layout(names, threads, spans, instants, level):
    """The y of every track's first row and its height in rows, ranks in order, the program's thread first."""
    rows = {}
    for s in spans:
        key = (s["pid"], s["tid"])
        rows[key] = max(rows.get(key, 1), level[id(s)] + 1)
    for i in instants:
        rows.setdefault((i["pid"], i["tid"]), 1)
    tracks, y = [], TOP
    for pid in sorted({k[0] for k in rows}):
        for tid in sorted(t for p, t in rows if p == pid):
            tracks.append((pid, tid, y, rows[(pid, tid)]))
            y += rows[(pid, tid)] * ROW + 4
        y += 10
    return tracks, y


def tick_step(total_us, width):
    for step in (100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000):
        if total_us / step <= width / 90:
            return step
    return 2000000


def svg(path, title, width):
    names, threads, spans, instants = load(path)
    level = depths(spans)
    tracks, height = layout(names, threads, spans, instants, level)
    end = max([s["ts"] + s["dur"] for s in spans] + [i["ts"] for i in instants] + [1.0])
    plot = width - LEFT - RIGHT
    x = lambda us: LEFT + us / end * plot
    height += BOTTOM
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="DejaVu Sans, sans-serif" font-size="10">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{LEFT}" y="22" font-size="14" font-weight="bold">{escape(title)}</text>']
    step = tick_step(end, plot)
    t = 0
    while t <= end:
        out.append(f'<line x1="{x(t):.1f}" y1="{TOP - 8}" x2="{x(t):.1f}" y2="{height - BOTTOM + 4}" '
                   'stroke="#eeeeee"/>')
        out.append(f'<text x="{x(t):.1f}" y="{TOP - 12}" text-anchor="middle" fill="#555">{t / 1000:g} ms</text>')
        t += step
    y_of = {(pid, tid): (y, n) for pid, tid, y, n in tracks}
    for pid, tid, y, n in tracks:
        label = names.get(pid, f"rank {pid}") if tid == 0 else threads.get((pid, tid), f"thread {tid}")
        weight = "bold" if tid == 0 else "normal"
        out.append(f'<text x="{LEFT - 8}" y="{y + 11}" text-anchor="end" font-weight="{weight}">'
                   f'{escape(label if tid == 0 else "  " + label)}</text>')
        out.append(f'<line x1="{LEFT}" y1="{y + n * ROW + 2}" x2="{width - RIGHT}" y2="{y + n * ROW + 2}" '
                   'stroke="#f4f4f4"/>')
    for s in sorted(spans, key=lambda s: level[id(s)]):
        y, _ = y_of[(s["pid"], s["tid"])]
        top = y + level[id(s)] * ROW
        x0, w = x(s["ts"]), max(0.8, s["dur"] / end * plot)
        colour = COLOURS.get(s.get("cat"), "#bbbbbb")
        if s.get("args", {}).get("failed"):
            colour = "#e06c6c"
        out.append(f'<rect x="{x0:.2f}" y="{top}" width="{w:.2f}" height="{ROW - 2}" fill="{colour}" '
                   f'stroke="#ffffff" stroke-width="0.3"><title>{escape(describe(s))}</title></rect>')
        text = s["name"] + (f' {s["args"]["incarnation"]}' if s["name"] == "run" else "")
        if w > len(text) * 5.6 + 4:
            out.append(f'<text x="{x0 + 3:.2f}" y="{top + 10}" fill="#222">{escape(text)}</text>')
    for i in instants:
        if (i["pid"], i["tid"]) not in y_of:
            continue
        y, _ = y_of[(i["pid"], i["tid"])]
        xi = x(i["ts"])
        if i["name"] == "killed":
            out.append(f'<path d="M{xi - 6:.1f},{y - 2} l12,14 m0,-14 l-12,14" stroke="#d63b3b" stroke-width="2.5"/>')
            out.append(f'<text x="{xi + 9:.1f}" y="{y + 10}" fill="#d63b3b" font-weight="bold">killed</text>')
        else:
            out.append(f'<line x1="{xi:.1f}" y1="{y + 2}" x2="{xi:.1f}" y2="{y + ROW - 3}" stroke="#3b6fb0"/>')
    for incarnation, start in incarnation_starts(spans).items():
        xs = x(start)
        out.append(f'<line x1="{xs:.1f}" y1="{TOP - 4}" x2="{xs:.1f}" y2="{height - BOTTOM + 4}" stroke="#444" '
                   'stroke-dasharray="4,3"/>')
        out.append(f'<text x="{xs + 3:.1f}" y="{TOP - 26}" fill="#444">incarnation {incarnation}</text>')
    legend_y = height - BOTTOM + 30
    lx = LEFT
    for category, colour in COLOURS.items():
        out.append(f'<rect x="{lx}" y="{legend_y - 9}" width="12" height="11" fill="{colour}"/>')
        out.append(f'<text x="{lx + 16}" y="{legend_y}">{category}</text>')
        lx += 30 + len(category) * 7
    out.append(f'<text x="{lx}" y="{legend_y}" fill="#555">| HELLO checked: blue tick; a call that failed: red</text>')
    out.append("</svg>")
    return "\n".join(out)


def incarnation_starts(spans):
    starts = {}
    for s in spans:
        inc = s.get("args", {}).get("incarnation")
        if inc is not None:
            starts[inc] = min(starts.get(inc, s["ts"]), s["ts"])
    return dict(sorted(starts.items()))


def describe(s):
    args = ", ".join(f"{k}={v}" for k, v in s.get("args", {}).items())
    return f'{s["name"]} {s["dur"]:.1f} us ({args})'


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("trace")
    p.add_argument("png")
    p.add_argument("--title", default="SPERLI trace")
    p.add_argument("--width", type=int, default=1600)
    p.add_argument("--svg", help="also keep the SVG here")
    a = p.parse_args()
    text = svg(a.trace, a.title, a.width)
    with tempfile.TemporaryDirectory() as tmp:
        path = a.svg or os.path.join(tmp, "trace.svg")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        try:
            subprocess.run(["rsvg-convert", "-o", a.png, path], check=True)
        except FileNotFoundError:
            sys.exit("trace-png.py: rsvg-convert is missing (Debian: apt-get install librsvg2-bin)")


if __name__ == "__main__":
    main()
