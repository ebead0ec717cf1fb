"""`webchallenger explore` as a user runs it (a subprocess with its own browser), and `--in-browser`."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import http.server
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import pytest

from tests.support.memory_dump import differences, memory_digest
from companion.memory.store import site_key
from tests.support.explore_admin import FIXTURE_SITE, Memory, explore

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
PAGES_DIR = ROOT / "tests" / "fixtures" / "pages"


class _PacedHandler(http.server.SimpleHTTPRequestHandler):
    pace: "Pace"

    def do_GET(self) -> None:
        if self.path.split("?")[0].endswith(".html"):
            self.pace.wait()
        super().do_GET()

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")  # every page the run loads is a request the pace sees
        super().end_headers()

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the stdlib's signature
        pass


class Pace:
    """While on, the explorer loads at most one page per `step()` (a permit does not accumulate): the run
    cannot get ahead of the test that watches it, however the two processes are scheduled."""

    def __init__(self) -> None:
        self.on = False
        self._permit = threading.Event()
        self._one_at_a_time = threading.Lock()

    def step(self) -> None:
        self._permit.set()

    def off(self) -> None:
        self.on = False
        self._permit.set()

    def wait(self) -> None:
        with self._one_at_a_time:
            while self.on and not self._permit.wait(0.05):
                pass
            self._permit.clear()


@contextmanager
def paced_site():
    pace = Pace()
    handler = type("Paced", (_PacedHandler,), {"pace": pace})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(PAGES_DIR)))
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/{FIXTURE_SITE}", pace
    finally:
        pace.off()
        httpd.shutdown()
        httpd.server_close()


def cli(url: str, data_dir: Path, *extra: str) -> subprocess.Popen:
    env = dict(os.environ, WEBCHALLENGER_DATA_DIR=str(data_dir))
    return subprocess.Popen([sys.executable, "-m", "companion.cli", "explore", url, "--no-summaries", "-q", *extra],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def committed_pages(data_dir: Path, url: str) -> int:
    path = data_dir / "memory" / f"{site_key(url)}.json"
    try:
        rows = json.loads(path.read_text()).get("exploration", {})
    except (FileNotFoundError, json.JSONDecodeError):
        return 0
    return next((r["counts"]["pages"] for r in rows.values()), 0)


def test_ctrl_c_stops_cleanly_and_a_second_run_resumes_to_the_same_memory(tmp_path):
    with paced_site() as (url, pace):
        whole = cli(url, tmp_path / "whole")
        out, err = whole.communicate(timeout=600)
        assert whole.returncode == 0, err

        # The site's later pages take under a second: without the pace, a busy machine let the run finish
        # between the test seeing three pages and its Ctrl-C (which then found nothing to stop: exit 0).
        pace.on = True
        stopped = cli(url, tmp_path / "stopped")
        deadline = time.monotonic() + 300
        while committed_pages(tmp_path / "stopped", url) < 3 and stopped.poll() is None and time.monotonic() < deadline:
            pace.step()
            time.sleep(0.05)
        assert stopped.poll() is None, "the run ended before it could be interrupted"
        stopped.send_signal(signal.SIGINT)
        # Pages still come one at a time, slowly: the page in flight can finish, and the run cannot load the rest
        # before it sees the signal (under the suite's load it once did, and ended with exit 0).
        deadline = time.monotonic() + 120
        while stopped.poll() is None and time.monotonic() < deadline:
            pace.step()
            time.sleep(0.5)
        pace.off()
        out, err = stopped.communicate(timeout=120)
        assert stopped.returncode == 130, err
        assert "interrupted (run again to resume)" in out
        halfway = Memory(tmp_path / "stopped" / "memory", url)
        assert 3 <= halfway.state["counts"]["pages"] < 9 and not halfway.state["finished"]

        resumed = cli(url, tmp_path / "stopped")
        out, err = resumed.communicate(timeout=600)
        assert resumed.returncode == 0, err
        assert differences(memory_digest(Memory(tmp_path / "stopped" / "memory", url).path),
                           memory_digest(Memory(tmp_path / "whole" / "memory", url).path)) == []


def test_in_browser_explores_in_a_background_tab_and_leaves_the_users_tab_alone(pages, tmp_path):
    """The user's browser: a Chromium paired with a companion on a port; the user's tab shows a page. The
    companion stops, `--in-browser` serves that port with the same token, the extension reconnects to it."""
    from companion.bridge.launcher import LaunchedBrowser, LaunchOptions
    from companion.explore.tabs import InBrowserCompanion

    users = LaunchedBrowser(LaunchOptions(config_dir=Path(os.environ["WEBCHALLENGER_CONFIG_DIR"]))).start()
    companion = None
    try:
        users.open(pages.url("basic.html"))
        port = users.companion.port
        users.companion.stop()
        companion = InBrowserCompanion(port)
        tab = companion.start(pages.url(FIXTURE_SITE))
        started = time.monotonic()
        report = explore([tab], pages.url(FIXTURE_SITE), tmp_path, max_pages=3)
        assert report.run_pages == 3
        tabs = companion.companion.call(tab.session.list_tabs(), 30)
        mine = [t for t in tabs if t.tab_id != tab.tab_id]
        assert [(t.url, t.active) for t in mine] == [(pages.url("basic.html"), True)]
        assert not [e for e in tab.session.events(started) if e.tab_id != tab.tab_id]  # no event of the user's tab
    finally:
        if companion is not None:
            companion.close()
        users.close()


def test_profile_explores_a_site_the_profile_is_logged_in_to(django_site, tmp_path):
    profile = tmp_path / "profile"
    django_site.login_profile(profile)
    run = cli(django_site.admin_url, tmp_path / "data", "--profile", str(profile), "--max-depth", "0")
    out, err = run.communicate(timeout=600)
    assert run.returncode == 0, err
    memory = Memory(tmp_path / "data" / "memory", django_site.admin_url)
    (page,) = [r["pagemem"] for r in memory.rows("pages")]
    # The admin index itself, not the login page it redirects to without the profile's session.
    assert memory.rel(page["url"]).rstrip("/") == "admin" and not page["title"].startswith("Log in")
