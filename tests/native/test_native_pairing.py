"""Pairing through Chrome's native messaging: after `webchallenger install-browser`, the real extension in real
headless Chromium reaches a companion with no token typed, including one the host had to start; another
extension cannot use the host, and the host refuses a foreign origin when started by hand."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import stat
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from companion.bridge.auth import EXTENSION_ORIGIN
from companion.bridge.launcher import CHROMEDRIVER, CHROMIUM, HEADLESS_FLAGS, OPTIONS_URL
from companion.native.host import HOST_NAME
from tests.support.extension_build import DIST_EXTENSION, ensure_extension_built

FOREIGN_PAGE = """<!doctype html><meta charset="utf-8"><title>probe</title><script src="probe.js"></script>"""
FOREIGN_SCRIPT = f"""
chrome.runtime.sendNativeMessage({HOST_NAME!r}, {{type: "native_pair", start: false, port: 0}})
  .then((answer) => {{ document.title = "answer:" + JSON.stringify(answer); }})
  .catch((e) => {{ document.title = "error:" + e.message; }});
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def home(tmp_path: Path) -> dict[str, str]:
    """Fresh WebChallenger directories for this test, as the environment of every process it starts."""
    env = dict(os.environ)
    for name in ("CONFIG", "DATA", "CACHE"):
        env[f"WEBCHALLENGER_{name}_DIR"] = str(tmp_path / name.lower())
    return env


@pytest.fixture
def profile(tmp_path: Path, home: dict[str, str]) -> Path:
    """A fresh Chromium profile directory with the host registered in it by the real CLI."""
    directory = tmp_path / "profile"
    directory.mkdir()
    done = subprocess.run([sys.executable, "-m", "companion", "install-browser", "--user-data-dir", str(directory)],
                          env=home, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return directory


def companion_state(home: dict[str, str]) -> dict | None:
    path = Path(home["WEBCHALLENGER_CONFIG_DIR"]) / "companion.json"
    return json.loads(path.read_text()) if path.exists() else None


def companions_of(home: dict[str, str], *marks: bytes) -> list[int]:
    """The pids of `webchallenger serve` processes (or of processes whose arguments hold `marks`) running with
    this test's config directory."""
    marks = marks or (b"serve", b"companion")
    found = []
    for proc in Path("/proc").iterdir():
        try:
            args = (proc / "cmdline").read_bytes().split(b"\0")
            env = (proc / "environ").read_bytes().split(b"\0")
        except (OSError, ValueError):
            continue
        if all(m in args for m in marks) and \
                f"WEBCHALLENGER_CONFIG_DIR={home['WEBCHALLENGER_CONFIG_DIR']}".encode() in env:
            found.append(int(proc.name))
    return found


def stop_companion(home: dict[str, str]) -> None:
    """Every companion this test's host started, not only the announced one (a second would be a bug, and
    must not outlive the test)."""
    for marks in ((b"companion.native.host",), ()):  # hosts first: one still starting a companion would outlive us
        for pid in companions_of(home, *marks):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        time.sleep(0.5)


def launch(profile: Path, *extensions: Path) -> webdriver.Chrome:
    ensure_extension_built()
    paths = ",".join(str(p) for p in (DIST_EXTENSION, *extensions))
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in HEADLESS_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--load-extension={paths}")
    options.add_argument(f"--disable-extensions-except={paths}")
    options.add_experimental_option("excludeSwitches", ["disable-extensions", "enable-automation"])
    return webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))


def stored_pairing(driver) -> dict:
    return driver.execute_async_script("chrome.storage.local.get(['port', 'token']).then(arguments[0])")


def wait_connected(driver, timeout: float = 90) -> None:
    driver.get(OPTIONS_URL)
    WebDriverWait(driver, timeout).until(lambda d: d.find_element(By.ID, "status").text == "connected")


