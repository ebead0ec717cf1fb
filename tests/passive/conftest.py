"""Passive learning tests: the suite's real Chromium + extension (tests/conftest.py), with passive learning turned
on for the test's own companion state only (the shared browser's companion does not learn otherwise).

Fixtures
--------
``memory_dir`` / ``policy_dir``: fresh directories for site memory and the learning policy file.
``passive``: a PassiveLearning installed on the browser's hub (fast settle and interval), uninstalled after.
``user_tab``: a second tab the user browses in (the companion never drove it), closed after; yields the driver.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.panel.passive import install_passive_learning
from companion.memory.passive import PassiveLearner

SETTLE_MS = 400
MIN_INTERVAL_MS = 300


@pytest.fixture
def memory_dir(tmp_path: Path) -> Path:
    path = tmp_path / "memory"
    path.mkdir()
    return path


@pytest.fixture
def policy_dir(tmp_path: Path) -> Path:
    path = tmp_path / "policy"
    path.mkdir()
    return path


@pytest.fixture
def learner(memory_dir, policy_dir) -> PassiveLearner:
    return PassiveLearner(memory_dir=memory_dir, policy_dir=policy_dir)


@pytest.fixture
def passive(browser, learner):
    # The suite's controlled tab is the harness's task tab: a request to it marks it driven, so the page other
    # tests left there is not learned (the extension leaves a tab the companion drives alone).
    try:
        browser.run(browser.session.snapshot(timeout=30), 40)
    except Exception:  # an extension page cannot be read; the request still named the tab
        pass
    learning = install_passive_learning(browser.hub, learner, settle_ms=SETTLE_MS, min_interval_ms=MIN_INTERVAL_MS)
    yield learning
    learning.uninstall()


@pytest.fixture
def user_tab(browser):
    driver = browser.driver
    home = driver.current_window_handle
    driver.switch_to.new_window("tab")
    try:
        yield driver
    finally:
        driver.close()
        driver.switch_to.window(home)
