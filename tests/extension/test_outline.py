"""See what the agent sees, in real headless Chromium with the real extension: the side panel's
"Show sections" outlines the PageMem sections on the live page, the outlines are out of the page's reach (its
scripts cannot read them, its layout does not change, snapshots never contain them), and an action's target is
outlined for a moment before the action in a task the user watches."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from companion.panel.sections import install_section_outlines
from companion.bridge.session import outlining_actions
from companion.cli import main
from companion.pagemem.divide import divide_page
from tests.support.outline import isolated
from tests.support.sidepanel import PANEL_URL, wait_connected

pytestmark = pytest.mark.browser

PAGE = "outline_page.html"


@pytest.fixture
def outlines(browser):
    service = install_section_outlines(browser.hub)
    yield service
    service.uninstall()


@contextlib.contextmanager
def extension_tab(browser):
    """An extension page in a second tab (the side panel, as a user opens it); the page's tab is left as it was."""
    driver = browser.driver
    page_handle = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.get(PANEL_URL)
    wait_connected(driver, 20)
    try:
        yield driver
    finally:
        driver.close()
        driver.switch_to.window(page_handle)


def page_tab(browser, url: str) -> int:
    tabs = browser.run(browser.session.list_tabs())
    return next(t.tab_id for t in tabs if t.url.startswith(url))


def show_sections(browser, outlines, url: str):
    """What "Show sections" does, straight from the companion: snapshot, divide, draw. Returns the SectionsShown."""
    return browser.run(outlines.show(browser.session, page_tab(browser, url)))


def drawn_boxes(browser, url: str) -> list[dict]:
    with extension_tab(browser) as driver:
        return isolated(driver, url, "outline.drawn")


def close(a: dict, b, tolerance: float = 1.0) -> bool:
    return all(abs(a[k] - getattr(b, k)) <= tolerance for k in ("x", "y", "w", "h"))


# ----------------------------------------------------------------------------- "Show sections" draws the sections


def test_show_sections_in_the_panel_outlines_what_webchallenger_pagemem_prints(browser, pages, outlines, capsys):
    url = pages.url(PAGE)
    assert main(["pagemem", url, "--json"]) == 0  # its own headless Chromium, same window size
    printed = json.loads(capsys.readouterr().out)["sections"]
    browser.open(url)
    with extension_tab(browser) as driver:
        driver.find_element(By.ID, "show-sections").click()
        status = WebDriverWait(driver, 120).until(
            lambda d: (t := d.find_element(By.ID, "sections-status").text) and "outlined" in t and t)
        assert status == f"{len(printed)} sections outlined on the page"
        assert driver.find_element(By.ID, "show-sections").get_attribute("aria-pressed") == "true"
        drawn = isolated(driver, url, "outline.drawn")
        driver.find_element(By.ID, "show-sections").click()  # off again, for the next test
        WebDriverWait(driver, 20).until(lambda d: isolated(d, url, "outline.drawn") == [])
    assert len(drawn) == len(printed) >= 4
    for box, section in zip(drawn, printed):
        assert box["label"].startswith(f"{section['id']} · {section['kind']}")
        assert box["kind"] == section["kind"]
        b = section["box"]
        assert all(abs(box["box"][k] - b[k]) <= 1.0 for k in ("x", "y", "w", "h")), (box, section)


def test_hide_sections_in_the_panel_takes_the_outlines_off(browser, pages, outlines):
    url = pages.url(PAGE)
    browser.open(url)
    with extension_tab(browser) as driver:
        button = driver.find_element(By.ID, "show-sections")
        button.click()
        WebDriverWait(driver, 120).until(lambda d: "outlined" in d.find_element(By.ID, "sections-status").text)
        assert isolated(driver, url, "outline.drawn")
        button.click()
        WebDriverWait(driver, 20).until(lambda d: button.get_attribute("aria-pressed") == "false")
        WebDriverWait(driver, 20).until(lambda d: isolated(d, url, "outline.drawn") == [])
    assert browser.driver.execute_script("return document.documentElement.lastElementChild.localName") == "body"


def test_outlines_match_the_sections_divided_from_the_same_snapshot(browser, pages, outlines):
    url = pages.url(PAGE)
    browser.open(url)
    shown = show_sections(browser, outlines, url)
    sections = divide_page(browser.snapshot()).sections  # a snapshot taken with the outlines on the page
    drawn = drawn_boxes(browser, url)
    assert shown.count == len(drawn) == len(sections)
    for box, section in zip(drawn, sections):
        assert box["kind"] == section.kind and close(box["box"], section.box), (box, section)


def test_outlines_move_with_the_page_as_it_scrolls(browser, pages, outlines):
    url = pages.url(PAGE)
    browser.open(url)
    show_sections(browser, outlines, url)
    before = drawn_boxes(browser, url)
    browser.driver.execute_script("window.scrollTo(0, 300)")
    WebDriverWait(browser.driver, 10).until(lambda d: d.execute_script("return window.scrollY") == 300)
    after = drawn_boxes(browser, url)
    assert [round(a["box"]["y"] - b["box"]["y"]) for a, b in zip(after, before)] == [-300] * len(before)


