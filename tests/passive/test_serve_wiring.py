"""`webchallenger serve` learns while the user browses, with summaries made in the background; its flags turn
either off (no browser here: the wiring only)."""

from __future__ import annotations

from companion.bridge.hub import BridgeHub
from companion.commands.serve import install_passive


def test_serve_learns_with_background_summaries_by_default():
    hub = BridgeHub()
    passive, summarizer = install_passive(hub, enabled=True, summaries=True)
    try:
        assert passive.enabled and summarizer is not None
        assert passive.learner.on_page == summarizer.enqueue
        assert {"page_visited", "user_clicked", "site_policy_get", "site_policy_set"} <= set(hub.message_handlers)
        assert not summarizer.busy()
        hub.task_started("t1", None)
        assert summarizer.busy()  # a running task keeps the model for itself
    finally:
        passive.uninstall()
    assert "page_visited" not in hub.message_handlers


def test_no_background_summaries_learns_pages_without_a_summarizer():
    hub = BridgeHub()
    passive, summarizer = install_passive(hub, enabled=True, summaries=False)
    try:
        assert passive.enabled and summarizer is None and passive.learner.on_page is None
    finally:
        passive.uninstall()


def test_no_passive_learning_still_answers_the_side_panels_switch():
    hub = BridgeHub()
    passive, summarizer = install_passive(hub, enabled=False, summaries=True)
    try:
        assert not passive.enabled and summarizer is None
        assert "site_policy_get" in hub.message_handlers  # the panel says learning is off, and the choice can be made
    finally:
        passive.uninstall()