def test_install_registers_only_this_extension(profile: Path, home: dict[str, str]):
    manifest_path = profile / "NativeMessagingHosts" / f"{HOST_NAME}.json"
    manifest = json.loads(manifest_path.read_text())
    assert manifest["allowed_origins"] == [EXTENSION_ORIGIN + "/"]
    assert manifest["type"] == "stdio" and manifest["name"] == HOST_NAME
    launcher = Path(manifest["path"])
    assert stat.S_IMODE(manifest_path.stat().st_mode) == 0o600
    assert stat.S_IMODE(launcher.stat().st_mode) == 0o700
    assert home["WEBCHALLENGER_CONFIG_DIR"] in launcher.read_text()  # the host finds this companion's token


def test_the_extension_pairs_with_a_running_companion_with_no_token_typed(profile: Path, home: dict[str, str]):
    port = free_port()
    serve = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", str(port)], env=home,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    driver = None
    try:
        deadline = time.monotonic() + 60
        while companion_state(home) is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert companion_state(home)["port"] == port
        driver = launch(profile)
        wait_connected(driver)
        token = (Path(home["WEBCHALLENGER_CONFIG_DIR"]) / "token").read_text().strip()
        assert stored_pairing(driver) == {"port": port, "token": token}
    finally:
        if driver:
            driver.quit()
        serve.terminate()
        serve.wait(timeout=30)
    assert companion_state(home) is None  # serve withdrew its announcement on exit


def test_a_port_and_token_typed_by_hand_are_kept_when_the_native_host_knows_another(profile: Path, home: dict[str, str]):
    """The native host's answer does not replace a port and token the user typed: they stay, and the status says
    the native host knows a running companion."""
    port = free_port()
    serve = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", str(port)], env=home,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    driver = None
    try:
        deadline = time.monotonic() + 60
        while companion_state(home) is None and time.monotonic() < deadline:
            time.sleep(0.2)
        driver = launch(profile)
        wait_connected(driver)
        typed = free_port()
        for field, value in (("port", str(typed)), ("token", "typed-by-hand")):
            element = driver.find_element(By.ID, field)
            element.clear()
            element.send_keys(value)
        driver.find_element(By.ID, "save").click()
        WebDriverWait(driver, 120).until(lambda d: "native host knows a running companion" in d.find_element(By.ID, "status").text)
        assert stored_pairing(driver) == {"port": typed, "token": "typed-by-hand"}
    finally:
        if driver:
            driver.quit()
        serve.terminate()
        serve.wait(timeout=30)


def test_another_extension_cannot_use_the_host(tmp_path: Path, profile: Path, home: dict[str, str]):
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "manifest.json").write_text(json.dumps({
        "manifest_version": 3, "name": "Foreign", "version": "1.0", "permissions": ["nativeMessaging"]}))
    (foreign / "probe.html").write_text(FOREIGN_PAGE)
    (foreign / "probe.js").write_text(FOREIGN_SCRIPT)
    # An unpacked extension without a key gets its id from its path: sha256, 32 hex digits written a-p.
    digest = hashlib.sha256(str(foreign.resolve()).encode()).hexdigest()[:32]
    foreign_id = "".join(chr(ord("a") + int(c, 16)) for c in digest)
    driver = launch(profile, foreign)
    try:
        driver.get(f"chrome-extension://{foreign_id}/probe.html")
        WebDriverWait(driver, 30).until(lambda d: d.title.startswith(("answer:", "error:")))
        assert driver.title.startswith("error:") and "forbidden" in driver.title.lower()
    finally:
        driver.quit()
        stop_companion(home)


def ask_host(launcher: Path, origin: str, message: bytes, env: dict[str, str]) -> tuple[int, dict]:
    done = subprocess.run([str(launcher), origin], input=struct.pack("=I", len(message)) + message,
                          capture_output=True, env=env, timeout=60)
    (length,) = struct.unpack("=I", done.stdout[:4])
    return done.returncode, json.loads(done.stdout[4:4 + length])


def launcher_of(profile: Path) -> Path:
    return Path(json.loads((profile / "NativeMessagingHosts" / f"{HOST_NAME}.json").read_text())["path"])