def test_the_outline_of_a_section_fixed_to_the_window_stays_put_as_the_page_scrolls(browser, pages, outlines):
    url = pages.url(PAGE)
    browser.open(url)
    browser.driver.execute_script("""
      const bar = document.createElement('aside');
      bar.id = 'fixed-bar';
      bar.style.cssText = 'position: fixed; right: 20px; top: 300px; width: 220px; padding: 8px; background: #eee';
      bar.innerHTML = '<p>Chat with us</p><a href="#chat">Open the chat</a> <a href="#later">Later</a>';
      document.body.appendChild(bar);
    """)
    shown = show_sections(browser, outlines, url)
    before = drawn_boxes(browser, url)
    browser.driver.execute_script("window.scrollTo(0, 300)")
    WebDriverWait(browser.driver, 10).until(lambda d: d.execute_script("return window.scrollY") == 300)
    after = drawn_boxes(browser, url)
    bar = browser.driver.execute_script("const r = document.getElementById('fixed-bar').getBoundingClientRect(); return [r.x, r.y]")
    moved = {a["label"].split(" · ")[0]: round(a["box"]["y"] - b["box"]["y"]) for a, b in zip(after, before)}
    fixed = [a for a in after if abs(a["box"]["x"] - bar[0]) <= 1 and abs(a["box"]["y"] - bar[1]) <= 1]
    assert len(fixed) == 1 and len(after) == shown.count  # the bar's outline is still on the bar
    fixed_id = fixed[0]["label"].split(" · ")[0]
    assert moved.pop(fixed_id) == 0
    assert set(moved.values()) == {-300}


def test_outlines_follow_their_sections_when_the_page_reflows(browser, pages, outlines):
    """A block inserted above the sections after they are outlined moves them down: each outline moves with its
    section (a screenshot is kept for a person to look at: WEBCHALLENGER_PANEL_SHOTS, default /tmp/team)."""
    url = pages.url(PAGE)
    browser.open(url)
    show_sections(browser, outlines, url)
    before = drawn_boxes(browser, url)
    browser.driver.execute_script("""
      const block = document.createElement('div');
      block.style.cssText = 'height: 300px; background: #f3f3f3';
      document.body.prepend(block);
    """)
    sections = divide_page(browser.snapshot()).sections
    after = drawn_boxes(browser, url)
    shots = Path(os.environ.get("WEBCHALLENGER_PANEL_SHOTS", "/tmp/team"))
    shots.mkdir(parents=True, exist_ok=True)
    browser.driver.save_screenshot(str(shots / "outlines-reflow.png"))
    assert len(after) == len(sections) == len(before)
    for box, section in zip(after, sections):
        assert box["kind"] == section.kind and close(box["box"], section.box), (box, section)


def test_an_outline_label_leaves_the_first_line_of_a_section_at_the_top_of_the_page_readable(browser, pages, outlines):
    """A section that starts at the very top has no room for its label above it: the label does not cover the
    section's first line (here the navigation's first link)."""
    url = pages.url(PAGE)
    browser.open(url)
    browser.driver.execute_script("document.body.style.margin = '0'")
    show_sections(browser, outlines, url)
    drawn = drawn_boxes(browser, url)
    first = browser.driver.execute_script(
        "const r = document.querySelector('nav a').getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}")
    def contains(box: dict) -> bool:
        return (box["x"] <= first["x"] + 1 and box["y"] <= first["y"] + 1 and first["x"] + first["w"] <= box["x"] + box["w"] + 1
                and first["y"] + first["h"] <= box["y"] + box["h"] + 1)

    nav = min((d for d in drawn if contains(d["box"])), key=lambda d: d["box"]["w"] * d["box"]["h"])
    label = nav["label_box"]
    assert nav["box"]["y"] < 17  # no room above: the case at hand
    overlaps = (label["x"] < first["x"] + first["w"] and first["x"] < label["x"] + label["w"]
                and label["y"] < first["y"] + first["h"] and first["y"] < label["y"] + label["h"])
    assert not overlaps, (label, first)


# ----------------------------------------------------------------------------- out of the page's reach

_WATCH = """
window.__seen = [];
new MutationObserver((records) => {
  for (const r of records) {
    for (const n of r.addedNodes) window.__seen.push(n.nodeName + ' ' + (n.textContent || ''));
    if (r.type === 'characterData' || r.type === 'attributes') window.__seen.push(r.target.nodeName + ' ' + (r.target.textContent || ''));
  }
}).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
"""

