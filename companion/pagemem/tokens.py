"""count_tokens(text): a fast, offline estimate of how many LLM tokens a text costs.

Sizes everywhere (section bounds, prompt budgets) are measured with this one function. It runs without
any download: text is cut the way BPE pre-tokenizers cut it (letter runs, digit runs, punctuation runs,
whitespace), and each piece is charged by its length and script. The weights were fitted against
OpenAI's o200k_base BPE (pip package `bpe-openai`, which ships the merge tables) on text and outline
lines from the corpus pages: estimate/real median 1.04, 90 % of samples between 0.95 and 1.14 (slightly
high on purpose: bounds stay safe). `tests/pagemem/calibrate_tokens.py` re-measures it.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Fitted weights (see module docstring).
WORD_CHARS_PER_TOKEN = 7.0    # a word of up to this many letters is usually one token
DIGITS_PER_TOKEN = 3.0
PUNCT_CHARS_PER_TOKEN = 1.5
WIDE_CHARS_PER_TOKEN = 1.2
OTHER_CHARS_PER_TOKEN = 2.0
SPACE_CHARS_PER_TOKEN = 8.0   # a single space is merged into the following word; long runs cost a little


_WORD_CHUNK = re.compile(r"[A-Za-z]{1,%d}" % int(WORD_CHARS_PER_TOKEN))
_DIGIT_CHUNK = re.compile(r"[0-9]{1,%d}" % int(DIGITS_PER_TOKEN))
_PUNCT_RUN = re.compile(r"[!-/:-@\[-`{-~]+")
_WIDE_CHAR = re.compile(r"[\u3000-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")
_OTHER_CHAR = re.compile(r"[^\x00-\x7f\u3000-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\s]")
_SPACE_RUN = re.compile(r"\s{2,}")


def _count(text: str) -> int:
    """Each piece class is counted by one C-level regex pass; only punctuation runs and long whitespace
    runs are summed in Python (they are few). A word of n letters costs ceil(n / WORD_CHARS_PER_TOKEN):
    exactly the number of {1,7}-letter chunks the regex finds; digits likewise in threes."""
    total = len(_WORD_CHUNK.findall(text)) + len(_DIGIT_CHUNK.findall(text))
    for run in _PUNCT_RUN.findall(text):
        total += -(-len(run) * 2 // 3)  # ceil(n / 1.5)
    wide = len(_WIDE_CHAR.findall(text))
    if wide:
        total += -(-wide * 5 // 6)  # ceil(n / 1.2)
    other = len(_OTHER_CHAR.findall(text))
    if other:
        total += -(-other // int(OTHER_CHARS_PER_TOKEN))
    total += text.count("\n")
    for run in _SPACE_RUN.findall(text):
        total += -(-(len(run) - 1) // int(SPACE_CHARS_PER_TOKEN))
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
