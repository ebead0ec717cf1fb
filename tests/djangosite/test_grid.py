"""Selenium Grid 4 on 127.0.0.1 runs two headless Chromium sessions at once against the shop site."""

from __future__ import annotations

import socket
import tempfile
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.common.by import By

from .grid import remote_chromium_options


def _busy_slots(grid) -> int:
    return sum(1 for node in grid.status()["nodes"] for slot in node["slots"] if slot["session"])


def test_grid_runs_two_remote_sessions_at_once_on_the_shop_site(selenium_grid, django_site):
    drivers = []
    try:
        for _ in range(2):
            profile = Path(tempfile.mkdtemp(prefix="grid-profile-"))
            drivers.append(webdriver.Remote(selenium_grid.url, options=remote_chromium_options(profile)))
        assert _busy_slots(selenium_grid) == 2
        for driver in drivers:
            django_site.login(driver)
            driver.get(django_site.changelist_url("order"))
            assert driver.find_element(By.TAG_NAME, "h1").text == "Select order to change"
    finally:
        for driver in drivers:
            driver.quit()


def _listening_addresses(pid: int) -> set[tuple[str, int]]:
    """(address, port) of every TCP socket the process listens on, read from /proc."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = fd.readlink().as_posix()
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    found = set()
    for table, family in (("/proc/net/tcp", socket.AF_INET), ("/proc/net/tcp6", socket.AF_INET6)):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] != "0A" or fields[9] not in inodes:  # 0A: LISTEN
                continue
            hex_addr, hex_port = fields[1].split(":")
            raw = bytes.fromhex(hex_addr)
            # /proc prints each 32-bit word of the address in host (little-endian) order.
            raw = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
            found.add((socket.inet_ntop(family, raw), int(hex_port, 16)))
    return found


def test_grid_listens_on_loopback_only(selenium_grid):
    addresses = _listening_addresses(selenium_grid.pid)
    assert addresses, "the grid listens on nothing"
    loopback = {"127.0.0.1", "::ffff:127.0.0.1", "::1"}
    assert {addr for addr, _port in addresses} <= loopback, addresses
