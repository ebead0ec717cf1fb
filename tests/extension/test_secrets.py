"""Secrets stay in the page, in real headless Chromium with the real extension (tests/fixtures/pages/sec_secrets.html):
a password shown in clear by the page's own button, a card number (autocomplete=cc-number), a one-time code, a
CSS-masked PIN, a card expiry select (which option is chosen), a hidden CSRF token and a password the page turned to text before the
extension first looked. None of their values is in the snapshot the companion receives, in the PageMem text
the prompts are made of, in a --record file or in the memory file of a saved page; those files are 0600 in
0700 directories."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from companion import typed_secrets
from companion.bridge.recorder import Recorder
from companion.llm.recording import Completion, Recorder as LLMRecorder
from companion.memory.store import WebsiteMemStore
from companion.pagemem.divide import divide_page

pytestmark = pytest.mark.browser

SECRETS = {
    "pw": "shown-pw-secret-8812",
    "card": "4111111111111111",
    "otp": "834271",
    "pin": "913746",
    "csrf": "csrf-hidden-token-5f2b9c1e",
    "early": "early-shown-secret-3377",
}
VISIBLE = "visible-user-name"


def shown_snapshot(browser, open_page, query: str = ""):
    """The page after a first look and the page's own "Show" button: the password field is type=text now."""
    open_page("sec_secrets.html", query=query)
    browser.run(browser.session.snapshot())
    browser.driver.find_element("id", "show").click()
    assert browser.driver.execute_script("return document.getElementById('pw').type") == "text"
    return browser.run(browser.session.snapshot())


def leaked(text: str) -> list[str]:
    return [name for name, value in SECRETS.items() if value in text]


def private(path: Path) -> bool:
    return stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_no_secret_value_is_in_the_snapshot(browser, open_page, find):
    snapshot = shown_snapshot(browser, open_page)
    wire = snapshot.model_dump_json()
    assert leaked(wire) == []
    assert VISIBLE in wire  # an ordinary field's value still is
    for field in ("pw", "card", "otp", "pin", "early"):
        _, el = find(snapshot, id=field)
        assert el.secret and el.has_value and el.value is None, field
    _, hidden = find(snapshot, name="csrf")
    assert hidden.secret and hidden.value is None


def test_a_secret_select_does_not_say_which_option_is_chosen(browser, open_page, find):
    snapshot = shown_snapshot(browser, open_page)
    _, expiry = find(snapshot, id="exp")
    assert expiry.secret and expiry.value is None
    options = [e for f in snapshot.frames for e in f.elements if e.tag == "option" and e.parent == expiry.id]
    assert [o.text for o in options] == ["01", "expiry-month-07"]  # the choices are no secret
    assert not any(o.selected for o in options)  # the choice is


def test_no_secret_value_is_in_what_prompts_are_made_of(browser, open_page):
    pm = divide_page(shown_snapshot(browser, open_page))
    text = "\n".join(s.details for s in pm.sections) + "\n" + "\n".join(e.line() for e in pm.all_elements())
    assert leaked(text) == []
    assert VISIBLE in text


def test_a_recording_holds_no_secret_value_and_is_private(browser, open_page, tmp_path):
    recording = tmp_path / "records" / "session.jsonl"
    browser.hub.recorder = Recorder(recording)
    try:
        shown_snapshot(browser, open_page)
    finally:
        browser.hub.recorder.close()
        browser.hub.recorder = None
    text = recording.read_text()
    assert "snapshot_result" in text and VISIBLE in text  # the snapshots were recorded
    assert leaked(text) == []
    assert private(recording)


def test_a_saved_page_leaves_no_secret_in_the_memory_file(browser, open_page, tmp_path):
    snapshot = shown_snapshot(browser, open_page, query="session=9f8e7d6c5b4a39281706f5e4d3c2b1a0&q=tea")
    memory = tmp_path / "memory"
    with WebsiteMemStore(snapshot.url, memory) as store:
        store.remember(divide_page(snapshot))
        path = store.path
    text = path.read_text()
    assert '"pages"' in text and "q=tea" in text
    assert leaked(text) == []
    assert "9f8e7d6c5b4a39281706f5e4d3c2b1a0" not in text  # a session id in the URL
    assert private(path)


def test_text_typed_into_a_secret_field_is_masked_in_recordings_written_before(browser, open_page, find, tmp_path):
    """The LLM call that chose the text was recorded before the typing showed it is a secret."""
    typed_secrets.forget_all()
    typed = "typed-card-4242424242424242"
    llm_file = tmp_path / "llm" / "calls.jsonl"
    llm_recorder = LLMRecorder(llm_file)
    llm_recorder.append("k", "input_value", "1", [{"role": "user", "content": f"Task: pay with card {typed}"}], {},
                        Completion(text=json.dumps({"value": typed})), "json_schema", 0.1)
    bridge_file = tmp_path / "bridge" / "session.jsonl"
    browser.hub.recorder = Recorder(bridge_file)
    try:
        open_page("sec_secrets.html")
        snapshot = browser.run(browser.session.snapshot())
        ref, card = find(snapshot, id="card")
        assert card.secret
        result = browser.run(browser.session.type(ref, typed))
        assert result.ok, result.error
    finally:
        browser.hub.recorder.close()
        browser.hub.recorder = None
    assert browser.driver.execute_script("return document.getElementById('card').value") == typed  # it was typed
    for path in (llm_file, bridge_file):
        text = path.read_text()
        assert typed not in text, path
        assert private(path)
    assert typed_secrets.MASK in llm_file.read_text()
    assert json.loads(llm_file.read_text().splitlines()[0])["key"] == "k"  # a replay still finds the call


def test_a_prefilled_secret_field_counts_as_filled(browser, open_page):
    """Its value is never read, but the page says there is one: SubmitForm must not type over the user's card."""
    from companion.act.elements import field_description, is_empty

    pm = divide_page(shown_snapshot(browser, open_page))
    card = next(e for e in pm.all_elements() if e.attrs.get("id") == "card")
    assert not is_empty(card, set())
    assert field_description(card, set()).endswith("(filled)")
