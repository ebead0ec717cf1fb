"""How fast each agent turns a live page into what its LLM reads: ours against browser-use's, page by page.

Ours is the real extension's snapshot through the companion (request sent -> parsed, validated Snapshot, all
frames; companion/bridge/launcher.py) plus the PageMem build (DividePage, companion/pagemem/divide.py). Theirs is
browser-use's DOM service on the same page served from the same 127.0.0.1 server in Debian's Chromium with the
same flags (benchmarks/peer.py): CDP snapshot, DOM and accessibility trees, the enhanced tree, the serializer
and the text (`get_serialized_dom_tree` + `llm_representation`). Each side takes one warm-up, then `runs` timed
repetitions; medians are reported, and the figure is ours / theirs per page and its median over the pages. Both
browsers stay open and each page is measured by one right after the other, so they share the machine's load.
Output sizes are counted with one estimator (companion/pagemem/tokens.py) for both texts. The two outputs are not
the same thing: ours is the whole page (every section, all frames), browser-use's only the elements within its
viewport threshold (1000 px beyond the window) that survive its paint-order filter, so its text is often smaller
on long pages; the element and token columns show how much each side hands its LLM.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import asdict, dataclass, field
from typing import Callable


@dataclass
class SideFigures:
    ms: float | None = None  # median total per page view
    parts_ms: dict[str, float] = field(default_factory=dict)  # medians of the parts
    elements: int = 0  # interactive elements the LLM can address
    tokens: int = 0  # what the LLM would read, estimated with one estimator for both sides
    error: str | None = None
    runs_ms: list[float] = field(default_factory=list)


@dataclass
class PageSpeed:
    page: str
    ours: SideFigures = field(default_factory=SideFigures)
    theirs: SideFigures | None = None  # None: the peer was not run

    @property
    def ratio(self) -> float | None:
        if self.theirs is None or self.ours.ms is None or not self.theirs.ms:
            return None
        return self.ours.ms / self.theirs.ms

    def as_dict(self) -> dict:
        return {**asdict(self), "ratio": self.ratio}


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def _interactive(sections) -> int:
    return sum(len(s.elements) + _interactive(s.items) for s in sections)


def measure_ours(browser, url: str, runs: int) -> SideFigures:
    """The extension's snapshot through the companion, then DividePage, `runs` times after a warm-up."""
    from benchmarks.snapshot import tab_id_of
    from companion.pagemem.divide import divide_page

    out = SideFigures()
    try:
        browser.open(url)
        tab_id = tab_id_of(browser, browser.driver.current_url)
        session = browser.session
        browser.run(session.snapshot(tab_id))  # warm-up: injects the content script
        snapshot_ms, build_ms, total = [], [], []
        for _ in range(runs):
            snap = browser.run(session.snapshot(tab_id))
            snapshot_ms.append(session.last_snapshot_timing.total_ms)
            t0 = time.perf_counter()
            pagemem = divide_page(snap)
            build_ms.append((time.perf_counter() - t0) * 1000)
            total.append(snapshot_ms[-1] + build_ms[-1])
        out.ms = _median(total)
        out.runs_ms = total
        out.parts_ms = {"snapshot": _median(snapshot_ms), "pagemem_build": _median(build_ms)}
        out.elements = _interactive(pagemem.sections)
        out.tokens = sum(s.tokens for s in pagemem.sections)
    except Exception as exc:  # one bad page is a figure too; the run goes on
        out.error = f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
    return out


def measure_theirs(worker, url: str, runs: int) -> SideFigures:
    """browser-use's DOM serialization of the page, in the peer's worker."""
    from companion.pagemem.tokens import count_tokens

    out = SideFigures()
    try:
        reply = worker.serialize(url, runs)
        out.ms = _median(reply["ms"])
        out.runs_ms = reply["ms"]
        out.parts_ms = {"dom_tree": _median(reply["dom_tree_ms"]), "serialize": _median(reply["serialize_ms"])}
        out.elements = reply["elements"]
        out.tokens = count_tokens(reply.get("text") or "")
    except Exception as exc:
        out.error = f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
    return out


