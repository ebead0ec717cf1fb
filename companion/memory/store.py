"""WebsiteMem persisted per site in TinyDB (one file per site under <data dir>/memory/).

Tables: meta (schema version, site), pages (PageMem by normalized URL), templates, explored (stable
element keys, pagemem/identity.py: the paper's E_w), bookmarks, summaries (by content hash), purposes (by
content hash, and by section signature within one page structure, so the pages of one template share them
and unrelated sections of the same bare shape do not), dropdowns, links, page_stats and controls (records.py:
what clicks revealed or where they led, how pages are used, for bookmarks, and which links only change a
page's query: its controls). A revisit whose sections render the same content costs no LLM call: apply_cached() fills summaries and purposes back in.

What to record is decided in learn.py (the one "learn from this page / this click" API); this module
only stores and reads.

Never persisted: typed values (text inputs, textareas, contenteditable), password fields' values, and
per-task extractions (scrub.py makes the copy that is saved). Writes go through AtomicJSONStorage, so a crash
cannot corrupt the file. Pages and sites are keyed as keys.py says (site_key, normalize_url, purpose_scope).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, MutableMapping
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Callable, Iterable

from pydantic import ValidationError
from tinydb import Query, TinyDB
from tinydb.storages import MemoryStorage

from companion import paths
from companion.memory.keys import normalize_url, purpose_scope, site_key
from companion.memory.records import ControlRecord, DropdownRecord, LinkRecord, PageStats
from companion.memory.scrub import all_sections, scrub
from companion.memory.storage import AtomicJSONStorage, LockedTinyDB, MemoryFileError, file_lock, holding, sweep_temp_files
from companion.pagemem.model import Bookmark, PageMem, PageSection, Template, WebsiteMem
from companion.pagemem.template import matches_template

SCHEMA_VERSION = 1


def memory_dir() -> Path:
    return paths.private_dir(paths.data_dir() / "memory", narrow=True)


def _atomic(method):
    """A store method that reads, then writes: one step under the site file's cross-process lock, so another
    process cannot write in between (each single table operation is locked anyway: storage.LockedTable)."""

    @functools.wraps(method)
    def locked_method(self: "WebsiteMemStore", *args, **kwargs):
        with self.locked():
            return method(self, *args, **kwargs)

    return locked_method


class WebsiteMemStore:
    """One site's memory file. Open, use, close (or use as a context manager)."""

    def __init__(self, site: str, directory: Path | None = None, *, in_memory: bool = False) -> None:
        """in_memory: a scratch store that no file backs (a task goes on with it when the site's file is
        unreadable: the file is left exactly as it was for the user to inspect)."""
        self.site = site_key(site)
        self.directory = Path(directory) if directory is not None else memory_dir()
        self.path = self.directory / f"{self.site}.json"
        if in_memory:
            self.db = TinyDB(storage=MemoryStorage)
        else:
            paths.private_dir(self.directory)
            sweep_temp_files(self.directory)
            self.db = LockedTinyDB(self.path, storage=AtomicJSONStorage)
        self._check_schema()

    def __enter__(self) -> "WebsiteMemStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    def locked(self) -> AbstractContextManager:
        """Hold the site file's cross-process lock (reentrant) around several table operations."""
        storage = self.db.storage
        return storage.locked() if isinstance(storage, AtomicJSONStorage) else nullcontext()

    def _check_schema(self) -> None:
        meta = self.db.table("meta")
        docs = meta.all()
        if not docs:
            with self.locked():  # two processes creating the file write one meta row
                if not meta.all():
                    meta.insert({"schema_version": SCHEMA_VERSION, "site": self.site})
            docs = meta.all()
        version = docs[0].get("schema_version")
        if not isinstance(version, int):
            raise MemoryFileError(self.path, "no schema version", None)
        if version > SCHEMA_VERSION:
            raise MemoryFileError(self.path, f"schema version {version} is newer than this program's {SCHEMA_VERSION}", None)

    # ------------------------------------------------------------------ pages

    def save_page(self, pagemem: PageMem) -> None:
        url = normalize_url(pagemem.url)
        self.db.table("pages").upsert({"url": url, "pagemem": scrub(pagemem).model_dump(mode="json")}, Query().url == url)

    def load_page(self, url: str) -> PageMem | None:
        doc = self.db.table("pages").get(Query().url == normalize_url(url))
        if doc is None:
            return None
        try:
            return PageMem.model_validate(doc["pagemem"])
        except (ValidationError, KeyError, TypeError) as e:
            raise MemoryFileError(self.path, f"page {url} does not match the PageMem model: {e}", None) from None

    def page_urls(self) -> list[str]:
        return [d["url"] for d in self.db.table("pages").all()]

    def remove_page(self, url: str) -> None:
        self.db.table("pages").remove(Query().url == normalize_url(url))

    # ------------------------------------------------------------------ templates

    def templates(self) -> list[Template]:
        return [Template.model_validate(d) for d in self.db.table("templates").all()]

    def find_template(self, pagemem: PageMem) -> Template | None:
        for t in self.templates():
            if matches_template(pagemem, t.signatures):
                return t
        return None

    @_atomic
    def add_template(self, pagemem: PageMem) -> Template:
        existing = self.find_template(pagemem)
        if existing is not None:
            return existing
        t = Template(id=pagemem.template_id, signatures=[s.signature for s in pagemem.sections], example_url=pagemem.url)
        self.db.table("templates").insert(t.model_dump(mode="json"))
        return t

    # ------------------------------------------------------------------ explored elements and bookmarks

    def _rows(self, table: str) -> Iterable[Mapping]:
        """The table's documents as stored, read-only: no Document object per row (an exploration asks for E_w,
        thousands of rows, on every click)."""
        return ((self.db.storage.read() or {}).get(table) or {}).values()

    @_atomic
    def mark_explored(self, keys: Iterable[str]) -> None:
        table = self.db.table("explored")
        known = {d["key"] for d in self._rows("explored")}
        new = [{"key": k} for k in dict.fromkeys(keys) if k not in known]
        if new:
            table.insert_multiple(new)

    def explored(self) -> set[str]:
        return {d["key"] for d in self._rows("explored")}

    def add_bookmark(self, bookmark: Bookmark) -> None:
        self.db.table("bookmarks").upsert(bookmark.model_dump(mode="json"), Query().url == bookmark.url)

    def bookmarks(self) -> list[Bookmark]:
        """The user's bookmarks, then the learned ones best first."""
        found = [Bookmark.model_validate(d) for d in self.db.table("bookmarks").all()]
        return sorted(found, key=lambda b: (b.learned, b.rank))

    @_atomic
    def set_learned_bookmarks(self, bookmarks: list[Bookmark]) -> bool:
        """Replace the learned bookmarks (learn.py's rule) by these; bookmarks the user made stay, and win
        over a learned one for the same URL. Returns True when the table changed (and was written)."""
        table = self.db.table("bookmarks")
        docs = table.all()
        mine = {d["url"] for d in docs if not d.get("learned")}
        wanted = {b.url: b.model_dump(mode="json") for b in bookmarks if b.url not in mine}
        current = {d["url"]: dict(d) for d in docs if d.get("learned")}
        if current == wanted:
            return False
        stale = [d.doc_id for d in docs if d.get("learned") and current[d["url"]] != wanted.get(d["url"])]
        if stale:
            table.remove(doc_ids=stale)
        new = [row for url, row in wanted.items() if current.get(url) != row]
        if new:
            table.insert_multiple(new)
        return True

    # ------------------------------------------------------------------ element behaviour and page use (records.py)

    def dropdowns(self) -> list[DropdownRecord]:
        return [DropdownRecord.model_validate(d) for d in self.db.table("dropdowns").all()]

    def save_dropdown(self, record: DropdownRecord) -> None:
        """One record per trigger and page: the latest click's revealed elements replace the earlier ones."""
        q = (Query().trigger_key == record.trigger_key) & (Query().url == record.url)
        self.db.table("dropdowns").upsert(record.model_dump(mode="json"), q)

    def links(self) -> list[LinkRecord]:
        return [LinkRecord.model_validate(d) for d in self.db.table("links").all()]

    @_atomic
    def count_link(self, link: LinkRecord) -> LinkRecord:
        """Add one click to the link from link.from_url to link.to_url by element link.key."""
        table = self.db.table("links")
        q = (Query().from_url == link.from_url) & (Query().to_url == link.to_url) & (Query().key == link.key)
        doc = table.get(q)
        if doc is not None:
            link = link.model_copy(update={"clicks": int(doc.get("clicks", 0)) + link.clicks})
        table.upsert(link.model_dump(mode="json"), q)
        return link

    def controls(self, url: str | None = None) -> list[ControlRecord]:
        """The recorded controls of one page (normalized URL), or of every page."""
        docs = self.db.table("controls").all() if url is None else self.db.table("controls").search(Query().url == url)
        return [ControlRecord.model_validate(d) for d in docs]

    @_atomic
    def set_controls(self, url: str, records: list[ControlRecord]) -> bool:
        """Replace the page's controls by these; written only when they changed. Returns True when written."""
        table = self.db.table("controls")
        wanted = [r.model_dump(mode="json") for r in records]
        if [dict(d) for d in table.search(Query().url == url)] == wanted:
            return False
        table.remove(Query().url == url)
        if wanted:
            table.insert_multiple(wanted)
        return True

    def page_stats(self) -> dict[str, PageStats]:
        return {d["url"]: PageStats.model_validate(d) for d in self.db.table("page_stats").all()}

    @_atomic
    def update_page_stats(self, change: Callable[[dict[str, PageStats]], Iterable[PageStats]]) -> dict[str, PageStats]:
        """Read every page's stats, let `change` update them (it returns the ones it changed), write those with
        one write for the new rows and one for the changed ones. Returns the stats as updated."""
        table = self.db.table("page_stats")
        raw = (self.db.storage.read() or {}).get("page_stats") or {}
        ids = {d["url"]: int(doc_id) for doc_id, d in raw.items()}
        existing = {d["url"]: d for d in raw.values()}
        stats = _LazyStats(existing)  # a click's update reads one page's stats, not thousands
        new, changed = [], {}
        for st in change(stats):
            row = st.model_dump(mode="json")
            doc = existing.get(st.url)
            if doc is None:
                new.append(row)
            elif dict(doc) != row:
                changed[st.url] = row
        if new:
            table.insert_multiple(new)
        if changed:
            # By document id: a condition per changed row tested against every row cost O(rows x changes).
            table.update(lambda doc: doc.update(changed[doc["url"]]), doc_ids=[ids[url] for url in changed])
        return stats

    # ------------------------------------------------------------------ summary and purpose caches

    def cached_summary(self, content_hash: str) -> tuple[str, str | None] | None:
        """(summary, state_summary) recorded for this exact rendered content."""
        doc = self.db.table("summaries").get(Query().hash == content_hash)
        return (doc["summary"], doc.get("state_summary")) if doc else None

    def store_summary(self, content_hash: str, summary: str, state_summary: str | None = None) -> None:
        self.db.table("summaries").upsert({"hash": content_hash, "summary": summary, "state_summary": state_summary},
                                          Query().hash == content_hash)

    def cached_purpose(self, content_hash: str | None = None, scope: str | None = None) -> str | None:
        """A purpose recorded for this content, else for the same section of a page of the same template
        (scope: purpose_scope())."""
        table = self.db.table("purposes")
        if content_hash:
            doc = table.get((Query().kind == "hash") & (Query().key == content_hash))
            if doc:
                return doc["purpose"]
        if scope:
            doc = table.get((Query().kind == "template") & (Query().key == scope))
            if doc:
                return doc["purpose"]
        return None

    def store_purpose(self, purpose: str, content_hash: str | None = None, scope: str | None = None) -> None:
        table = self.db.table("purposes")
        for kind, key in (("hash", content_hash), ("template", scope)):
            if key:
                table.upsert({"kind": kind, "key": key, "purpose": purpose}, (Query().kind == kind) & (Query().key == key))

    def store_abstractions(self, summaries: Iterable[tuple[str, str, str | None]],
                           purposes: Iterable[tuple[str, str | None, str | None]]) -> None:
        """Record many summaries (content_hash, summary, state_summary) and purposes (purpose, content_hash,
        scope) at once: one write per table for new keys, instead of one rewrite (and fsync) of the
        site's file per section when an observation step abstracts a whole page."""
        rows = {h: {"hash": h, "summary": s, "state_summary": st} for h, s, st in summaries if h}
        self._upsert_many("summaries", rows, lambda d: d.get("hash"))
        prows: dict[tuple[str, str], dict] = {}
        for purpose, content_hash, scope in purposes:
            for kind, key in (("hash", content_hash), ("template", scope)):
                if key and purpose:
                    prows[(kind, key)] = {"kind": kind, "key": key, "purpose": purpose}
        self._upsert_many("purposes", prows, lambda d: (d.get("kind"), d.get("key")))

    @_atomic
    def _upsert_many(self, name: str, rows: dict, key_of) -> None:
        if not rows:
            return
        table = self.db.table(name)
        existing = {key_of(d): d for d in table.all()}
        new = [row for key, row in rows.items() if key not in existing]
        if new:
            table.insert_multiple(new)
        for key, row in rows.items():  # changed values of known keys: rare (same content, same summary)
            doc = existing.get(key)
            if doc is not None and any(doc.get(k) != v for k, v in row.items()):
                table.update(row, doc_ids=[doc.doc_id])

    def apply_cached(self, pagemem: PageMem) -> int:
        """Fill summaries and purposes from the caches; returns how many sections need no LLM call now. The two
        tables are read once for the whole page (every read parses the site's file: with a list of 40 items,
        one read per section made a revisit of a 1 MB memory cost 5 s)."""
        sections = list(all_sections(pagemem))
        wanted = [s for s in sections if (s.content_hash and (s.summary is None or s.needs_summary)) or s.purpose is None]
        if wanted:
            summaries = {d.get("hash"): d for d in self.db.table("summaries").all()}
            purposes = {(d.get("kind"), d.get("key")): d.get("purpose") for d in self.db.table("purposes").all()}
            for section in wanted:
                self._apply(section, pagemem.template_id, summaries.get, lambda kind, key: purposes.get((kind, key)))
        return sum(1 for s in sections if s.summary is not None and not s.needs_summary)

    def apply_cached_section(self, section: PageSection, template_id: str = "") -> None:
        """Summary and state by content (also over a stale summary: the hash is of the new content), purpose by
        content or else by the section's place in the page's template (template_id: PageMem.template_id)."""
        def summary_of(content_hash: str) -> dict | None:
            return self.db.table("summaries").get(Query().hash == content_hash)

        def purpose_of(kind: str, key: str) -> str | None:
            doc = self.db.table("purposes").get((Query().kind == kind) & (Query().key == key))
            return doc["purpose"] if doc else None

        self._apply(section, template_id, summary_of, purpose_of)

    @staticmethod
    def _apply(section: PageSection, template_id: str, summary_of, purpose_of) -> None:
        if section.content_hash and (section.summary is None or section.needs_summary):
            hit = summary_of(section.content_hash)
            if hit is not None:
                section.summary, section.state_summary = hit["summary"], hit.get("state_summary")
                section.needs_summary = section.stood_in = False
        if section.purpose is None:
            scope = purpose_scope(template_id, section.signature)
            section.purpose = ((purpose_of("hash", section.content_hash) if section.content_hash else None)
                               or (purpose_of("template", scope) if scope else None))

    def remember(self, pagemem: PageMem) -> None:
        """Record every section's summary and purpose in the caches, then the page itself. One write per
        table: the agent calls this once per step, and each write rewrites (and fsyncs) the site's file."""
        summaries, purposes = [], []
        for section in all_sections(pagemem):
            # A summary written while a field held typed text may quote it: such summaries stay in memory only.
            typed = any((e.is_typed_field or e.is_password) and e.value for e in section.all_elements())
            if section.stood_in:  # a call's stand-in, not the model's answer: stored, it would never be asked again
                continue
            if section.summary is not None and section.content_hash and not typed:
                summaries.append((section.content_hash, section.summary, section.state_summary))
            if section.purpose:
                purposes.append((section.purpose, section.content_hash, purpose_scope(pagemem.template_id, section.signature)))
        self.store_abstractions(summaries, purposes)
        self.save_page(pagemem)

    # ------------------------------------------------------------------ whole WebsiteMem

    def load(self) -> WebsiteMem:
        pages = {}
        for url in self.page_urls():
            pm = self.load_page(url)
            if pm is not None:
                pages[url] = pm
        return WebsiteMem(site=self.site, pages=pages, templates=self.templates(), explored=self.explored(),
                          bookmarks=self.bookmarks())

    @_atomic
    def save(self, memory: WebsiteMem) -> None:
        for pm in memory.pages.values():
            self.save_page(pm)
        known = {t.id for t in self.templates()}
        for t in memory.templates:
            if t.id not in known:
                self.db.table("templates").insert(t.model_dump(mode="json"))
        self.mark_explored(sorted(memory.explored))
        for b in memory.bookmarks:
            self.add_bookmark(b)

    def stats(self) -> dict[str, int]:
        return {name: len(self.db.table(name)) for name in ("pages", "templates", "explored", "bookmarks", "summaries", "purposes",
                                                            "dropdowns", "links", "page_stats", "controls")}


