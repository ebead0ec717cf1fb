"""`webchallenger pagemem FILE [--json]`: opens the page in its own headless Chromium and prints the division."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main

PAGES = Path(__file__).resolve().parents[1] / "fixtures" / "pages"

pytestmark = pytest.mark.browser


def test_pagemem_json_and_table(capsys):
    assert main(["pagemem", str(PAGES / "pm_shop.html"), "--json"]) == 0
    pm = json.loads(capsys.readouterr().out)
    assert pm["title"] == "PM shop"
    assert [s["kind"] for s in pm["sections"]].count("list") >= 2 and "modal" in [s["kind"] for s in pm["sections"]]
    assert main(["pagemem", str(PAGES / "pm_product_1.html")]) == 0
    out = capsys.readouterr().out
    assert "form" in out and "signature" in out and "template" in out
