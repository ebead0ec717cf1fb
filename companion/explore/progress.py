"""What `webchallenger explore` shows: a live progress display while it runs (rich), and what it learned.

The display (one row per site: pages done of those found so far, at most --max-pages; frontier, clicks, the page being explored,
elapsed) is drawn only on a terminal; redirected output gets the closing report alone.
"""

from __future__ import annotations

import sys
import time

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from companion.explore.explorer import SiteExplorer, SiteReport


class ExploreProgress:
    """Context manager; `update(explorer)` is the SiteExplorer's on_change callback."""

    def __init__(self, max_pages: int, console: Console | None = None, enabled: bool | None = None) -> None:
        self.console = console or Console(stderr=True)
        self.enabled = self.console.is_terminal if enabled is None else enabled
        self.max_pages = max_pages
        self._progress = Progress(
            SpinnerColumn(), TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("frontier {task.fields[frontier]}"), TextColumn("clicks {task.fields[clicks]}"),
            TimeElapsedColumn(), TextColumn("[dim]{task.fields[now]}"),
            console=self.console, transient=False, disable=not self.enabled,
        )
        self._tasks: dict[str, TaskID] = {}

    def __enter__(self) -> "ExploreProgress":
        self._progress.start()
        return self

    def __exit__(self, *exc) -> None:
        self._progress.stop()

    def update(self, explorer: SiteExplorer) -> None:
        if not self.enabled:
            return
        counts = explorer.state.counts
        frontier = sum(1 for s in explorer.state.stack if s.url not in explorer.state.done)
        busy = [url for url in explorer.pool.busy.values() if url]
        now = busy[0] if busy else ("done" if explorer.report.ended else "")
        fields = dict(frontier=frontier, clicks=f"{counts.clicks} ({explorer.pool.clicks} in the browsers)", now=now[-60:])
        total = bar_total(counts.pages, frontier, self.max_pages, ended=explorer.report.ended is not None)
        task = self._tasks.get(explorer.site)
        if task is None:
            task = self._tasks[explorer.site] = self._progress.add_task(explorer.site, total=total, **fields)
        self._progress.update(task, completed=counts.pages, total=total, **fields)


def bar_total(pages: int, frontier: int, max_pages: int, *, ended: bool) -> int:
    """What the bar counts towards: the pages known so far (done and waiting), up to --max-pages; a site whose
    exploration ended reads full (9 of 9, not 9 of 200)."""
    if ended:
        return pages
    return max(1, min(max_pages, pages + frontier))


STOPPED = {
    "finished": "the frontier is empty",
    "max-pages": "--max-pages reached (a larger value goes on from here)",
    "max-time": "--max-time reached (run again to resume)",
    "interrupted": "interrupted (run again to resume)",
}


def report_table(reports: list[SiteReport]) -> Table:
    table = Table(title="What exploration learned", show_lines=False)
    table.add_column("")
    for r in reports:
        table.add_column(r.site, justify="right")
    rows: list[tuple[str, list[str]]] = []

    def row(label: str, values) -> None:
        rows.append((label, [str(v) for v in values]))

    c = [r.state.counts for r in reports]
    row("pages registered", [x.pages for x in c])
    row("  this run", [r.run_pages for r in reports])
    row("query links recorded as controls (not pages)", [x.controls for x in c])
    row("templates", [x.templates for x in c])
    row("pages matching a template (not iterated)", [x.template_pages for x in c])
    row("dropdowns (elements that reveal others)", [x.dropdowns for x in c])
    row("navigations recorded", [x.navigations for x in c])
    row("clicks spent", [x.clicks for x in c])
    row("clicks skipped by template", [x.skipped_by_template for x in c])
    row("clicks skipped by list-item deduplication", [x.skipped_by_list_item for x in c])
    row("elements explored on an earlier page", [x.skipped_explored for x in c])
    row("elements ShouldSkip left alone", [x.skipped_unsafe for x in c])
    row("elements over --max-elements", [x.skipped_by_limit for x in c])
    row("pages past --max-depth", [x.beyond_depth for x in c])
    row("failed pages or clicks", [x.failed for x in c])
    row("frontier left", [sum(1 for s in r.state.stack if s.url not in r.state.done) for r in reports])
    row("elapsed (this run)", [f"{r.elapsed:.0f} s" for r in reports])
    row("stopped", [STOPPED.get(r.stopped_by, r.stopped_by) for r in reports])
    for label, values in rows:
        table.add_row(label, *values)
    return table


def print_report(reports: list[SiteReport], console: Console | None = None) -> None:
    console = console or Console(file=sys.stdout, highlight=False)
    console.print(report_table(reports))


def report_json(reports: list[SiteReport]) -> list[dict]:
    out = []
    for r in reports:
        counts = r.state.counts
        out.append({"site": r.site, "start_url": r.start_url, "stopped_by": r.stopped_by, "run_pages": r.run_pages,
                    "elapsed_s": round(r.elapsed, 2), "frontier": sum(1 for s in r.state.stack if s.url not in r.state.done),
                    "counts": counts.model_dump(), "naive_clicks": counts.naive_clicks, "at": time.time()})
    return out


__all__ = ["ExploreProgress", "bar_total", "print_report", "report_json", "report_table"]
