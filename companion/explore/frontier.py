"""The exploration's own state in the site's memory file, so a stopped run resumes where it stopped.

One row per start URL in the `exploration` table: the depth-first frontier (a stack of stubs, next on top),
the URLs explored so far (in commit order) and the counters of the closing report. It is written once per
committed page, after that page's records: a run stopped between two commits loses only the page in flight,
which the next run explores again from the same state, so stopping and resuming ends with the memory an
uninterrupted run would have written. The explored set E_w itself is the memory's `explored` table.
"""

from __future__ import annotations

from tinydb import Query

from companion.explore.model import ExploreState, Stub
from companion.memory.store import WebsiteMemStore, normalize_url

TABLE = "exploration"


def load_state(store: WebsiteMemStore, start_url: str) -> ExploreState | None:
    doc = store.db.table(TABLE).get(Query().start_url == normalize_url(start_url))
    return ExploreState.model_validate(dict(doc)) if doc is not None else None


def save_state(store: WebsiteMemStore, state: ExploreState) -> None:
    store.db.table(TABLE).upsert(state.model_dump(mode="json"), Query().start_url == state.start_url)


def new_state(start_url: str) -> ExploreState:
    url = normalize_url(start_url)
    return ExploreState(start_url=url, stack=[Stub(url=url, depth=0)])


def push_children(state: ExploreState, stubs: list[Stub]) -> None:
    """Depth-first: the first stub found is explored next, then its own subtree, then the second one."""
    state.stack.extend(reversed(stubs))


__all__ = ["TABLE", "load_state", "new_state", "push_children", "save_state"]
