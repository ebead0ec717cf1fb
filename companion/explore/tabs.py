"""Where exploration runs: an ExploreTab is one browser tab driven through the extension (the same bridge and
snapshots as the agent), whichever browser holds it.

- ExploreBrowser: a headless Chromium launched with the real extension (the default), optionally started
  from a copy of a Chromium profile (`--profile DIR`: a site the user is logged in to, without credentials).
- RemoteExploreBrowser: a remote WebDriver session (Selenium Grid, `--webdriver-url`), the extension loaded
  from the packed zip in dist/ (sent inside the capabilities, so the node needs no copy of our files). Its
  extension connects back to the companion on 127.0.0.1, so the node must run on this machine (or reach it
  through a tunnel): the companion never listens beyond loopback.
- InBrowserCompanion: the user's own browser (`--in-browser`): the companion serves the paired extension on
  its usual port and exploration opens one background tab; every request names that tab, so the user's
  other tabs are never touched.

Page dialogs (confirm, alert) are dismissed in launched and remote browsers: "Are you sure?" answered "no" is
the safe answer for a crawler. Where a WebDriver is at hand, the page's localStorage and sessionStorage are
put back to what they held before the first click of the run before each page load: a toggle that
remembers itself there (a theme switch, a collapsible sidebar) must not change every later page, or the
pages a worker sees would depend on the order it saw them in.
"""

from __future__ import annotations

import asyncio
import logging
import re
import shutil
import time
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service

from companion.bridge.errors import BridgeError
from companion.bridge.launcher import CHROMEDRIVER, CHROMIUM, HEADLESS_FLAGS, LaunchedBrowser, LaunchOptions, chrome_options
from companion.bridge.locations import REPO_ROOT
from companion.bridge.session import BrowserSession
from companion.protocol import ActionResult, Snapshot, TabEvent

log = logging.getLogger(__name__)

LOAD_TIMEOUT = 30.0
CLICK_TIMEOUT = 20.0
SNAPSHOT_TIMEOUT = 30.0
# Files of a Chromium profile that belong to the running browser, not to the profile.
PROFILE_SKIP = ("Singleton*", "lockfile", "*.lock", "LOCK", "Crashpad", "Cache", "Code Cache", "GPUCache",
                "ShaderCache", "GrShaderCache", "DawnCache", "Service Worker/CacheStorage")

_SAVE_STORAGE = """
return JSON.stringify({origin: location.origin, local: Object.assign({}, localStorage),
                       session: Object.assign({}, sessionStorage)});
"""
_RESTORE_STORAGE = """
const b = JSON.parse(arguments[0]);
if (location.origin !== b.origin) return false;
for (const [store, saved] of [[localStorage, b.local], [sessionStorage, b.session]]) {
  const same = store.length === Object.keys(saved).length && Object.entries(saved).every(([k, v]) => store.getItem(k) === v);
  if (same) continue;
  store.clear();
  for (const [k, v] of Object.entries(saved)) store.setItem(k, v);
}
return true;
"""


REPLACED_WHILE_READ = re.compile(r"frame with id \d+ was removed", re.I)
REREAD_AFTER_S = 0.5  # the replacing document's load has started: its content scripts can run soon after


class PageLoadError(RuntimeError):
    pass


