"""What a site's memory file must look like, checked before anything is read from it or written to it.

Two levels. shape_problem(): the TinyDB layout (an object of tables, each an object of documents keyed by
integer ids, each document an object); TinyDB itself crashes with a bare ValueError or TypeError on any of
these, so every read checks them (cheap next to the JSON parse). model_problem(): every document of a
known table validates against its typed row model; checked once when a store opens the file, so a
hand-edited or foreign page is found at open time and the task goes on with a scratch store, instead of a
ValidationError in the middle of a step.

A table added to the store registers its row model in ROW_MODELS (the exact document it stores); tables not
listed are shape-checked only.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from companion.memory.records import ControlRecord, DropdownRecord, LinkRecord, PageStats
from companion.pagemem.model import Bookmark, PageMem, Template


class _Row(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class MetaRow(_Row):
    schema_version: int
    site: str


class PageRow(_Row):
    model_config = ConfigDict(extra="forbid", strict=False)  # a stored PageMem is JSON: lax, as on load

    url: str
    pagemem: PageMem


class ExploredRow(_Row):
    key: str


class SummaryRow(_Row):
    hash: str
    summary: str
    state_summary: str | None = None


class PurposeRow(_Row):
    kind: str  # "hash", or a structural scope (its kinds evolve with the purpose rule)
    key: str
    purpose: str


ROW_MODELS: dict[str, type[BaseModel]] = {
    "meta": MetaRow,
    "pages": PageRow,
    "templates": Template,
    "explored": ExploredRow,
    "bookmarks": Bookmark,
    "summaries": SummaryRow,
    "purposes": PurposeRow,
    "dropdowns": DropdownRecord,
    "links": LinkRecord,
    "page_stats": PageStats,
    "controls": ControlRecord,
}


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)


def shape_problem(data: Any) -> str | None:
    """Why `data` is not a TinyDB database, or None when it is one."""
    if not isinstance(data, dict):
        return f"not a TinyDB database: the top level is {_kind(data)}, not an object of tables"
    for table, docs in data.items():
        if not isinstance(docs, dict):
            return f"table {table!r} is {_kind(docs)}, not an object of documents"
        for doc_id, doc in docs.items():
            try:
                int(doc_id)
            except ValueError:
                return f"table {table!r} has a document id {doc_id!r} that is not an integer"
            if not isinstance(doc, dict):
                return f"document {doc_id} of table {table!r} is {_kind(doc)}, not an object"
    return None


def model_problem(data: dict[str, dict[str, Any]]) -> str | None:
    """The first document (of a shape-checked database) that its table's row model refuses, or None."""
    for table, docs in data.items():
        model = ROW_MODELS.get(table)
        if model is None:
            continue
        for doc_id, doc in docs.items():
            try:
                model.model_validate(doc)
            except ValidationError as e:
                first = e.errors()[0]
                where = ".".join(str(p) for p in first.get("loc", ())) or "document"
                return (f"document {doc_id} of table {table!r} does not match its model "
                        f"({where}: {first.get('msg', 'invalid')})")
    return None
