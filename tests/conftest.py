"""Shared fixtures for the whole suite: one headless Chromium with the real extension, paired with an
in-process companion, and two static servers over tests/fixtures/pages/ — started once per test session.

Fixtures
--------
``pages`` (session)
    A ``PagePair`` serving ``tests/fixtures/pages/`` on two loopback ports. ``pages.url("form.html")`` is
    ``http://127.0.0.1:A/form.html``; ``pages.other_url("child.html")`` the same file from the second
    server (a different origin: use it for cross-origin iframes); ``pages.other_url(p, host="localhost")``
    makes it cross-site too. ``pages.base`` / ``pages.other_base`` are the origins.

``browser`` (session)
    A ``LaunchedBrowser`` (companion/bridge/launcher.py): Chromium already paired through the options
    page. Useful members:
      - ``browser.driver``: the Selenium WebDriver; read the page with it to verify what actions did.
      - ``browser.session``: the current ``BrowserSession`` (waits up to 20 s if the extension is
        reconnecting). Its methods are coroutines: ``snapshot()``, ``click(ref)``, ``type(ref, text)``, ...
      - ``browser.run(coro, timeout=120)``: run such a coroutine from a sync test and return its result.
        Async tests (asyncio_mode=auto) may simply ``await browser.session.snapshot()``: session calls
        hop onto the companion's own loop, whatever loop the test runs on.
      - ``browser.open(url)``: load a URL in the controlled (active) tab; returns after the load event.
      - ``browser.companion``: the server (``.port``, ``.hub``, ``.restart()``); ``browser.token``.
    Leave the browser as you found it: one tab, the companion running, a session connected.

``open_page`` (function)
    ``open_page("frames.html", other=True)`` loads a fixture page in the controlled tab (``other=True``
    appends ``?other=<second origin>`` for pages that embed a cross-origin frame) and returns its URL.

``find`` (function)
    ``find(snapshot, id="name")`` / ``find(snapshot, text="Press me")`` / ``find(snapshot, tag="select")``:
    the first (frame id, element) whose attributes/text/tag match, as ``(ElementRef, SnapshotElement)``.

Every test also gets WEBCHALLENGER_CONFIG_DIR / DATA_DIR / CACHE_DIR pointing at temporary
directories (session-wide), so no test touches the user's real files.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.support.extension_build import DIST_EXTENSION, ensure_extension_built
from tests.support.scheduling import XdistScheduling

PAGES_DIR = Path(__file__).resolve().parent / "fixtures" / "pages"

# Set before any test module imports code that reads them at import time.
_ISOLATED = Path(tempfile.mkdtemp(prefix="webchallenger-tests-"))
for _name in ("CONFIG", "DATA", "CACHE"):
    os.environ[f"WEBCHALLENGER_{_name}_DIR"] = str(_ISOLATED / _name.lower())
# The suite's fixture pages are small: most agent tests were written for showing such pages whole (off in the
# product by default, see companion/observe/budget.py); tests of the paper's pipeline set it to 0
# (tests/observe/conftest.py, the paper_pipeline marker), and the embedded smoke test runs the product default.
os.environ.setdefault("WEBCHALLENGER_WHOLE_PAGE_TOKENS", "600")

# The shop admin test site and Selenium Grid fixtures (django_site, fresh_django_site, admin_browser, selenium_grid).
pytest_plugins = ["tests.djangosite.plugin"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: takes tens of seconds by nature (idle-connection checks); still part of the suite")
    if config.pluginmanager.hasplugin("xdist"):  # `python3 build.py test` runs the suite on parallel workers
        config.pluginmanager.register(XdistScheduling(), "webchallenger-xdist-scheduling")


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_ISOLATED, ignore_errors=True)


@pytest.fixture(autouse=True)
def _no_silent_embedded_model(request, monkeypatch):
    """Only tests marked `embedded` or `model_smoke` load the embedded model. Any other test that reached it went
    past the scripted server to the product's default, and paid a model load and real calls (a menu test took 32 s
    on one): it fails, naming the fixtures to use (tests/support/llm_fixtures.py)."""
    if request.node.get_closest_marker("embedded") or request.node.get_closest_marker("model_smoke"):
        yield
        return
    from companion.llm import embedded

    reached: list[str] = []

    def refuse(*args, **kwargs):
        reached.append("embedded_model")
        raise RuntimeError("a test reached the embedded model")

    monkeypatch.setattr(embedded, "embedded_model", refuse)
    yield
    if reached:
        pytest.fail("this test called the embedded model: answer its LLM calls with the scripted server "
                    "(scripted_llm and llm_client_for, tests/support/llm_fixtures.py), or mark it embedded")


@pytest.fixture(autouse=True)
def _no_typed_secret_carries_over():
    """Each test starts knowing no typed secret. The product remembers what it typed into a secret field for the
    whole process and masks it wherever text leaves a task (companion/typed_secrets.py); the suite's companion
    runs in this process, so a word one test typed into a secret field would be masked in every later test."""
    yield
    from companion import typed_secrets

    typed_secrets.forget_all()


@pytest.fixture(scope="session")
def pages():
    """Two static servers over tests/fixtures/pages (see the module docstring)."""
    from companion.bridge.pageserver import PagePair

    with PagePair(PAGES_DIR) as pair:
        yield pair


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium + the built extension + a paired in-process companion (see the module docstring)."""
    from companion.bridge.launcher import LaunchOptions, LaunchedBrowser

    ensure_extension_built()
    launched = LaunchedBrowser(LaunchOptions(extension=DIST_EXTENSION, config_dir=_ISOLATED / "browser-config"))
    launched.start()
    try:
        yield launched
    finally:
        launched.close()


@pytest.fixture
def open_page(browser, pages):
    """Load a fixture page in the controlled tab and return its URL (see the module docstring)."""

    def _open(name: str, other: bool = False, query: str = "") -> str:
        url = pages.url(name)
        params = [f"other={pages.other_base}"] if other else []
        if query:
            params.append(query)
        if params:
            url += "?" + "&".join(params)
        browser.open(url)
        return url

    return _open


@pytest.fixture
def find():
    """Look an element up in a Snapshot by attribute, text or tag (see the module docstring)."""
    from companion.protocol import ElementRef

    def _find(snapshot, *, tag: str | None = None, text: str | None = None, frame: int | None = None, **attrs):
        for fr in snapshot.frames:
            if frame is not None and fr.frame != frame:
                continue
            for el in fr.elements:
                if tag is not None and el.tag != tag:
                    continue
                if text is not None and text not in el.text:
                    continue
                if any(el.attrs.get(k) != v for k, v in attrs.items()):
                    continue
                return ElementRef(frame=fr.frame, id=el.id), el
        raise LookupError(f"no element with tag={tag!r} text={text!r} attrs={attrs!r} in the snapshot of {snapshot.url}")

    return _find