class _LazyStats(MutableMapping):
    """Page stats by URL, each validated into a PageStats the first time it is read (update_page_stats)."""

    def __init__(self, docs: dict[str, Mapping]) -> None:
        self._docs = docs
        self._stats: dict[str, PageStats] = {}

    def __getitem__(self, url: str) -> PageStats:
        st = self._stats.get(url)
        if st is None:
            st = self._stats[url] = PageStats.model_validate(self._docs[url])  # KeyError when unknown
        return st

    def __setitem__(self, url: str, st: PageStats) -> None:
        self._stats[url] = st

    def __delitem__(self, url: str) -> None:
        self._stats.pop(url, None)
        self._docs = {k: v for k, v in self._docs.items() if k != url}

    def __iter__(self) -> Iterator[str]:
        yield from self._docs
        yield from (url for url in self._stats if url not in self._docs)

    def __len__(self) -> int:
        return len(self._docs) + sum(1 for url in self._stats if url not in self._docs)

    def __contains__(self, url: object) -> bool:
        return url in self._stats or url in self._docs


def list_sites(directory: Path | None = None) -> list[tuple[str, Path]]:
    d = Path(directory) if directory is not None else memory_dir()
    return sorted((p.stem, p) for p in d.glob("*.json") if not p.name.startswith("."))


def remove_site(site: str, directory: Path | None = None) -> bool:
    d = Path(directory) if directory is not None else memory_dir()
    path = d / f"{site_key(site)}.json"
    with holding(file_lock(path), path):  # a write in progress in another process finishes first
        if not path.exists():
            return False
        if path.is_dir():
            raise MemoryFileError(path, "it is a directory, not a file", None,
                                  remedy="It was not removed: it is not a file this program wrote.")
        path.unlink()
    return True
