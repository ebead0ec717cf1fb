"""Calibrate companion.pagemem.tokens against a real BPE tokenizer (not a test; run by hand).

    python -m venv /tmp/calib && /tmp/calib/bin/pip install bpe-openai lxml pydantic
    PYTHONPATH=. /tmp/calib/bin/python tests/pagemem/calibrate_tokens.py [--fit]

Samples are chunks of visible text and outline-like lines from the corpus pages. Prints the
estimate/real ratio distribution; with --fit, grid-searches the weights first.
"""

from __future__ import annotations

import gzip
import itertools
import statistics
import sys
from pathlib import Path

import bpe_openai
import lxml.html

from companion.pagemem import tokens

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"


def samples() -> list[str]:
    out = []
    for path in sorted(CORPUS.glob("*/*.html.gz"))[::3]:
        try:
            doc = lxml.html.fromstring(gzip.decompress(path.read_bytes()))
        except Exception:
            continue
        lines = []
        for el in doc.iter():
            if not isinstance(el.tag, str) or el.tag in ("script", "style", "noscript"):
                continue
            text = " ".join((el.text or "").split())
            if not text:
                continue
            if el.tag == "a":
                lines.append(f'- [{len(lines)}] link "{text[:80]}"')
            else:
                lines.append(f"  - text: {text}")
        for i in range(0, len(lines), 40):
            out.append("\n".join(lines[i : i + 40]))
    return out


def ratios(texts, real):
    return [tokens._count(t) / r for t, r in zip(texts, real) if r >= 20]


def main() -> None:
    enc = bpe_openai.get_encoding("o200k_base")
    texts = samples()
    real = [len(enc.encode(t)) for t in texts]
    if "--fit" in sys.argv:
        best = None
        for w, p, o, wi in itertools.product([4.5, 5, 5.5, 6, 6.5, 7], [1.5, 2, 2.5, 3], [2, 3, 4], [1.0, 1.2, 1.5]):
            tokens.WORD_CHARS_PER_TOKEN, tokens.PUNCT_CHARS_PER_TOKEN = w, p
            tokens.OTHER_CHARS_PER_TOKEN, tokens.WIDE_CHARS_PER_TOKEN = o, wi
            r = ratios(texts, real)
            err = statistics.mean(abs(x - 1.0) for x in r) + abs(statistics.median(r) - 1.0)
            if best is None or err < best[0]:
                best = (err, w, p, o, wi)
        print("best (err, word, punct, other, wide):", best)
        _, tokens.WORD_CHARS_PER_TOKEN, tokens.PUNCT_CHARS_PER_TOKEN, tokens.OTHER_CHARS_PER_TOKEN, tokens.WIDE_CHARS_PER_TOKEN = best
    r = sorted(ratios(texts, real))
    n = len(r)
    print(f"samples={n} real_tokens={sum(real)} estimate/real: median={statistics.median(r):.3f} "
          f"p5={r[n // 20]:.3f} p95={r[n * 19 // 20]:.3f} min={r[0]:.3f} max={r[-1]:.3f}")


if __name__ == "__main__":
    main()
