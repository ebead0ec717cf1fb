"""Bad snapshots (repeated ids, parent cycles, dangling parents, frames without a host) never make
DividePage fail or put an element in two sections."""

from __future__ import annotations

from collections import Counter

from companion.pagemem.divide import divide_page
from companion.protocol import Box, FrameSnapshot, Scroll, Snapshot, SnapshotElement, Viewport


def el(i, parent=None, tag="div", **kw):
    return SnapshotElement(id=i, parent=parent, tag=tag, box=Box(x=0, y=i * 20, w=300, h=20), visible=True, **kw)


def test_malformed_snapshot_divides_without_duplicates():
    top = [
        el(1, tag="html"), el(2, 1, "body"),
        el(3, 2, "a", attrs={"href": "/x"}, text="X", interactive=True),
        el(3, 2, "a", attrs={"href": "/y"}, text="Y", interactive=True),  # repeated id
        el(4, 5, "a", attrs={"href": "/c"}, text="cycle", interactive=True), el(5, 4),  # parent cycle
        el(6, 99, "button", text="dangling", interactive=True),  # parent not in the snapshot
        el(7, 7, "button", text="self", interactive=True),  # its own parent
    ]
    orphan_frame = FrameSnapshot(frame=9, url="http://127.0.0.1/f", elements=[el(1, tag="html"), el(2, 1, "button", text="framed", interactive=True)])
    snap = Snapshot(url="http://127.0.0.1/", title="bad", viewport=Viewport(width=800, height=600), scroll=Scroll(),
                    frames=[FrameSnapshot(frame=0, url="http://127.0.0.1/", elements=top), orphan_frame])
    pm = divide_page(snap)
    counts = Counter(e.key for e in pm.all_elements())
    assert max(counts.values()) == 1
    names = {e.name for e in pm.all_elements()}
    assert {"X", "dangling", "self", "framed"} <= names and "Y" not in names


def test_empty_snapshot_gives_an_empty_pagemem():
    snap = Snapshot(url="http://127.0.0.1/", title="", viewport=Viewport(width=800, height=600), scroll=Scroll(), frames=[])
    assert divide_page(snap).sections == []


def test_very_deep_nesting_does_not_hit_the_recursion_limit():
    elements = [el(1, tag="html")] + [el(i, i - 1) for i in range(2, 5000)]
    elements.append(el(5000, 4999, "button", text="deep", interactive=True))
    snap = Snapshot(url="http://127.0.0.1/", title="deep", viewport=Viewport(width=800, height=600), scroll=Scroll(),
                    frames=[FrameSnapshot(frame=0, url="http://127.0.0.1/", elements=elements)])
    pm = divide_page(snap)
    assert [e.name for e in pm.all_elements()] == ["deep"]