class ExploreTab:
    """One tab exploration drives: load a URL, read it, click in it. `driver` (optional) is the WebDriver of the
    same browser, used only to put the page's storage back (see the module docstring)."""

    def __init__(self, session: BrowserSession, tab_id: int, driver: webdriver.Remote | None = None, label: str = "") -> None:
        self.session = session
        self.tab_id = tab_id
        self.driver = driver
        self.label = label or f"tab {tab_id}"
        self._baseline: str | None = None
        self.clicks = 0  # every click made in this tab (the progress display's live count)
        self._main_handle: str | None = None
        if driver is not None:
            try:
                self._main_handle = driver.current_window_handle
            except WebDriverException:
                pass

    async def load(self, url: str) -> Snapshot:
        """A fresh document of `url` (also when the tab shows it already), once it has loaded."""
        await self._restore_storage()
        try:
            result = await self.session.navigate(url, tab=self.tab_id, timeout=LOAD_TIMEOUT)
            if not result.ok and "no navigation happened" in (result.error or ""):
                result = await self.session.reload(tab=self.tab_id, timeout=LOAD_TIMEOUT)
        except BridgeError as exc:
            raise PageLoadError(f"loading {url} failed: {exc}") from exc
        if not result.ok:
            raise PageLoadError(f"loading {url} failed: {result.error}")
        snapshot = await self.snapshot()
        if self._baseline is None:
            await self._save_storage()
        return snapshot

    async def snapshot(self) -> Snapshot:
        """The tab's page, read once more when its document was replaced while it was read (Chrome: "Frame with
        ID 0 was removed"): a page that redirects by script right after loading, or a navigation an earlier click
        started that landed late, is the page to explore, not a failure."""
        try:
            return await self._read()
        except PageLoadError as exc:
            if not REPLACED_WHILE_READ.search(str(exc)):
                raise
        await asyncio.sleep(REREAD_AFTER_S)
        return await self._read()

    async def _read(self) -> Snapshot:
        try:
            return (await self.session.snapshot_result(self.tab_id, timeout=SNAPSHOT_TIMEOUT)).snapshot
        except BridgeError as exc:
            raise PageLoadError(f"reading the page failed: {exc}") from exc

    async def click(self, ref) -> ActionResult:
        self.clicks += 1
        return await self.session.click(ref, tab=self.tab_id, timeout=CLICK_TIMEOUT)

    def opened_since(self, since: float) -> list[TabEvent]:
        """Tabs or windows a click in this tab opened since `since` (window.open popups)."""
        return [e for e in self.session.events(since) if e.event == "created" and e.tab_id != self.tab_id]

    async def urls_of(self, tab_ids: set[int]) -> list[str]:
        return [t.url for t in await self.session.list_tabs() if t.tab_id in tab_ids and t.url]

    async def close_popups(self) -> bool:
        """Close every window of this browser but the explored one (only where exploration owns the browser:
        a launched or remote one; the user's own windows are never closed). True when it could."""
        if self.driver is None or self._main_handle is None:
            return False

        def close() -> None:
            for handle in self.driver.window_handles:
                if handle != self._main_handle:
                    self.driver.switch_to.window(handle)
                    self.driver.close()
            self.driver.switch_to.window(self._main_handle)

        try:
            await asyncio.to_thread(close)
        except WebDriverException as exc:
            log.debug("could not close a popup: %s", exc)
            return False
        return True

    async def wait_for_navigation_or_popup(self, since: float, timeout: float) -> bool:
        """Until a document commits in this tab or a click opens another tab or window (window.open), since
        `since`; False when neither came within `timeout` seconds."""
        def ends_the_wait(e: TabEvent) -> bool:
            return (e.tab_id == self.tab_id and e.event == "navigated") or (e.tab_id != self.tab_id and e.event == "created")

        try:
            await self.session.wait_for_event(ends_the_wait, timeout=timeout, since=since)
        except BridgeError:  # the timeout (BridgeTimeout), or a session gone: the caller reads the page as it is
            return False
        return True

    def navigated_since(self, since: float) -> list[TabEvent]:
        """Documents committed in this tab since `since` (time.monotonic())."""
        return [e for e in self.session.events(since) if e.tab_id == self.tab_id and e.event == "navigated"]

    async def _save_storage(self) -> None:
        if self.driver is None:
            return
        try:
            self._baseline = await asyncio.to_thread(self.driver.execute_script, _SAVE_STORAGE)
        except WebDriverException as exc:  # a page we may not script; nothing to put back then
            log.debug("could not read the page's storage: %s", exc)

    async def _restore_storage(self) -> None:
        if self.driver is None or self._baseline is None:
            return
        try:
            await asyncio.to_thread(self.driver.execute_script, _RESTORE_STORAGE, self._baseline)
        except WebDriverException as exc:
            log.debug("could not restore the page's storage: %s", exc)


async def first_tab(session: BrowserSession) -> int:
    """The tab a freshly launched browser shows (the one it was paired in)."""
    tabs = await session.list_tabs()
    active = [t for t in tabs if t.active] or tabs
    if not active:
        raise PageLoadError("the browser has no tab")
    return active[0].tab_id


# --------------------------------------------------------------------------- launched and remote browsers


