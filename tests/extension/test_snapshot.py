"""Snapshots taken by the real extension in real headless Chromium, checked against the page as Selenium sees it."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def _frame(snapshot, frame_id):
    return next(f for f in snapshot.frames if f.frame == frame_id)


async def test_same_origin_iframe_content_is_in_the_snapshot(browser, open_page, find):
    open_page("ext_frames.html", other=True)
    snap = await browser.session.snapshot()
    _, iframe = find(snap, tag="iframe", id="same")
    assert iframe.child_frame is not None
    ref, button = find(snap, text="Frame button", frame=iframe.child_frame)
    assert button.interactive and button.visible
    child = _frame(snap, iframe.child_frame)
    assert child.parent_frame == 0 and "who=same" in child.url
    assert any(e.text == "child text same" for e in child.elements)


async def test_cross_origin_iframe_content_is_in_the_snapshot(browser, open_page, pages, find):
    open_page("ext_frames.html", other=True)
    snap = await browser.session.snapshot()
    _, iframe = find(snap, tag="iframe", id="cross")
    child = _frame(snap, iframe.child_frame)
    assert child.url.startswith(pages.other_base)
    assert any(e.text == "child text cross" for e in child.elements)
    find(snap, text="Frame button", frame=iframe.child_frame)


async def test_frames_come_top_first_then_children(browser, open_page):
    open_page("ext_frames.html", other=True)
    snap = await browser.session.snapshot()
    assert snap.frames[0].frame == 0 and snap.frames[0].parent_frame is None
    assert len(snap.frames) == 3
    assert all(f.parent_frame == 0 for f in snap.frames[1:])


async def test_iframe_content_boxes_are_offset_into_top_level_viewport_coordinates(browser, open_page, find):
    open_page("ext_frames.html", other=True)
    snap = await browser.session.snapshot()
    for frame_name in ("same", "cross"):
        # Where the iframe's content box starts, measured by the page itself (border + padding included).
        origin_x, origin_y = browser.driver.execute_script(
            "const f = document.getElementById(arguments[0]); const r = f.getBoundingClientRect();"
            "const cs = getComputedStyle(f);"
            "return [r.left + f.clientLeft + parseFloat(cs.paddingLeft), r.top + f.clientTop + parseFloat(cs.paddingTop)];",
            frame_name,
        )
        _, iframe = find(snap, tag="iframe", id=frame_name)
        _, button = find(snap, text="Frame button", frame=iframe.child_frame)
        # The fixture positions the button at left:20px, top:30px inside the frame, 100x40.
        assert button.box.x == pytest.approx(origin_x + 20, abs=0.6)
        assert button.box.y == pytest.approx(origin_y + 30, abs=0.6)
        assert (button.box.w, button.box.h) == (100, 40)


async def test_open_shadow_root_content_is_in_the_snapshot(browser, open_page, find):
    open_page("ext_shadow.html")
    snap = await browser.session.snapshot()
    host_ref, _ = find(snap, tag="open-widget")
    _, button = find(snap, text="Open shadow button")
    assert button.in_shadow and button.interactive
    assert button.parent == host_ref.id


async def test_closed_shadow_root_content_is_in_the_snapshot(browser, open_page, find):
    open_page("ext_shadow.html")
    # The page itself cannot see inside: the content is reachable only through chrome.dom.
    assert browser.driver.execute_script("return document.getElementById('closed-host').shadowRoot") is None
    snap = await browser.session.snapshot()
    host_ref, _ = find(snap, tag="closed-widget")
    _, text = find(snap, text="Closed shadow text")
    _, field = find(snap, tag="input", placeholder="closed field")
    assert text.in_shadow and field.in_shadow and field.interactive
    assert text.parent == host_ref.id


@pytest.mark.parametrize("element_id", ["display-none", "visibility-hidden", "opacity-zero", "hidden-attr", "inside-hidden"])
async def test_hidden_elements_are_flagged_not_visible(browser, open_page, find, element_id):
    open_page("ext_hidden.html")
    snap = await browser.session.snapshot()
    _, shown = find(snap, id="shown")
    _, hidden = find(snap, id=element_id)
    assert shown.visible
    assert not hidden.visible


async def test_ids_are_stable_across_two_snapshots_of_an_unchanged_page(browser, open_page):
    open_page("ext_frames.html", other=True)
    first = await browser.session.snapshot()
    second = await browser.session.snapshot()

    def identity(snap):
        return {(f.frame, e.id): (e.tag, e.parent, e.attrs.get("id"), e.text) for f in snap.frames for e in f.elements}

    assert identity(first) == identity(second)
    assert len(identity(first)) > 10


async def test_new_elements_get_new_ids_and_old_ones_keep_theirs(browser, open_page, find):
    open_page("ext_stale.html")
    before = await browser.session.snapshot()
    ref, _ = find(before, id="remover")
    browser.driver.execute_script("document.body.insertAdjacentHTML('afterbegin', '<p id=added>added</p>')")
    after = await browser.session.snapshot()
    assert find(after, id="remover")[0] == ref
    added_ref, _ = find(after, id="added")
    assert added_ref.id > max(e.id for e in before.frames[0].elements)


async def test_password_value_appears_nowhere_in_the_snapshot(browser, open_page, find):
    open_page("ext_form.html")
    secret = "hunter2-very-secret"
    browser.driver.find_element("id", "pw").send_keys(secret)
    browser.driver.find_element("id", "q").send_keys("visible query")
    result = await browser.session.snapshot_result()
    wire = result.model_dump_json()
    assert secret not in wire
    _, password = find(result.snapshot, id="pw")
    assert password.value is None
    # Other fields do carry their value: the omission is specific to passwords.
    assert find(result.snapshot, id="q")[1].value == "visible query"


async def test_form_state_is_reported(browser, open_page, find):
    open_page("ext_form.html")
    browser.driver.find_element("id", "agree").click()
    browser.driver.execute_script("document.getElementById('color').value = 'g'")
    snap = await browser.session.snapshot()
    assert find(snap, id="agree")[1].checked is True
    assert find(snap, id="color")[1].value == "g"
    assert find(snap, tag="option", text="Green")[1].selected is True
    assert find(snap, tag="option", text="Red")[1].selected is None


async def test_snapshot_carries_page_metadata_and_in_page_timing(browser, open_page):
    url = open_page("ext_form.html")
    snap = await browser.session.snapshot()
    assert snap.url == url and snap.title == "ext form"
    assert snap.viewport.width > 0 and snap.viewport.height > 0
    assert snap.timing_ms is not None and snap.timing_ms >= 0


async def test_script_and_style_content_is_skipped(browser, open_page):
    open_page("ext_form.html")
    snap = await browser.session.snapshot()
    tags = {e.tag for f in snap.frames for e in f.elements}
    assert not tags & {"script", "style", "head", "meta"}
    assert "body" in tags


@pytest.mark.parametrize(
    "element_id, interactive",
    [
        ("pointer-card", True),  # cursor:pointer, decided by computed style
        ("inherits-pointer", False),  # only inherits its parent's pointer: the parent is the target
        ("role-button", True),
        ("tabbable", True),
        ("untabbable", False),
        ("handler", True),
        ("editable", True),
        ("anchor-no-href", False),
        ("anchor", True),
        ("hidden-input", False),
        ("plain-text", False),
        ("hover-like", True),  # a pointer only under the mouse (".controls span:hover"), read from the stylesheet
        ("hover-tile", True),  # the same inside @media
        ("hover-other", False),  # a :hover rule without a pointer; "div:hover" says nothing of one div
    ],
)
async def test_interactive_heuristics(browser, open_page, find, element_id, interactive):
    open_page("ext_interactive.html")
    snap = await browser.session.snapshot()
    assert find(snap, id=element_id)[1].interactive is interactive


async def test_svg_is_one_element_without_its_drawing_internals(browser, open_page, find):
    open_page("ext_interactive.html")
    snap = await browser.session.snapshot()
    ref, svg = find(snap, id="icon")
    assert svg.tag == "svg" and svg.visible
    assert not [e for e in snap.frames[0].elements if e.parent == ref.id]
    assert not [e for e in snap.frames[0].elements if e.tag in ("circle", "title")]


async def test_nested_frame_offsets_accumulate(browser, open_page, find):
    open_page("ext_nested.html", other=True)
    driver = browser.driver
    content_origin = (
        "const f = document.getElementById(arguments[0]); const r = f.getBoundingClientRect();"
        "const cs = getComputedStyle(f);"
        "return [r.left + f.clientLeft + parseFloat(cs.paddingLeft), r.top + f.clientTop + parseFloat(cs.paddingTop)];"
    )
    outer_x, outer_y = driver.execute_script(content_origin, "outer")
    driver.switch_to.frame(driver.find_element("id", "outer"))
    try:
        inner_x, inner_y = driver.execute_script(content_origin, "cross")
    finally:
        driver.switch_to.default_content()
    snap = await browser.session.snapshot()
    _, outer = find(snap, tag="iframe", id="outer")
    _, inner = find(snap, tag="iframe", id="cross", frame=outer.child_frame)
    inner_frame = next(f for f in snap.frames if f.frame == inner.child_frame)
    assert inner_frame.parent_frame == outer.child_frame
    _, button = find(snap, text="Frame button", frame=inner.child_frame)
    assert button.box.x == pytest.approx(outer_x + inner_x + 20, abs=0.6)
    assert button.box.y == pytest.approx(outer_y + inner_y + 30, abs=0.6)
    # Document order: each frame is followed by its own descendants.
    order = [f.frame for f in snap.frames]
    assert order.index(outer.child_frame) < order.index(inner.child_frame)


async def test_frame_inside_a_hidden_subtree_is_snapshotted_and_not_visible(browser, open_page, find):
    open_page("ext_hidden.html")
    snap = await browser.session.snapshot()
    _, iframe = find(snap, tag="iframe", id="hidden-frame")
    assert not iframe.visible and iframe.child_frame is not None
    _, button = find(snap, text="Frame button", frame=iframe.child_frame)
    assert not button.visible


async def test_required_fields_are_flagged_so_form_validation_can_find_them(browser, open_page, find):
    from companion.pagemem.divide import divide_page

    open_page("act_login.html")
    snap = await browser.session.snapshot()
    ref, user = find(snap, tag="input", id="user")
    assert "required" in user.attrs
    assert divide_page(snap).element_by_ref(ref).required
