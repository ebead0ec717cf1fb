"""`webchallenger bench memory`: what a huge page costs the companion, in wall time and peak memory.

For each size (default 10k, 100k and 330k elements) a fresh Python process builds a synthetic snapshot
shaped like a real page (cards with a heading, text, links, a list, a labelled input and a button, as in
`bench snapshot`'s synthetic page), as the JSON text the extension would send, and then takes it through
the companion's own path:
  - receive: the server's classify() (bridge/limits.py: size, element count, depth; then validation),
  - divide:  divide_page() (tree.py, divide.py),
  - update:  a second, identical snapshot parsed and update_page_mem()'d into the first PageMem, as every
             later step on the same page does.
Peak RSS is read per phase from /proc (VmHWM, reset between phases), so each figure is the process's
whole footprint at that moment: interpreter and imports, the message text, the models. The websocket
layer's own buffers (the frame's bytes while it is decoded) come on top: about the JSON size once more.
A snapshot the wire limits refuse is reported as refused, then (with its figures marked beyond_limits)
validated and divided anyway, to show what the limits save. Figures, not pass/fail; `--out` writes JSON.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

DEFAULT_SIZES = (10_000, 100_000, 330_000)
CARD = 13  # elements per card, as in benchmarks/snapshot.py synthetic_page


def register(bench_subparsers: argparse._SubParsersAction) -> None:
    parser = bench_subparsers.add_parser("memory", help="wall time and peak RSS of huge synthetic pages: receive, divide, update",
                                         description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--elements", default=",".join(str(n) for n in DEFAULT_SIZES), metavar="N,N,...",
                        help="page sizes in elements (default %(default)s)")
    parser.add_argument("--out", type=Path, default=None, metavar="FILE", help="write the figures as JSON to FILE")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)  # one measurement, in this process
    parser.set_defaults(func=run)


# --------------------------------------------------------------------------- the synthetic page, as wire text


def synthetic_snapshot_json(n_elements: int) -> str:
    """A snapshot_result message of exactly `n_elements` elements, built as text (no dict of the whole page
    is ever held, so the measurement sees what the companion holds, not what the generator did)."""
    parts: list[str] = []
    next_id = 0

    def element(parent: int | None, tag: str, y: float, *, w: float = 800, h: float = 20, text: str = "",
                attrs: dict | None = None, interactive: bool = False, value: str | None = None) -> int:
        nonlocal next_id
        next_id += 1
        fields = [f'"id":{next_id}']
        if parent is not None:
            fields.append(f'"parent":{parent}')
        fields.append(f'"tag":"{tag}"')
        if attrs:
            fields.append('"attrs":' + json.dumps(attrs, separators=(",", ":")))
        if text:
            fields.append('"text":' + json.dumps(text))
        if value is not None:
            fields.append('"value":' + json.dumps(value))
        fields.append(f'"box":{{"x":10,"y":{y},"w":{w},"h":{h}}}')
        fields.append('"visible":true')
        if interactive:
            fields.append('"interactive":true')
        parts.append("{" + ",".join(fields) + "}")
        return next_id

    html = element(None, "html", 0, h=1e6)
    body = element(html, "body", 0, h=1e6)
    y = 0
    i = 0
    while next_id + CARD <= n_elements:
        card = element(body, "section", y, h=200, attrs={"class": f"card c{i % 7}", "id": f"s{i}"})
        element(card, "h3", y, text=f"Item {i}")
        p = element(card, "p", y + 20, text=f"Description of item {i} with and text.")
        element(p, "a", y + 20, w=50, attrs={"href": f"#i{i}"}, text="a link", interactive=True)
        element(p, "b", y + 20, w=30, text="bold")
        ul = element(card, "ul", y + 40, h=40)
        li = element(ul, "li", y + 40)
        element(li, "a", y + 40, w=40, attrs={"href": f"/p/{i}"}, text="Open", interactive=True)
        li = element(ul, "li", y + 60)
        element(li, "span", y + 60, w=60, attrs={"title": f"t{i}"}, text=f"Meta {i}")
        element(card, "label", y + 80, w=30, attrs={"for": f"q{i}"}, text="Qty")
        element(card, "input", y + 80, w=100, attrs={"id": f"q{i}", "name": f"q{i}"}, value=str(i % 5), interactive=True)
        element(card, "button", y + 100, w=40, attrs={"type": "button"}, text="Add", interactive=True)
        y += 200
        i += 1
    while next_id < n_elements:
        element(body, "span", y, w=40, text="filler")
        y += 20
    url = "http://127.0.0.1/synthetic"
    head = (f'{{"type":"snapshot_result","id":"bench-{n_elements}","tab_id":1,"snapshot":{{"url":"{url}",'
            f'"title":"Synthetic {n_elements}","viewport":{{"width":1280,"height":800}},"scroll":{{"height":{y}}},'
            f'"frames":[{{"frame":0,"url":"{url}","elements":[')
    text = head + ",".join(parts) + "]}]}}"
    parts.clear()
    return text


# --------------------------------------------------------------------------- one measurement (child process)


def _status_kb(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # resets VmHWM to the current RSS (Linux >= 4.0)
        return True
    except OSError:
        return False


def _phase(figures: dict, name: str, fn):
    _reset_peak()
    started, cpu = time.perf_counter(), time.process_time()
    result = fn()
    # CPU time as well: unlike wall time, a busy shared machine does not inflate it.
    figures[name] = {"wall_s": round(time.perf_counter() - started, 3), "cpu_s": round(time.process_time() - cpu, 3),
                     "peak_rss_mb": round(_status_kb("VmHWM") / 1024, 1), "rss_after_mb": round(_status_kb("VmRSS") / 1024, 1)}
    return result


def measure(n_elements: int) -> dict:
    """One size, with the lifetimes of the real server: a message's text is dropped once parsed, a snapshot
    once divided (server.py's receive loop, act/context.py's refresh)."""
    import gc

    from companion.bridge.server import MessageProblem, classify
    from companion.pagemem.divide import divide_page
    from companion.pagemem.update import update_page_mem
    from companion.protocol import MESSAGE_ADAPTER

    figures: dict = {"elements": n_elements, "rss_start_mb": round(_status_kb("VmRSS") / 1024, 1)}
    raw = _phase(figures, "build", lambda: synthetic_snapshot_json(n_elements))
    gc.collect()
    figures["json_mb"] = round(len(raw) / 1e6, 2)
    figures["rss_with_message_mb"] = round(_status_kb("VmRSS") / 1024, 1)

    def receive():
        try:
            return classify(raw)
        except MessageProblem as problem:
            figures["refused"] = f"{problem.reply.code}: {problem.reply.message}"
            return None

    message = _phase(figures, "receive", receive)
    if message is None:  # beyond the wire limits: what they saved, measured anyway
        figures["beyond_limits"] = True
        message = _phase(figures, "validate_beyond_limits", lambda: MESSAGE_ADAPTER.validate_json(raw))
    raw = None
    pagemem = _phase(figures, "divide", lambda: divide_page(message.snapshot))
    figures["sections"] = len(pagemem.sections)
    figures["list_items"] = sum(len(s.items) for s in pagemem.sections)
    figures["interactive_elements"] = sum(1 for _ in pagemem.all_elements())
    message = None
    gc.collect()
    figures["rss_holding_pagemem_mb"] = round(_status_kb("VmRSS") / 1024, 1)
    # The next step on the same page: the same snapshot again, brought into the PageMem.
    raw = synthetic_snapshot_json(n_elements)
    again = MESSAGE_ADAPTER.validate_json(raw)
    raw = None
    _phase(figures, "update", lambda: update_page_mem(pagemem, again.snapshot))
    figures["peak_rss_mb"] = max(v["peak_rss_mb"] for v in figures.values() if isinstance(v, dict))
    return figures


# --------------------------------------------------------------------------- the command


def run(args: argparse.Namespace) -> int:
    if args.child is not None:
        print(json.dumps(measure(args.child)))
        return 0
    sizes = [int(s.replace("_", "")) for s in args.elements.split(",") if s.strip()]
    results = []
    for n in sizes:
        # A fresh process per size: peak RSS never goes down, and the previous size's heap would count.
        proc = subprocess.run([sys.executable, "-m", "companion", "bench", "memory", "--child", str(n)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            results.append({"elements": n, "error": proc.stderr.strip()[-2000:]})
        else:
            results.append(json.loads(proc.stdout.strip().splitlines()[-1]))
        if not args.json:
            print(_line(results[-1]), flush=True)
    report = {"python": sys.version.split()[0], "results": results}
    if args.out:
        args.out.write_text(json.dumps(report, indent=1) + "\n")
        if not args.json:
            print(f"figures written to {args.out}")
    if args.json:
        print(json.dumps(report, indent=1))
    return 1 if any("error" in r for r in results) else 0


def _line(r: dict) -> str:
    if "error" in r:
        return f"{r['elements']:>8,} elements: ERROR {r['error'].splitlines()[-1] if r['error'] else ''}"
    parse = r.get("validate_beyond_limits", r.get("receive", {}))
    d, u = r["divide"], r["update"]
    refused = f" refused on the wire ({r['refused']}); beyond the limits:" if r.get("refused") else ""
    return (f"{r['elements']:>8,} elements, {r['json_mb']:.1f} MB JSON:{refused} parse {parse['wall_s']:.1f} s "
            f"({parse['cpu_s']:.1f} s CPU), divide {d['wall_s']:.1f} s ({d['cpu_s']:.1f}), update {u['wall_s']:.1f} s "
            f"({u['cpu_s']:.1f}); peak RSS {r['peak_rss_mb']:.0f} MB (parse {parse['peak_rss_mb']:.0f}, divide "
            f"{d['peak_rss_mb']:.0f}, update {u['peak_rss_mb']:.0f}); {r['sections']} sections, {r['list_items']} list items")
