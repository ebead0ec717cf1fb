"""count_tokens(text): a fast, offline estimate of how many LLM tokens a text costs.

Sizes everywhere (section bounds, prompt budgets) are measured with this one function. It runs without
any download: text is split the way BPE pre-tokenizers split it (letter runs, digit runs, punctuation
runs, whitespace), and each piece is charged by its length and script. The weights were fitted against
OpenAI's o200k_base BPE (pip package `bpe-openai`, which ships the merge tables) on text and outlines
from the corpus pages; `tests/pagemem/calibrate_tokens.py` re-runs that fit and prints the error.
"""

from __future__ import annotations

import re
from functools import lru_cache

# One alternation, scanned once: the regex engine does the work in C.
_PIECES = re.compile(
    r"""
    (?P<word>[A-Za-z]+)                      # ASCII letters
  | (?P<digits>[0-9]+)                        # digit run: BPE splits into groups of three
  | (?P<space>\s+)                            # whitespace run
  | (?P<punct>[!-/:-@\[-`{-~]+)               # ASCII punctuation run
  | (?P<wide>[\u3000-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]+)  # CJK / kana / hangul / fullwidth
  | (?P<other>[^\x00-\x7f\u3000-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\s]+)  # other non-ASCII letters
    """,
    re.VERBOSE,
)

# Fitted weights (see module docstring).
WORD_CHARS_PER_TOKEN = 7.0    # a word of up to this many letters is usually one token
DIGITS_PER_TOKEN = 3.0
PUNCT_CHARS_PER_TOKEN = 1.5
WIDE_CHARS_PER_TOKEN = 1.2
OTHER_CHARS_PER_TOKEN = 2.0
SPACE_CHARS_PER_TOKEN = 8.0   # a single space is merged into the following word; long runs cost a little


def _ceil_div(n: int, d: float) -> int:
    q = n / d
    i = int(q)
    return i if q == i else i + 1


def _count(text: str) -> int:
    total = 0
    for m in _PIECES.finditer(text):
        kind = m.lastgroup
        n = m.end() - m.start()
        if kind == "word":
            total += _ceil_div(n, WORD_CHARS_PER_TOKEN)
        elif kind == "space":
            # A lone space (or newline) rides on the next token; only longer runs cost.
            if n > 1:
                total += _ceil_div(n - 1, SPACE_CHARS_PER_TOKEN)
            elif m.group() == "\n":
                total += 1
        elif kind == "digits":
            total += _ceil_div(n, DIGITS_PER_TOKEN)
        elif kind == "punct":
            total += _ceil_div(n, PUNCT_CHARS_PER_TOKEN)
        elif kind == "wide":
            total += _ceil_div(n, WIDE_CHARS_PER_TOKEN)
        else:
            total += _ceil_div(n, OTHER_CHARS_PER_TOKEN)
    return total


@lru_cache(maxsize=65536)
def _count_cached(text: str) -> int:
    return _count(text)


def count_tokens(text: str) -> int:
    """Estimated token count of `text` (o200k_base-calibrated). Deterministic and offline."""
    if not text:
        return 0
    if len(text) <= 256:
        return _count_cached(text)
    return _count(text)
