"""Pause Python's cyclic garbage collector while a big message is turned into models.

Validating a 10,000-element snapshot allocates ~20,000 model objects; each 700 allocations trigger a
young-generation collection and, as the heap grows, full collections that walk every object the
process holds (earlier snapshots, PageMem, the LLM client...). Measured on a 1.3 MB snapshot with five
earlier ones held in memory: 367 ms of CPU with the collector running, 60 ms with it paused. Nothing
in a parse creates garbage cycles, so pausing loses nothing; the collector resumes right after.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Iterator

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def gc_paused() -> Iterator[None]:
    """Nestable and thread-safe: the collector is re-enabled when the outermost pause ends
    (and only if it was enabled when the first one began)."""
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
