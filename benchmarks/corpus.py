"""Real snapshots of the corpus pages, recorded once through headless Chromium + the extension.

The divide benchmark and the corpus acceptance checks need one Snapshot per corpus page. Taking them
costs a browser; dividing them costs milliseconds. So snapshots are taken ONCE into
<cache dir>/corpus-snapshots/<group>__<name>.json.gz and reused; `record_corpus` only fills gaps.
"""

from __future__ import annotations

import gzip
import logging
import os
import time
from pathlib import Path
from typing import Callable, Iterator

from companion import paths
from companion.protocol import Snapshot

log = logging.getLogger(__name__)


def default_corpus_dir() -> Path:
    """$WEBCHALLENGER_CORPUS_DIR, else the shared corpus beside the repository."""
    override = os.environ.get("WEBCHALLENGER_CORPUS_DIR")
    if override:
        return Path(override)
    return Path(__file__).resolve().parents[2] / "shared" / "corpus"


def snapshot_cache_dir() -> Path:
    d = paths.cache_dir() / "corpus-snapshots"
    d.mkdir(parents=True, exist_ok=True)
    return d


def corpus_pages(corpus: Path) -> list[Path]:
    return sorted(corpus.glob("*/*.html.gz")) + sorted(corpus.glob("*/*.html"))


def cache_name(page: Path) -> str:
    return f"{page.parent.name}__{page.name.removesuffix('.gz').removesuffix('.html')}.json.gz"


def failed_name(page: Path) -> str:
    return cache_name(page).removesuffix(".json.gz") + ".failed"


def failed_pages(cache: Path) -> dict[str, str]:
    """Pages that could not be snapshotted (and have no snapshot since), with the reason."""
    out = {}
    for p in sorted(cache.glob("*.failed")):
        name = p.name.removesuffix(".failed")
        if not (cache / f"{name}.json.gz").exists():
            out[name] = p.read_text().strip()
    return out


def load_cached(cache: Path) -> Iterator[tuple[str, Snapshot]]:
    for path in sorted(cache.glob("*.json.gz")):
        yield path.name.removesuffix(".json.gz"), Snapshot.model_validate_json(gzip.decompress(path.read_bytes()))


def record_corpus(corpus: Path, cache: Path, limit: int | None = None,
                  progress: Callable[[str], None] = lambda s: None, snapshot_timeout: float = 30.0,
                  retry_failed: bool = False) -> tuple[int, list[str]]:
    """Snapshot every corpus page not yet cached. Returns (recorded, failures)."""
    from companion.bridge.launcher import LaunchOptions, launch_browser
    from companion.bridge.pageserver import PageServer

    # A page that could not be snapshotted is remembered (`.failed`) and not retried unless asked.
    todo = [p for p in corpus_pages(corpus) if not (cache / cache_name(p)).exists()
            and (retry_failed or not (cache / failed_name(p)).exists())]
    if limit is not None:
        todo = todo[:limit]
    if not todo:
        return 0, []
    failures: list[str] = []
    done = 0
    with PageServer(corpus, decompress=True) as server:
        queue = list(todo)
        while queue:
            # A page whose snapshot times out may leave the tab wedged: the rest get a fresh browser.
            with launch_browser(LaunchOptions(page_load_timeout=20)) as browser:
                while queue:
                    page = queue.pop(0)
                    rel = page.relative_to(corpus).as_posix()
                    t0 = time.perf_counter()
                    try:
                        try:
                            browser.open(server.url(rel))
                        except Exception as e:  # a page that never finishes loading is snapshotted as it is
                            log.info("load of %s did not finish: %s", rel, e)
                        snap = browser.run(browser.session.snapshot(timeout=snapshot_timeout), snapshot_timeout + 5)
                    except Exception as e:
                        (cache / failed_name(page)).write_text(f"{type(e).__name__}: {e}\n")
                        failures.append(f"{rel}: {type(e).__name__}: {e}")
                        progress(f"FAIL {rel}: {type(e).__name__}: {e}")
                        break
                    tmp = cache / (cache_name(page) + ".tmp")
                    tmp.write_bytes(gzip.compress(snap.model_dump_json(exclude_none=True).encode(), 6))
                    tmp.replace(cache / cache_name(page))
                    (cache / failed_name(page)).unlink(missing_ok=True)
                    done += 1
                    progress(f"{done}/{len(todo)} {rel} {sum(len(f.elements) for f in snap.frames)} elements "
                             f"{time.perf_counter() - t0:.1f}s")
    return done, failures
