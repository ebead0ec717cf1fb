"""Fold the successive PageUpdates of one execute() into one: what the action changed, start to end.

Workflows refresh the PageMem several times (after each click, before validation, after submitting), so
a refresh by the caller afterwards would see an empty diff. Outcome.changes carries the net change instead:
an element added then removed is no change; a modification keeps its first `before` and last `after`.
"""

from __future__ import annotations

from companion.pagemem.update import ElementChange, PageUpdate, SectionDiff


def merge_updates(first: PageUpdate | None, later: PageUpdate) -> PageUpdate:
    if first is None:
        return later.model_copy(deep=True)
    out = first.model_copy(deep=True)
    for sid, diff in later.diffs.items():
        acc = out.diffs.setdefault(sid, SectionDiff(section_id=sid))
        added = {e.key: e for e in acc.added}
        removed = {e.key: e for e in acc.removed}
        modified = {c.after.key: c for c in acc.modified}
        for e in diff.removed:
            if e.key in added:
                del added[e.key]  # appeared and went again within the action: no net change
            else:
                modified.pop(e.key, None)
                removed[e.key] = e
        for e in diff.added:
            if e.key in removed:
                before = removed.pop(e.key)
                if before.content_key() != e.content_key():
                    modified[e.key] = ElementChange(before=before, after=e)
            else:
                added[e.key] = e
        for c in diff.modified:
            key = c.after.key
            if key in added:
                added[key] = c.after
            elif key in modified:
                modified[key] = ElementChange(before=modified[key].before, after=c.after)
            else:
                modified[key] = c
        acc.added, acc.removed = list(added.values()), list(removed.values())
        acc.modified = [c for c in modified.values() if c.before.content_key() != c.after.content_key()]
    out.added_sections = list(dict.fromkeys(out.added_sections + later.added_sections))
    gone = {s.id for s in later.removed_sections}
    out.removed_sections = [s for s in out.removed_sections if s.id not in gone] + list(later.removed_sections)
    return out
