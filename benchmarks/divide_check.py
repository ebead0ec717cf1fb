"""The invariants every division must satisfy, as a function the tests and the benchmark both run.

- deterministic: dividing the same snapshot twice gives identical sections and signatures;
- coverage: every interactive element that renders (seen: tree.py `kept`, or kept through visible
  descendants) is in exactly one section or list item, and nothing else is;
- bound: no normal or form section renders to more than max_tokens.
"""

from __future__ import annotations

from collections import Counter

from companion.pagemem.divide import DivideOptions, divide_page
from companion.pagemem.model import PageMem
from companion.pagemem.tree import build_tree
from companion.protocol import Snapshot


def division_problems(snapshot: Snapshot, pagemem: PageMem, options: DivideOptions | None = None) -> list[str]:
    options = options or DivideOptions()
    problems: list[str] = []
    again = divide_page(snapshot, options)
    if again.model_dump() != pagemem.model_dump():
        problems.append("not deterministic: a second division differs")
    tree = build_tree(snapshot)
    expected = {n.key for n in tree.nodes.values() if n.kept and n.el.interactive}
    seen = Counter(e.key for e in pagemem.all_elements())
    dupes = [k for k, c in seen.items() if c > 1]
    if dupes:
        problems.append(f"{len(dupes)} elements in more than one section, e.g. {dupes[:3]}")
    missing = expected - set(seen)
    if missing:
        problems.append(f"{len(missing)} interactive elements in no section, e.g. {sorted(missing)[:3]}")
    extra = set(seen) - expected
    if extra:
        problems.append(f"{len(extra)} section elements that are not rendered interactive elements")
    for s in pagemem.sections:
        if s.kind in ("normal", "form") and s.tokens > options.max_tokens:
            problems.append(f"section {s.id} ({s.kind}) has {s.tokens} tokens > {options.max_tokens}")
    return problems