def measure_pages(pages: list[tuple[str, str]], browser, worker, runs: int,
                  progress: Callable[[int, PageSpeed], None] = lambda i, p: None) -> list[PageSpeed]:
    """Each (name, url) by our side, then at once by the peer's (worker None: ours only)."""
    results = []
    for i, (name, url) in enumerate(pages, 1):
        figures = PageSpeed(page=name, ours=measure_ours(browser, url, runs))
        if worker is not None:
            figures.theirs = measure_theirs(worker, url, runs)
        results.append(figures)
        progress(i, figures)
    return results


def summarize(pages: list[PageSpeed]) -> dict:
    def stats(values: list[float | None]) -> dict | None:
        values = sorted(v for v in values if v is not None)
        if not values:
            return None
        return {"median": round(statistics.median(values), 3), "p90": round(values[min(len(values) - 1, int(0.9 * len(values)))], 3),
                "min": round(values[0], 3), "max": round(values[-1], 3), "n": len(values)}

    ours_ok = [p for p in pages if p.ours.ms is not None]
    theirs_ok = [p for p in pages if p.theirs is not None and p.theirs.ms is not None]
    return {
        "pages": len(pages),
        "ours_failed": len(pages) - len(ours_ok),
        "theirs_failed": sum(1 for p in pages if p.theirs is not None and p.theirs.ms is None),
        "ours_ms": stats([p.ours.ms for p in ours_ok]),
        "ours_snapshot_ms": stats([p.ours.parts_ms.get("snapshot") for p in ours_ok]),
        "ours_pagemem_build_ms": stats([p.ours.parts_ms.get("pagemem_build") for p in ours_ok]),
        "theirs_ms": stats([p.theirs.ms for p in theirs_ok]),
        "ratio": stats([p.ratio for p in pages]),
        "ours_tokens": stats([p.ours.tokens for p in ours_ok]),
        "theirs_tokens": stats([p.theirs.tokens for p in theirs_ok]),
        "ours_elements": stats([p.ours.elements for p in ours_ok]),
        "theirs_elements": stats([p.theirs.elements for p in theirs_ok]),
        "errors": [f"{p.page} (ours): {p.ours.error}" for p in pages if p.ours.error]
                  + [f"{p.page} ({'browser-use'}): {p.theirs.error}" for p in pages if p.theirs is not None and p.theirs.error],
    }


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def format_table(pages: list[PageSpeed], summary: dict, peer: str = "browser-use") -> str:
    head = (f"{'page':44} {'ours ms':>8} {'snap':>7} {'build':>7} {peer + ' ms':>15} {'ratio':>6} "
            f"{'ours tok':>9} {'their tok':>9} {'ours el':>7} {'their el':>8}")
    lines = [head, "-" * len(head)]
    for p in pages:
        theirs = p.theirs or SideFigures()
        ratio = "-" if p.ratio is None else f"{p.ratio:.2f}"
        lines.append(f"{p.page[:44]:44} {_ms(p.ours.ms):>8} {_ms(p.ours.parts_ms.get('snapshot')):>7} "
                     f"{_ms(p.ours.parts_ms.get('pagemem_build')):>7} {_ms(theirs.ms):>15} {ratio:>6} "
                     f"{p.ours.tokens if p.ours.ms is not None else '-':>9} {theirs.tokens if theirs.ms is not None else '-':>9} "
                     f"{p.ours.elements if p.ours.ms is not None else '-':>7} {theirs.elements if theirs.ms is not None else '-':>8}")
    lines.append("-" * len(head))

    def med(key: str) -> float | None:
        return (summary.get(key) or {}).get("median")

    ratio = med("ratio")
    lines.append(f"{'median over ' + str(summary['pages']) + ' page(s)':44} {_ms(med('ours_ms')):>8} {_ms(med('ours_snapshot_ms')):>7} "
                 f"{_ms(med('ours_pagemem_build_ms')):>7} {_ms(med('theirs_ms')):>15} {'-' if ratio is None else f'{ratio:.2f}':>6}")
    if ratio is not None:
        lines.append(f"ours / {peer}: median {ratio:.2f}x (below 1: ours is faster), over {summary['ratio']['n']} page(s) both measured; "
                     f"ours covers the whole page, {peer} the elements near its viewport (see tok / el)")
    for e in summary["errors"][:20]:
        lines.append(f"  failed: {e}")
    return "\n".join(lines)
