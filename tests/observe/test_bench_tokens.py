"""`webchallenger bench tokens DIR --json` over a directory of pages whose snapshots are already cached
(hand-built snapshots, so no browser is needed here; recording is the corpus module's job)."""

from __future__ import annotations

import gzip
import json

from companion.cli import main
from benchmarks.corpus import cache_name
from tests.support.htmlsnap import snapshot_from_html

ARTICLE = "<html><body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav><h1>Tide tables</h1>" \
          "<p>High tide at the harbour is at 06:12 and 18:40 today.</p></body></html>"
ROWS = "".join(f"<tr class='r'><td><a href='/t/{i}'>Harbour tide {i}</a></td><td>{i % 24}:00</td><td>{i % 7} m</td></tr>" for i in range(800))
TABLE = f"<html><body><h1>Tide archive</h1><table><tbody>{ROWS}</tbody></table><footer><a href='/about'>About</a></footer></body></html>"


def test_bench_tokens_json_reports_pages_largest_prompt_and_the_large_page_ratio(tmp_path, capsys):
    pages, cache = tmp_path / "pages", tmp_path / "cache"
    pages.mkdir()
    cache.mkdir()
    for name, html, title in (("article", ARTICLE, "Tide tables"), ("archive", TABLE, "Tide archive")):
        path = pages / f"{name}.html"
        path.write_text(html)
        snap = snapshot_from_html(html, url=f"http://127.0.0.1/{name}.html", title=title)
        (cache / cache_name(path)).write_bytes(gzip.compress(snap.model_dump_json().encode()))

    assert main(["bench", "tokens", str(pages), "--cache", str(cache), "--no-record", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["pages"] == 2 and report["failures"] == {}
    assert 0 < report["max_prompt_tokens"] <= 6000 and report["pages_over_budget"] == []
    archive = report["per_page"]["pages__archive"]
    assert archive["baseline_tokens"] > 5000 and report["large_pages"] == 1
    assert report["median_ratio_large_pages"] == archive["ratio"] < 0.4
    assert archive["calls_by_prompt"]["list_item_selection"] >= 1 and archive["calls"] == sum(archive["calls_by_prompt"].values())
