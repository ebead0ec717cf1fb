"""A password the agent types comes back in other spellings: a GET login form puts it, percent- or form-encoded,
in the next page's URL, which the session recording, the LLM recording, the memory file, the checkpoint and the
task events all keep; the next page may echo that URL. None of them holds the password in any spelling (plain,
percent-encoded with %20 or + for a space, in either hex case, fully or minimally encoded, JSON-escaped once or
twice, HTML-escaped). Real Chromium with the real extension types it (tests/fixtures/pages/sec_get_login.html,
whose password field's name says nothing of a secret, so only the masking of what was typed can catch it)."""

from __future__ import annotations

import asyncio
import html
import json
import re
import time
from urllib.parse import parse_qs, quote, quote_plus, urlsplit

import pytest

from companion import typed_secrets
from companion.agent.checkpoint import TaskCheckpoint
from companion.agent.events import EventStream
from companion.agent.history import StepRecord
from companion.bridge.recorder import Recorder
from companion.llm.prompts import untrusted
from companion.llm.recording import Completion, Recorder as LLMRecorder
from companion.memory.store import WebsiteMemStore
from companion.pagemem.divide import divide_page

pytestmark = pytest.mark.browser

PASSWORDS = ["p@ss w0rd", "a+b%20c d", "pässwört ünï", "qu\"o'te <&>", "sl/a\\sh 😀x", "%2B+%+"]


def _lower_hex(text: str) -> str:
    return re.sub(r"%[0-9A-F]{2}", lambda m: m.group(0).lower(), text)


def spellings(secret: str) -> set[str]:
    """Every way the secret can be written that these files could hold."""
    forms = {secret, quote(secret, safe=""), quote_plus(secret), quote(secret, safe="!$&'()*+,;=:@/?~"),
             quote(secret, safe=" ")}
    forms |= {_lower_hex(f) for f in forms}
    for form in list(forms):
        once = json.dumps(form)[1:-1]
        forms |= {once, json.dumps(form, ensure_ascii=False)[1:-1], json.dumps(once)[1:-1]}
    forms |= {html.escape(secret), html.escape(secret, quote=False)}
    return forms


def leaked(secret: str, text: str) -> list[str]:
    return sorted(f for f in spellings(secret) if f in text)


@pytest.fixture
def no_known_secrets():
    """Typed secrets are remembered for the process: start from none, and leave none to later tests."""
    typed_secrets.forget_all()
    yield
    typed_secrets.forget_all()


@pytest.mark.parametrize("password", PASSWORDS)
def test_a_typed_password_in_a_get_forms_url_is_in_no_file_in_any_spelling(browser, open_page, find, tmp_path, password,
                                                                              no_known_secrets):
    task = f'Log in as alice with the password "{password}".'
    llm_file = tmp_path / "llm" / "calls.jsonl"
    llm_recorder = LLMRecorder(llm_file)
    session_file = tmp_path / "bridge" / "session.jsonl"
    browser.hub.recorder = Recorder(session_file)
    try:
        start = open_page("sec_get_login.html")
        snapshot = browser.run(browser.session.snapshot())
        user, _ = find(snapshot, id="user")
        secret, _ = find(snapshot, id="w")
        go, _ = find(snapshot, id="go")
        assert browser.run(browser.session.type(user, "alice")).ok
        assert browser.run(browser.session.type(secret, password)).ok
        browser.run(browser.session.click(go))
        deadline = time.monotonic() + 20
        while "sec_get_login_done" not in browser.driver.current_url and time.monotonic() < deadline:
            time.sleep(0.1)
        after = browser.run(browser.session.snapshot())
    finally:
        browser.hub.recorder.close()
        browser.hub.recorder = None
    # The form did put the password in the URL, and the page echoes it.
    assert parse_qs(urlsplit(after.url).query)["w"] == [password], after.url
    echo = next(e.text for f in after.frames for e in f.elements if e.attrs.get("id") == "echo")
    assert "w=" in echo

    # What an LLM call about the next page would be recorded with (its prompt quotes the page and its URL).
    llm_recorder.append("k", "action_selection", "1",
                        [{"role": "user", "content": f"Task: {task}\nPage: {after.url}\n{echo}"}], {},
                        Completion(text=json.dumps({"reason": f"went to {after.url}", "index": 0})), "json_schema", 0.1)
    with WebsiteMemStore(after.url, tmp_path / "memory") as store:
        store.remember(divide_page(after))
        memory_file = store.path
    checkpoint = TaskCheckpoint.begin(task, start, directory=tmp_path / "tasks")
    checkpoint.url = after.url
    checkpoint.history = [StepRecord(step=1, page_name="Welcome", url=after.url, summary=echo, reason=f"open {after.url}",
                                     actions=["Typed a password into [2] textbox \"Password\""])]
    events = EventStream()
    asyncio.run(events.emit("step", step=2, url=after.url, page="Welcome", text=echo))

    kept = {"session recording": session_file.read_text(), "LLM recording": llm_file.read_text(),
            "memory file": memory_file.read_text(), "checkpoint": checkpoint.save().read_text(),
            "task events": events.events[0].model_dump_json(), "page text in a prompt": untrusted(f"{after.url} {echo}")}
    assert "sec_get_login_done" in kept["session recording"] and "sec_get_login_done" in kept["memory file"]
    for where, text in kept.items():
        assert leaked(password, text) == [], where
    assert typed_secrets.MASK in kept["session recording"]


