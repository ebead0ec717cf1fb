"""The shop test site (a Django admin) served on 127.0.0.1 by Django's runserver in a subprocess.

    with DjangoSite() as site:
        site.login(driver)                       # a Selenium WebDriver now has an admin session
        driver.get(site.changelist_url("order"))
        before = site.db_digest(); ...; assert site.db_digest() == before
        site.reset()                             # back to the seeded database

Django runs only in the subprocess (this module imports no Django), so tests in any directory can
use it. The database is seeded once into `seed.sqlite3` (fixed data, identical bytes every run) and
copied to `db.sqlite3`, the file the server uses; `reset()` copies it again.
"""

from __future__ import annotations

import ctypes
import hashlib
import http.cookiejar
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

SITE_DIR = Path(__file__).resolve().parent
MANAGE = SITE_DIR / "manage.py"

# The admin's URL name of each model of the `shop` app (/admin/shop/<name>/), in sidebar order.
MODELS = ["category", "customer", "order", "product", "tag"]
# The seeded row counts (shop/seed.py) and the admin's rows per page (shop/admin.py).
SEEDED_COUNTS = {"category": 8, "customer": 30, "order": 60, "product": 40, "tag": 10}
LIST_PER_PAGE = {"category": 100, "customer": 10, "order": 20, "product": 15, "tag": 100}

# runserver logs one line per request: [date] "GET /admin/ HTTP/1.1" 200 1234
_REQUEST_LINE = re.compile(r'"([A-Z]+) (\S+) HTTP/[\d.]+" (\d{3})')
_CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class SiteError(RuntimeError):
    pass


@dataclass(frozen=True)
class Credentials:
    username: str = "admin"
    password: str = "webchallenger-admin"  # shop/seed.py ADMIN_PASSWORD


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    status: int


