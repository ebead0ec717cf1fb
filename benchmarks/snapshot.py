"""What a snapshot costs, measured in one browser: a synthetic page of a chosen size shaped like a real one,
the extension's count-only walk (the floor) and one page's figures (in-page, companion, wait, parse, size).
`webchallenger bench snapshot` (benchmarks/commands/snapshot.py) prints them; `bench speed` reuses the page and
the tab lookup."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from companion.bridge.locations import OPTIONS_URL

if TYPE_CHECKING:  # heavy (selenium, uvicorn): imported when the benchmark runs
    from companion.bridge.launcher import LaunchedBrowser


# --------------------------------------------------------------------------- the synthetic page


def synthetic_page(n_elements: int) -> str:
    """A page of exactly `n_elements` elements shaped like a real one: sections with headings, text,
    links, lists, labelled inputs and buttons. Deterministic, so runs compare."""
    head = "<!doctype html><html><head><meta charset='utf-8'><title>Synthetic</title></head><body>"
    count = 5  # html, head, meta, title, body
    parts = [head]
    i = 0
    while count + CARD_ELEMENTS <= n_elements:
        parts.append(
            f"<section class='card c{i % 7}' id='s{i}'><h3>Item {i}</h3><p>Description of item {i} with "
            f"<a href='#i{i}'>a link</a> and <b>bold</b> text.</p><ul><li><a href='/p/{i}'>Open</a></li>"
            f"<li><span title='t{i}'>Meta {i}</span></li></ul><label for='q{i}'>Qty</label>"
            f"<input id='q{i}' name='q{i}' value='{i % 5}'><button type='button'>Add</button></section>"
        )
        count += CARD_ELEMENTS
        i += 1
    parts.append("<span>filler</span>" * max(0, n_elements - count))
    parts.append("</body></html>")
    return "".join(parts)


CARD_ELEMENTS = 13  # section h3 p a b ul li a li span label input button


# --------------------------------------------------------------------------- measuring one page


@dataclass
class PageFigures:
    page: str
    elements: int = 0
    frames: int = 0
    json_bytes: int = 0
    walk_ms: float | None = None  # median, top frame, count-only
    in_page_ms: float | None = None  # median, top frame, full serialization
    in_page_all_frames_ms: float = 0.0  # median, as reported in Snapshot.timing_ms
    companion_ms: float = 0.0  # median, request -> parsed Snapshot
    wait_ms: float = 0.0  # median, request -> raw reply received
    parse_ms: float = 0.0  # median
    parse_cpu_ms: float = 0.0  # median CPU time of the parse
    error: str | None = None
    runs: dict = field(default_factory=dict)

    def ratio(self, value: float | None) -> float | None:
        return None if value is None or not self.walk_ms else value / self.walk_ms


class FloorProbe:
    """The extension's count-only walk, reached over the protocol (BenchRequest) or, when the extension
    does not answer that, through its options-page hook `webchallengerBench(tabId, runs)`."""

    def __init__(self, browser: "LaunchedBrowser"):
        self.browser = browser
        self.via = "protocol"
        self._options_handle: str | None = None
        self.unavailable: str | None = None

    def measure(self, tab_id: int, runs: int) -> dict | None:
        from companion.bridge.errors import RemoteError

        if self.unavailable:
            return None
        if self.via == "protocol":
            try:
                result = self.browser.run(self.browser.session.bench(tab_id, runs))
                return result.model_dump()
            except RemoteError as exc:
                if exc.code != "unknown_type":
                    raise
                self.via = "options page"
        return self._via_options_page(tab_id, runs)

    def _via_options_page(self, tab_id: int, runs: int) -> dict | None:
        driver = self.browser.driver
        page_handle = driver.current_window_handle
        if self._options_handle is None:
            driver.switch_to.new_window("tab")
            driver.get(OPTIONS_URL)
            self._options_handle = driver.current_window_handle
        else:
            driver.switch_to.window(self._options_handle)
        try:
            result = driver.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "if (typeof webchallengerBench !== 'function') { done({error: 'no webchallengerBench hook'}); return; }"
                "webchallengerBench(arguments[0], arguments[1]).then(done, (e) => done({error: String(e)}));",
                tab_id, runs)
        finally:
            driver.switch_to.window(page_handle)
        if not result or result.get("error"):
            self.unavailable = f"the extension offers no count-only walk ({(result or {}).get('error', 'no result')})"
            return None
        return result


    def close(self) -> None:
        """Close the options tab, if one was opened, and return to the page tab."""
        if self._options_handle is None:
            return
        driver = self.browser.driver
        page_handle = driver.current_window_handle
        driver.switch_to.window(self._options_handle)
        driver.close()
        driver.switch_to.window(page_handle)
        self._options_handle = None


def tab_id_of(browser: "LaunchedBrowser", url: str) -> int:
    from companion.bridge.errors import BridgeError

    for tab in browser.run(browser.session.list_tabs()):
        if tab.url == url:
            return tab.tab_id
    raise BridgeError(f"no tab shows {url}")


def measure_page(browser: "LaunchedBrowser", floor: FloorProbe, name: str, url: str, runs: int) -> PageFigures:
    figures = PageFigures(page=name)
    try:
        browser.open(url)
        tab_id = tab_id_of(browser, browser.driver.current_url)
        session = browser.session
        browser.run(session.snapshot(tab_id))  # warm-up: injects the content script
        companion, wait, parse, parse_cpu, in_page = [], [], [], [], []
        for _ in range(runs):
            snapshot = browser.run(session.snapshot(tab_id))
            timing = session.last_snapshot_timing
            companion.append(timing.total_ms)
            wait.append(timing.wait_ms)
            parse_cpu.append(timing.parse_cpu * 1000)
            parse.append(timing.parse_ms)
            in_page.append(snapshot.timing_ms or 0.0)
        figures.elements = sum(len(f.elements) for f in snapshot.frames)
        figures.frames = len(snapshot.frames)
        figures.json_bytes = timing.raw_bytes
        figures.companion_ms = statistics.median(companion)
        figures.parse_ms = statistics.median(parse)
        figures.wait_ms = statistics.median(wait)
        figures.parse_cpu_ms = statistics.median(parse_cpu)
        figures.in_page_all_frames_ms = statistics.median(in_page)
        figures.runs = {"companion_ms": companion, "in_page_all_frames_ms": in_page}
        bench = floor.measure(tab_id, runs)
        if bench:
            figures.walk_ms = statistics.median(bench["walk_ms"])
            figures.in_page_ms = statistics.median(bench["snapshot_ms"])
            figures.runs.update(walk_ms=bench["walk_ms"], in_page_ms=bench["snapshot_ms"])
    except Exception as exc:  # one bad page is a figure too; the run goes on
        figures.error = f"{type(exc).__name__}: {exc}"
    return figures