def test_an_agent_login_through_a_get_form_leaves_the_password_in_no_file(browser, pages, tmp_path, no_known_secrets):
    """The whole task: the real loop logs in (the user approves the submission), the next URL carries the password,
    and the LLM recording the real client wrote, the session recording, the site's memory file and the task's
    checkpoint hold it in no spelling."""
    from companion import llm
    from companion.agent.loop import run_task
    from companion.llm.client import LLMClient
    from tests.support.agent_llm import AgentLLM, index_of, submit_the_form

    password = "p@ss w0rd+é"

    def log_in(text: str, labels: list[str]) -> int:
        if "Welcome back" in text:
            return index_of(labels, r"^end the task")
        found = index_of(labels, r'button "Log in"')
        return found if found is not None else index_of(labels, r"^end the task")

    async def approve(question: str) -> bool:
        return True

    server = AgentLLM(choose=log_in, verify=lambda text: True, answer=lambda text: "Logged in as alice.",
                      overrides={"form_field_selection": lambda text: {"indices": [0, 1]},
                                 "field_value": lambda text: {"value": "alice"},
                                 "form_review": submit_the_form}).start()
    llm_file = tmp_path / "llm" / "calls.jsonl"
    llm.set_client(LLMClient(spec=server.spec, record_path=str(llm_file)))
    session_file = tmp_path / "bridge" / "session.jsonl"
    browser.hub.recorder = Recorder(session_file)
    memory = tmp_path / "memory"
    try:
        result = browser.run(run_task(f'Log in as alice with the password "{password}".', session=browser.session,
                                      start_url=pages.url("sec_get_login.html"), confirm=approve, memory_dir=memory,
                                      max_steps=3), timeout=300)
    finally:
        browser.hub.recorder.close()
        browser.hub.recorder = None
        llm.set_client(None)
        server.stop()
    assert parse_qs(urlsplit(browser.driver.current_url).query)["w"] == [password]  # it logged in through the URL
    assert result.status == "done", result.explanation
    kept = {"session recording": session_file.read_text(), "LLM recording": llm_file.read_text(),
            "checkpoint": open(result.checkpoint, encoding="utf-8").read(),
            **{f"memory file {p.name}": p.read_text() for p in memory.rglob("*.json")}}
    assert any("sec_get_login_done" in text for where, text in kept.items() if where.startswith("memory"))
    for where, text in kept.items():
        assert leaked(password, text) == [], where


def test_an_ordinary_field_where_the_last_page_had_its_password_is_no_secret(browser, open_page, find, no_known_secrets):
    """Element ids restart with each document: a field of the next page with the id the last page's password field
    had is an ordinary field, and what is typed into it is not masked (it would be, in prompts and memory too)."""
    open_page("sec_get_login.html")
    before = browser.run(browser.session.snapshot())
    open_page("sec_same_shape.html")
    after = browser.run(browser.session.snapshot())
    (_, password), (ref, tea) = find(before, id="w"), find(after, id="w")
    assert password.secret and not tea.secret and password.id == tea.id  # the same id, a password no more
    assert browser.run(browser.session.type(ref, "green sencha")).ok
    assert typed_secrets.mask("green sencha") == "green sencha"