def die_with_parent() -> None:
    """preexec_fn: the child gets SIGTERM when the test process dies, so no server outlives a killed run."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass  # not Linux: stop() still ends the child on a normal exit


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DjangoSite:
    """The seeded shop admin on 127.0.0.1:<free port>.

    Attributes: `base_url` (http://127.0.0.1:P), `admin_url` (.../admin/), `credentials`
    (`.username`, `.password`: a superuser), `db_path`, `log_path` (runserver's output).
    """

    def __init__(self, workdir: Path | None = None, python: str = sys.executable, start_timeout: float = 90.0):
        self.workdir = Path(workdir) if workdir else Path(tempfile.mkdtemp(prefix="djangosite-"))
        self.workdir.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._own_workdir = workdir is None
        self.python = python
        self.start_timeout = start_timeout
        self.credentials = Credentials()
        self.seed_path = self.workdir / "seed.sqlite3"
        self.db_path = self.workdir / "db.sqlite3"
        self.log_path = self.workdir / "runserver.log"
        self.port = 0
        self._proc: subprocess.Popen | None = None
        self._log_file = None

    # ------------------------------------------------------------------ lifecycle

    def _env(self, db: Path) -> dict[str, str]:
        return dict(os.environ, DJANGOSITE_DB=str(db), DJANGO_SETTINGS_MODULE="shopsite.settings", PYTHONUNBUFFERED="1")

    def seed(self) -> None:
        """Create seed.sqlite3 (schema + fixed data) if it does not exist yet."""
        if self.seed_path.exists():
            return
        partial = self.workdir / "seed.partial.sqlite3"
        partial.unlink(missing_ok=True)
        done = subprocess.run([self.python, str(MANAGE), "seed"], cwd=SITE_DIR, env=self._env(partial),
                              capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise SiteError(f"seeding the shop site failed:\n{done.stdout}{done.stderr}")
        os.replace(partial, self.seed_path)

    def start(self, port: int = 0) -> "DjangoSite":
        """port: try this one first (a bench split over sessions keeps its site's address, which its memory is
        keyed by); 0: a free one."""
        self.seed()
        self.reset()
        for attempt in range(3):  # a free port can be taken between probing and binding
            self.port = port if port and attempt == 0 else free_port()
            if self._launch():
                return self
        raise SiteError(f"runserver did not start; its log:\n{self._log_tail()}")

    def _launch(self) -> bool:
        self._log_file = open(self.log_path, "ab")
        # --insecure: serve the admin's static files with DEBUG off; --noreload: one process to stop.
        cmd = [self.python, str(MANAGE), "runserver", f"127.0.0.1:{self.port}", "--noreload", "--insecure"]
        self._proc = subprocess.Popen(cmd, cwd=SITE_DIR, env=self._env(self.db_path), stdin=subprocess.DEVNULL,
                                      stdout=self._log_file, stderr=subprocess.STDOUT, preexec_fn=die_with_parent)
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                self._close_log()
                return False
            try:
                with urllib.request.urlopen(self.url("/admin/login/"), timeout=5) as resp:
                    if resp.status == 200:
                        return True
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.2)
        self.stop()
        raise SiteError(f"runserver did not answer within {self.start_timeout:g} s; its log:\n{self._log_tail()}")

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.terminate()
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(10)
            self._proc = None
        self._close_log()

    def close(self) -> None:
        self.stop()
        if self._own_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def _close_log(self) -> None:
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    def _log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except FileNotFoundError:
            return "(no log)"

    def __enter__(self) -> "DjangoSite":
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.close()

    # ------------------------------------------------------------------ URLs

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def admin_url(self) -> str:
        return self.url("/admin/")

    @property
    def login_url(self) -> str:
        return self.url("/admin/login/")

    def url(self, path: str) -> str:
        return self.base_url + (path if path.startswith("/") else "/" + path)

    def changelist_url(self, model: str) -> str:
        return self.url(f"/admin/shop/{model}/")

    def change_url(self, model: str, pk: int) -> str:
        return self.url(f"/admin/shop/{model}/{pk}/change/")

    def add_url(self, model: str) -> str:
        return self.url(f"/admin/shop/{model}/add/")

    # ------------------------------------------------------------------ state

    def reset(self) -> None:
        """Restore the seeded database. Call it between requests (not while a page is loading)."""
        partial = self.workdir / "db.partial.sqlite3"
        shutil.copyfile(self.seed_path, partial)
        os.replace(partial, self.db_path)  # atomic: a request opens either the old file or the new one
        for leftover in ("-journal", "-wal", "-shm"):
            Path(str(self.db_path) + leftover).unlink(missing_ok=True)

    def db_digest(self) -> str:
        """SHA-256 of the database file's bytes: equal digests mean nothing was written."""
        return hashlib.sha256(self.db_path.read_bytes()).hexdigest()

    def query(self, sql: str, *params) -> list[tuple]:
        """Rows of a read-only SQL query on the live database (tables: shop_order, shop_orderline, ...)."""
        with sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True) as conn:
            return conn.execute(sql, params).fetchall()

    def pks(self, model: str) -> list[int]:
        """The primary keys of a model's rows, ascending."""
        if model not in MODELS:
            raise ValueError(f"unknown model {model!r}: one of {MODELS}")
        return [row[0] for row in self.query(f"SELECT id FROM shop_{model} ORDER BY id")]

    def requests(self) -> list[Request]:
        """Every request runserver has logged so far (static files included), oldest first."""
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return [Request(m[1], m[2], int(m[3])) for m in _REQUEST_LINE.finditer(text)]

    # ------------------------------------------------------------------ logging in

    def login_cookies(self) -> list[dict]:
        """Log in through the real login form over HTTP; the cookies (session, csrftoken) as WebDriver dicts."""
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        with opener.open(self.login_url, timeout=30) as resp:
            match = _CSRF_FIELD.search(resp.read().decode())
        if not match:
            raise SiteError("the login page has no csrfmiddlewaretoken field")
        form = urllib.parse.urlencode({"csrfmiddlewaretoken": match[1], "username": self.credentials.username,
                                       "password": self.credentials.password, "next": "/admin/"}).encode()
        with opener.open(urllib.request.Request(self.login_url, data=form), timeout=30) as resp:
            landed = resp.geturl()
        cookies = {c.name: c for c in jar}
        if "sessionid" not in cookies or urllib.parse.urlsplit(landed).path != "/admin/":
            raise SiteError(f"logging in as {self.credentials.username!r} failed (landed on {landed})")
        # With their expiry (two weeks) and flags, so a profile that receives them keeps them on disk.
        return [{"name": c.name, "value": c.value, "path": c.path or "/", "expiry": c.expires,
                 "httpOnly": c.has_nonstandard_attr("HttpOnly"), "sameSite": "Lax"} for c in cookies.values()]

    def login(self, driver) -> None:
        """Give a Selenium WebDriver (local or remote) an admin session on this site, then open the admin index."""
        driver.get(self.login_url)  # cookies can only be set for the origin the browser is on
        for cookie in self.login_cookies():
            driver.add_cookie(cookie)
        driver.get(self.admin_url)

    def login_profile(self, user_data_dir: Path | str) -> None:
        """Leave a Chromium profile directory logged in to this site (for tests of exploring from a profile)."""
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        from companion.bridge.launcher import CHROMEDRIVER

        from .grid import remote_chromium_options  # Debian's Chromium, headless, the given profile

        driver = webdriver.Chrome(options=remote_chromium_options(user_data_dir), service=Service(CHROMEDRIVER))
        try:
            self.login(driver)
        finally:
            driver.quit()  # a clean shutdown writes the cookies into the profile

    def logout(self, driver) -> None:
        """Forget this site's session in a WebDriver (the admin's own logout is a POST form)."""
        driver.get(self.login_url)
        driver.delete_cookie("sessionid")