_LOOK = """
const host = Array.from(document.documentElement.children).find((e) => e.localName.startsWith('webchallenger-outline-'));
const everything = Array.from(document.querySelectorAll('*'));
return {
  host: Boolean(host),
  shadow: host ? host.shadowRoot === null : null,
  inner: host ? host.innerHTML : null,
  labelled: everything.filter((e) => (e.textContent || '').includes(' · ')).map((e) => e.localName),
  text: document.documentElement.innerText.includes(' · ') || document.documentElement.textContent.includes(' · '),
  seen: window.__seen.filter((s) => s.includes(' · ')),
  seenHost: window.__seen.filter((s) => s.toLowerCase().startsWith('webchallenger-outline-')).length,
};
"""


def test_the_pages_scripts_cannot_read_the_outlines(browser, pages, outlines):
    url = pages.url(PAGE)
    browser.open(url)
    browser.driver.execute_script(_WATCH)
    show_sections(browser, outlines, url)
    assert drawn_boxes(browser, url)  # they are there, in the extension's world
    look = browser.driver.execute_script(_LOOK)
    # The page may find the host element, never what is in it: no shadow root, no markup, no label text; its
    # MutationObserver saw the host arrive (it was watching), and nothing of the outlines.
    assert look.pop("seenHost") >= 1
    assert look == {"host": True, "shadow": True, "inner": "", "labelled": [], "text": False, "seen": []}


_LAYOUT = """
const rects = Array.from(document.querySelectorAll('body *'), (e) => {
  const r = e.getBoundingClientRect();
  return [e.localName, r.x, r.y, r.width, r.height];
});
const b = document.getElementById('press').getBoundingClientRect();
const hit = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
const de = document.documentElement;
return { rects, hit: hit && hit.id, size: [de.scrollWidth, de.scrollHeight, de.clientWidth, de.clientHeight] };
"""


def test_outlines_leave_the_pages_layout_and_clicks_as_they_were(browser, pages, outlines):
    url = pages.url(PAGE)
    browser.open(url)
    before = browser.driver.execute_script(_LAYOUT)
    show_sections(browser, outlines, url)
    assert drawn_boxes(browser, url)
    after = browser.driver.execute_script(_LAYOUT)
    assert after == before and after["hit"] == "press"  # a click at the button still lands on it


def test_a_snapshot_never_contains_the_outlines(browser, pages, outlines):
    url = pages.url(PAGE)
    browser.open(url)
    before = browser.snapshot()
    show_sections(browser, outlines, url)
    after = browser.snapshot()
    tags = lambda snap: [(e.tag, e.text) for f in snap.frames for e in f.elements]  # noqa: E731
    assert tags(after) == tags(before)
    assert not any(e.tag.startswith("webchallenger-outline-") for f in after.frames for e in f.elements)


def test_a_page_element_named_like_the_outline_host_is_still_read(browser, pages, outlines, find):
    # The host is skipped by identity: a page that copies its name cannot hide content from the agent with it.
    url = pages.url(PAGE)
    browser.open(url)
    show_sections(browser, outlines, url)
    browser.driver.execute_script("""
      const name = Array.from(document.documentElement.children).find((e) => e.localName.startsWith('webchallenger-outline-')).localName;
      const twin = document.createElement(name);
      twin.innerHTML = '<button id="twin">Hidden from the agent?</button>';
      document.body.appendChild(twin);
    """)
    _, el = find(browser.snapshot(), id="twin")
    assert el.text == "Hidden from the agent?" and el.visible


# ----------------------------------------------------------------------------- the acted-on element


def test_in_a_watched_task_the_target_is_outlined_before_the_action(browser, pages, find):
    url = pages.url(PAGE)
    browser.open(url)
    ref, _ = find(browser.snapshot(), id="press")
    box = browser.driver.execute_script("const r = document.getElementById('press').getBoundingClientRect(); return [r.x, r.y, r.width, r.height]")

    async def click_watched():
        with outlining_actions(400):
            return await browser.session.click(ref)

    assert browser.run(click_watched()).ok
    pressed_at = browser.driver.execute_script("return window.pressedAt")
    with extension_tab(browser) as driver:
        flashes = isolated(driver, url, "outline.flashes")
        assert isolated(driver, url, "outline.drawn") == []  # only the sections layer: the flash itself is gone
    flash = next(f for f in flashes if f["id"] == ref.id)
    assert flash["kind"] == "click"
    # Shown first, for at least the 400 ms asked (timers never fire early), and gone before the click landed.
    assert flash["shown_at"] + 390 <= flash["hidden_at"] <= pressed_at
    assert [round(v) for v in (flash["box"]["x"], flash["box"]["y"], flash["box"]["w"], flash["box"]["h"])] == [round(v) for v in box]


def test_actions_outside_a_watched_task_are_not_outlined(browser, pages, find):
    url = pages.url(PAGE)
    browser.open(url)
    ref, _ = find(browser.snapshot(), id="press")
    assert browser.run(browser.session.click(ref)).ok
    with extension_tab(browser) as driver:
        assert isolated(driver, url, "outline.flashes") == []
