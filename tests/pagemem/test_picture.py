"""`webchallenger pagemem FILE --picture out.png`: a screenshot of the whole page with its sections outlined, the
drawn boxes being the sections' boxes (pixels read back by Chromium's own PNG decoder, in the test browser)."""

from __future__ import annotations

import base64
import json
import math
import stat
from pathlib import Path

import pytest

from companion.cli import main

PAGES = Path(__file__).resolve().parents[1] / "fixtures" / "pages"

pytestmark = pytest.mark.browser

# content/outline.js: the border colour of each section kind.
KIND_RGB = {"normal": (26, 115, 232), "list": (24, 128, 56), "list_item": (90, 170, 90), "form": (232, 113, 10),
            "modal": (217, 48, 37)}

_PIXELS = """
const [b64, points, done] = arguments;
const img = new Image();
img.onload = () => {
  const canvas = document.createElement('canvas');
  canvas.width = img.width; canvas.height = img.height;
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  done({ size: [img.width, img.height], pixels: points.map(([x, y]) => Array.from(ctx.getImageData(x, y, 1, 1).data.slice(0, 3))) });
};
img.onerror = () => done({ error: 'not a PNG Chromium can read' });
img.src = 'data:image/png;base64,' + b64;
"""


def edge_points(box: dict) -> list[tuple[int, int]]:
    """A pixel inside the 2 px border at the middle of the left, right and bottom edges (the label sits on the top)."""
    x, y, w, h = box["x"], box["y"], box["w"], box["h"]
    mid_x, mid_y = int(x + w / 2), int(y + h / 2)
    return [(math.floor(x + 1), mid_y), (math.floor(x + w - 1), mid_y), (mid_x, math.floor(y + h - 1))]


def test_the_picture_has_each_sections_box_drawn_in_its_kinds_colour(browser, pages, tmp_path, capsys):
    picture = tmp_path / "shots" / "page.png"
    assert main(["pagemem", str(PAGES / "outline_page.html"), "--json", "--picture", str(picture)]) == 0
    sections = json.loads(capsys.readouterr().out)["sections"]
    assert stat.S_IMODE(picture.stat().st_mode) == 0o600  # a page's picture is as private as the rest
    checked = [(s, p) for s in sections if s["box"]["w"] > 6 and s["box"]["h"] > 6 for p in edge_points(s["box"])]
    # Just inside each box, and in the gap between two sections: page, not outline.
    inside = [(s, (math.floor(s["box"]["x"] + 6), math.floor(s["box"]["y"] + s["box"]["h"] - 6))) for s in sections
              if s["box"]["w"] > 12 and s["box"]["h"] > 12]
    browser.open(pages.url("basic.html"))
    read = browser.driver.execute_async_script(_PIXELS, base64.b64encode(picture.read_bytes()).decode(),
                                               [p for _, p in checked] + [p for _, p in inside])
    assert "error" not in read, read
    width, height = read["size"]
    bottom = max(s["box"]["y"] + s["box"]["h"] for s in sections)
    assert height >= bottom > 1000  # the whole page, its footer far below the 900 px window included
    edges, insides = read["pixels"][:len(checked)], read["pixels"][len(checked):]
    assert len({s["id"] for s, _ in checked}) >= 4
    for (section, point), rgb in zip(checked, edges):
        assert tuple(rgb) == KIND_RGB[section["kind"]], (section["id"], section["kind"], point, rgb)
    for (section, point), rgb in zip(inside, insides):
        assert tuple(rgb) not in KIND_RGB.values(), (section["id"], point, rgb)