def copy_profile(source: Path, target: Path) -> None:
    """A working copy of a Chromium profile directory (the original is never opened, so the user's browser
    may keep running on it); the running browser's locks and caches are left out."""
    source = Path(source).expanduser()
    if not (source / "Local State").exists() and not (source / "Default").is_dir():
        raise PageLoadError(f"{source} does not look like a Chromium user-data directory (no 'Local State' or 'Default')")
    shutil.copytree(source, target, ignore=shutil.ignore_patterns(*PROFILE_SKIP), symlinks=True, dirs_exist_ok=True)


class ExploreBrowser(LaunchedBrowser):
    """A launched Chromium with the extension, page dialogs dismissed, optionally from a copy of a profile."""

    def __init__(self, opts: LaunchOptions | None = None, profile: Path | None = None) -> None:
        super().__init__(opts)
        if profile is not None:
            copy_profile(profile, self.user_data_dir)

    def _new_driver(self) -> webdriver.Remote:
        options = chrome_options(self.opts, self.user_data_dir)
        options.set_capability("unhandledPromptBehavior", "dismiss")
        return webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))


def packed_extension() -> Path:
    """The zip build.py writes into dist/ (newest first)."""
    zips = sorted((REPO_ROOT / "dist").glob("webchallenger-extension-*.zip"), key=lambda p: p.stat().st_mtime, reverse=True)
    if not zips:
        raise PageLoadError("no packed extension in dist/: run `python3 build.py` first")
    return zips[0]


class RemoteExploreBrowser(LaunchedBrowser):
    """A remote WebDriver session (Selenium Grid) with the extension, paired with a companion of this process."""

    def __init__(self, webdriver_url: str, opts: LaunchOptions | None = None, extension_zip: Path | None = None,
                 binary: str | None = CHROMIUM) -> None:
        super().__init__(opts)
        self.webdriver_url = webdriver_url
        self.extension_zip = extension_zip or packed_extension()
        self.binary = binary

    def _new_driver(self) -> webdriver.Remote:
        options = webdriver.ChromeOptions()
        if self.binary:
            options.binary_location = self.binary
        for flag in HEADLESS_FLAGS:
            if flag == "--headless=new" and not self.opts.headless:
                continue
            options.add_argument(flag)
        options.add_argument(f"--window-size={self.opts.window_size[0]},{self.opts.window_size[1]}")
        options.add_extension(str(self.extension_zip))
        options.add_experimental_option("excludeSwitches", ["disable-extensions", "enable-automation"])
        options.set_capability("unhandledPromptBehavior", "dismiss")
        try:
            return webdriver.Remote(command_executor=self.webdriver_url, options=options)
        except WebDriverException as exc:
            raise PageLoadError(f"the WebDriver at {self.webdriver_url} refused a session: {exc.msg or exc}") from exc


def start_browser(browser: LaunchedBrowser) -> ExploreTab:
    """Start a launched or remote browser and return its one tab."""
    started = time.monotonic()
    browser.start()
    session = browser.session
    tab = browser.run(first_tab(session), 30)
    log.info("browser ready in %.1f s", time.monotonic() - started)
    return ExploreTab(session, tab, driver=browser.driver, label=f"browser {browser.companion.port}")


# --------------------------------------------------------------------------- the user's own browser


class InBrowserCompanion:
    """`--in-browser`: serve the user's paired extension on its port, and explore in one background tab."""

    def __init__(self, port: int, connect_timeout: float = 60.0) -> None:
        from companion.bridge.auth import load_or_create_token
        from companion.bridge.hub import BridgeHub
        from companion.bridge.runner import CompanionServer
        from companion.bridge.server import BridgeSettings

        self.connect_timeout = connect_timeout
        self.companion = CompanionServer(BridgeSettings(token=load_or_create_token(), port=port), BridgeHub())
        self.tab: ExploreTab | None = None

    def start(self, url: str) -> ExploreTab:
        try:
            self.companion.start()
        except OSError as exc:
            raise PageLoadError(f"{exc}. `explore --in-browser` serves the extension itself while it runs: stop "
                                "`webchallenger serve` first (the extension reconnects by itself)") from None
        session = self.companion.call(self.companion.hub.wait_for_session(self.connect_timeout), self.connect_timeout + 5)
        tab = self.companion.call(session.open_tab(url, active=False), 60)
        self.tab = ExploreTab(session, tab.tab_id, driver=None, label=f"your browser, tab {tab.tab_id}")
        return self.tab

    def close(self) -> None:
        self.companion.stop()
