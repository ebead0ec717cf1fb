"""Start Debian's Chromium with the built extension, an in-process companion, and pair them as a user would.

    with launch_browser() as browser:
        browser.open("http://127.0.0.1:8000/page.html")
        snap = browser.run(browser.session.snapshot())

Pairing goes through the extension's real options page (type port and token, click Save, wait
for "connected"), so every launch also exercises the user's pairing path. The companion gets a
fresh temporary config dir (its own token) unless one is given; Chromium a fresh profile.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Coroutine, TypeVar

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, UnexpectedAlertPresentException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from companion.bridge.auth import load_or_create_token
from companion.bridge.hub import BridgeHub
from companion.bridge.locations import OPTIONS_URL, REPO_ROOT, extension_dir, stale_build  # noqa: F401  (re-exported)
from companion.bridge.recorder import Recorder
from companion.bridge.runner import CompanionServer
from companion.bridge.server import BridgeSettings
from companion.bridge.session import BrowserSession

log = logging.getLogger(__name__)
T = TypeVar("T")

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
HEADLESS_FLAGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
# Corpus pages reference the whole web; resolve nothing but the local page servers so a page
# load never waits on the network (localhost stays reachable for cross-site iframes).
OFFLINE_RESOLVER_RULES = "MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE localhost"


class LaunchError(RuntimeError):
    pass


@dataclass
class LaunchOptions:
    extension: Path = field(default_factory=extension_dir)
    offline: bool = True  # --host-resolver-rules: only 127.0.0.1 and localhost resolve
    window_size: tuple[int, int] = (1280, 900)
    companion_port: int = 0  # 0: a free port
    config_dir: Path | None = None  # None: a temporary directory (its own token)
    record: Path | None = None
    pair_timeout: float = 30.0
    page_load_timeout: float = 30.0
    companion_log_level: str = "warning"
    headless: bool = True  # False: a visible window (needs a display), for `webchallenger run` without --headless


def chrome_options(opts: LaunchOptions, user_data_dir: Path) -> webdriver.ChromeOptions:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in HEADLESS_FLAGS:
        if flag == "--headless=new" and not opts.headless:
            continue
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={user_data_dir}")
    options.add_argument(f"--window-size={opts.window_size[0]},{opts.window_size[1]}")
    options.add_argument(f"--load-extension={opts.extension}")
    options.add_argument(f"--disable-extensions-except={opts.extension}")
    if opts.offline:
        options.add_argument(f"--host-resolver-rules={OFFLINE_RESOLVER_RULES}")
    # Selenium adds --disable-extensions unless told otherwise, which would unload ours.
    options.add_experimental_option("excludeSwitches", ["disable-extensions", "enable-automation"])
    # Some pages alert() while loading; accept such dialogs instead of failing the next command.
    options.set_capability("unhandledPromptBehavior", "accept")
    return options


class LaunchedBrowser:
    """A headless Chromium with the extension, paired with a companion running in a background thread.

    Attributes: `driver` (Selenium WebDriver), `companion` (CompanionServer: `.hub`, `.port`, `.loop`,
    `.restart()`), `token`, `config_dir`. `session` is the current BrowserSession (it changes when the
    extension reconnects). `run(coro)` runs a coroutine on the companion's loop from sync code.
    """

    def __init__(self, opts: LaunchOptions | None = None):
        self.opts = opts or LaunchOptions()
        self._temp = Path(tempfile.mkdtemp(prefix="webchallenger-launch-"))
        self.config_dir = self.opts.config_dir or self._temp / "config"
        self.user_data_dir = self._temp / "chromium-profile"
        self.token = load_or_create_token(self.config_dir)
        self.recorder = Recorder(self.opts.record) if self.opts.record else None
        self.companion = CompanionServer(BridgeSettings(token=self.token, port=self.opts.companion_port),
                                         BridgeHub(self.recorder), self.opts.companion_log_level)
        self.driver: webdriver.Chrome | None = None
        self.timings: dict[str, float] = {}

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> "LaunchedBrowser":
        manifest = self.opts.extension / "manifest.json"
        if not manifest.exists():
            raise LaunchError(f"no built extension at {self.opts.extension}: run `python3 build.py` first")
        if stale_build(self.opts.extension):
            # A MiniWoB run here loaded a day-old build: the companion's new rules read attributes it never sent.
            raise LaunchError(f"the built extension at {self.opts.extension} is older than extension/ (changed since "
                              "the last build): run `python3 build.py` first")
        for binary in (CHROMIUM, CHROMEDRIVER):
            if not Path(binary).exists():
                raise LaunchError(f"{binary} is missing: install Debian's chromium and chromium-driver (python3 build.py install)")
        # Load a private copy: a concurrent `build.py` replacing dist/extension must not pull files
        # from under a running browser.
        loaded = self._temp / "extension"
        shutil.copytree(self.opts.extension, loaded)
        self.opts = replace(self.opts, extension=loaded)
        try:
            t0 = time.perf_counter()
            self.companion.start()
            t1 = time.perf_counter()
            self.driver = self._new_driver()
            self.driver.set_page_load_timeout(self.opts.page_load_timeout)
            t2 = time.perf_counter()
            self.pair()
            t3 = time.perf_counter()
            self.timings = {"companion_s": t1 - t0, "chromium_s": t2 - t1, "pairing_s": t3 - t2}
        except BaseException:
            self.close()
            raise
        return self

    def _new_driver(self) -> webdriver.Remote:
        """The WebDriver session: local chromedriver here; a subclass may drive another (companion/explore/tabs.py)."""
        return webdriver.Chrome(options=chrome_options(self.opts, self.user_data_dir), service=Service(CHROMEDRIVER))

    def pair(self) -> BrowserSession:
        """Enter port and token on the options page like a user, then wait for the session."""
        driver = self.driver
        driver.get(OPTIONS_URL)
        wait = WebDriverWait(driver, self.opts.pair_timeout)
        port_input = wait.until(lambda d: d.find_element(By.ID, "port"))
        port_input.clear()
        port_input.send_keys(str(self.companion.port))
        token_input = driver.find_element(By.ID, "token")
        token_input.clear()
        token_input.send_keys(self.token)
        driver.find_element(By.ID, "save").click()
        try:
            wait.until(lambda d: d.find_element(By.ID, "status").text.strip().lower() == "connected")
        except WebDriverException as exc:
            status = driver.find_element(By.ID, "status").text
            # The companion's side tells "never paired" apart from "paired, but the page did not say so".
            latest = self.companion.hub.latest
            side = "has a session from the extension" if latest is not None and not latest.closed else "has no session"
            raise LaunchError(f"pairing failed: the options page says {status!r}; the companion {side}") from exc
        return self.run(self.companion.hub.wait_for_session(self.opts.pair_timeout), self.opts.pair_timeout + 5)

    def close(self) -> None:
        if self.driver is not None:
            try:
                self.driver.quit()
            except Exception:  # the browser may already be gone; nothing else to clean
                log.debug("driver.quit failed", exc_info=True)
            self.driver = None
        self.companion.stop()
        if self.recorder:
            self.recorder.close()
        shutil.rmtree(self._temp, ignore_errors=True)

    def __enter__(self) -> "LaunchedBrowser":
        return self.start() if self.driver is None else self

    def __exit__(self, *exc_info) -> None:
        self.close()

    # ------------------------------------------------------------------ use

    @property
    def hub(self) -> BridgeHub:
        return self.companion.hub

    @property
    def session(self) -> BrowserSession:
        """The current session; waits up to 20 s when the extension is reconnecting right now."""
        latest = self.hub.latest
        if latest is not None and not latest.closed:
            return latest
        return self.wait_for_session(20)

    def run(self, coro: Coroutine[Any, Any, T], timeout: float | None = 120.0) -> T:
        return self.companion.call(coro, timeout)

    def wait_for_session(self, timeout: float = 30.0, newer_than: BrowserSession | None = None) -> BrowserSession:
        return self.run(self.hub.wait_for_session(timeout, newer_than=newer_than), timeout + 5)

    def open(self, url: str) -> None:
        """Load `url` in the controlled tab (the active one) and return once its load event fired.

        Dialogs the page opens while loading (alert, confirm) are accepted, as a user would to go on:
        an open dialog blocks the page's scripts, the extension's included.
        """
        try:
            self.driver.get(url)
        except UnexpectedAlertPresentException:
            pass  # settled below
        self._accept_dialogs_until_loaded()

    def _accept_dialogs_until_loaded(self) -> None:
        deadline = time.monotonic() + self.opts.page_load_timeout
        while time.monotonic() < deadline:
            try:
                self.driver.switch_to.alert.accept()
                continue  # there may be another one
            except NoAlertPresentException:
                pass
            try:
                if self.driver.execute_script("return document.readyState") == "complete":
                    return
            except UnexpectedAlertPresentException:
                continue
            time.sleep(0.05)
        raise LaunchError(f"page did not finish loading within {self.opts.page_load_timeout:g} s (dialogs kept opening)")

    def snapshot(self, url: str | None = None, timeout: float = 60.0):
        """Convenience for sync callers: optionally open `url`, then return the Snapshot of the active tab."""
        if url is not None:
            self.open(url)
        return self.run(self.session.snapshot(timeout=timeout), timeout + 5)


def launch_browser(opts: LaunchOptions | None = None, **kwargs) -> LaunchedBrowser:
    """A started LaunchedBrowser; use it as a context manager so Chromium and the companion stop."""
    if opts is None:
        opts = LaunchOptions(**kwargs)
    return LaunchedBrowser(opts).start()