def test_hosts_asked_at_once_start_one_companion(profile: Path, home: dict[str, str]):
    request = json.dumps({"type": "native_pair", "start": True}).encode()
    launcher = launcher_of(profile)
    frame = struct.pack("=I", len(request)) + request
    hosts = [subprocess.Popen([str(launcher), EXTENSION_ORIGIN + "/"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              env=home) for _ in range(3)]
    try:
        for host in hosts:  # every host has its question before any answers
            host.stdin.write(frame)
            host.stdin.close()
        answers = [json.loads(host.stdout.read()[4:]) for host in hosts]
        assert all(a["token"] and not a["error"] for a in answers), answers
        assert len({a["port"] for a in answers}) == 1 and [a["started"] for a in answers].count(True) == 1
        assert companions_of(home) == [companion_state(home)["pid"]]
    finally:
        for host in hosts:
            host.wait(timeout=120)  # a host still starting a companion would start it after the clean-up
        stop_companion(home)


def test_the_host_refuses_a_foreign_origin_started_by_hand(profile: Path, home: dict[str, str]):
    request = json.dumps({"type": "native_pair", "start": True}).encode()
    code, answer = ask_host(launcher_of(profile), "chrome-extension://abcdefghijklmnopabcdefghijklmnop/", request, home)
    assert code != 0 and "may not use this host" in answer["error"] and not answer["token"]
    assert companion_state(home) is None  # and it started nothing


def test_the_host_says_what_to_do_when_no_companion_runs_and_none_may_start(profile: Path, home: dict[str, str]):
    request = json.dumps({"type": "native_pair", "start": False}).encode()
    code, answer = ask_host(launcher_of(profile), EXTENSION_ORIGIN + "/", request, home)
    assert code == 0 and "webchallenger serve" in answer["error"] and not answer["token"]


def test_the_host_rejects_a_malformed_request(profile: Path, home: dict[str, str]):
    code, answer = ask_host(launcher_of(profile), EXTENSION_ORIGIN + "/", b'{"type": "native_pair", "evil": 1}', home)
    assert code == 2 and answer["error"].startswith("not a pairing request") and not answer["token"]


def test_uninstall_removes_the_registration(profile: Path, home: dict[str, str]):
    done = subprocess.run([sys.executable, "-m", "companion", "install-browser", "--uninstall", "--user-data-dir", str(profile)],
                          env=home, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert not (profile / "NativeMessagingHosts" / f"{HOST_NAME}.json").exists()


def _statuses_until_connected(driver, timeout: float = 120) -> list[tuple[str, str]]:
    """Every distinct (status, detail) the extension stored for its pages to show, in order, until connected."""
    driver.get(OPTIONS_URL)
    seen: list[tuple[str, str]] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        now = driver.execute_async_script(
            "chrome.storage.session.get('connection').then((r) => arguments[0](r.connection || null))")
        if now and (not seen or seen[-1] != (now["status"], now["detail"])):
            seen.append((now["status"], now["detail"]))
        if now and now["status"] == "connected":
            break
        time.sleep(0.05)
    return seen


def test_the_host_starts_a_companion_and_starts_it_again_after_a_browser_restart_never_shown_as_an_error(
        profile: Path, home: dict[str, str]):
    """With no companion running the host starts one. Then the everyday case: the pairing was learnt from the host, the companion has since exited (it does, 10 minutes
    after the browser left), the browser comes back. While the host starts a new one the status says so; it
    never says "not connected"."""
    assert companion_state(home) is None
    driver = launch(profile)
    try:
        wait_connected(driver, timeout=120)  # no token typed: the host started a companion and told us where
        state = companion_state(home)
        assert state is not None and stored_pairing(driver)["port"] == state["port"]
        assert companions_of(home) == [state["pid"]]  # one companion, started by the host, not by this test
    finally:
        driver.quit()
        stop_companion(home)
    assert companion_state(home) is None
    driver = launch(profile)
    try:
        seen = _statuses_until_connected(driver)
        print(seen)
        assert seen and seen[-1][0] == "connected", seen
        assert [status for status, _ in seen if status != "connecting"] == ["connected"], seen
        assert any("starting" in detail for _, detail in seen), seen  # the wait is explained
    finally:
        driver.quit()
        stop_companion(home)
