"""Suite tasks end to end: the agent's loop in real headless Chromium with the real extension, logged in to the
shop admin, with the scripted LLM over real HTTP (tests/agent/agent_llm.py) choosing the actions; then judged
by the runner on the answer or on the admin's database."""

from __future__ import annotations

import re

from companion.bench.task_runner import RunOptions, run_task_once
from tests.agent.agent_llm import index_of, options

OPTS = RunOptions(max_steps=5, task_timeout=300)


def _task(suite, task_id: str):
    return next(t for t in suite.tasks if t.id == task_id)


def _page(text: str) -> str:
    return text.split("Current page:", 1)[1].split("\n", 1)[0]


def _count_shown(text: str) -> str:
    """The answer a reader of the page gives: the count of results the filtered list states."""
    match = re.search(r"\b(\d+) results\b", text.split("Current page:", 1)[1])
    return f"{match.group(1)} orders." if match else "I could not find it."


def _filter_then_end(status_link: str):
    def choose(text: str, labels: list[str]) -> int:
        if "status__exact=" in _page(text):
            return index_of(labels, r"^end the task")
        return index_of(labels, rf'link "{status_link}"')
    return choose


def test_a_lookup_answered_from_the_filtered_list_succeeds(suite, django_site, agent_llm, tmp_path):
    agent_llm(choose=_filter_then_end("Pending"), answer=_count_shown)

    run = run_task_once(_task(suite, "orders-pending-count"), django_site, "none", OPTS, tmp_path)

    assert run.success, run
    assert run.status == "done"
    assert run.answer == f"{django_site.query('SELECT count(*) FROM shop_order WHERE status = ?', 'pending')[0][0]} orders."
    assert run.steps == 2 and run.calls > 0 and run.prompt_tokens > 0
    assert not run.db_changed


def test_a_lookup_answered_from_the_wrong_filter_fails(suite, django_site, agent_llm, tmp_path):
    agent_llm(choose=_filter_then_end("Delivered"), answer=_count_shown)

    run = run_task_once(_task(suite, "orders-pending-count"), django_site, "none", OPTS, tmp_path)

    delivered = django_site.query("SELECT count(*) FROM shop_order WHERE status = 'delivered'")[0][0]
    assert run.status == "done"
    assert run.answer == f"{delivered} orders."
    assert not run.success
    assert run.detail.startswith("no number in the answer equals")


def _add_tag(name: str, agent_llm):
    def choose(text: str, labels: list[str]) -> int:
        if "Submitted the form" in text:
            return index_of(labels, r"^end the task")
        if "/add/" in _page(text):
            return index_of(labels, r'textbox "Name:"')
        return index_of(labels, r'link "Add tag"')

    def review(text: str) -> dict:
        return {"reason": "the values are right", "index": index_of(options(text), r"^Submit")}

    return agent_llm(choose=choose, overrides={"form_review": review, "field_value": lambda text: {"value": name}})


def test_a_change_made_through_the_admin_form_succeeds_and_the_seed_is_restored_after_it(suite, django_site, agent_llm, tmp_path):
    _add_tag("seasonal", agent_llm)

    run = run_task_once(_task(suite, "create-tag"), django_site, "none", OPTS, tmp_path)

    assert run.success, run
    assert run.got == [["seasonal"]]
    assert run.db_changed
    assert django_site.query("SELECT count(*) FROM shop_tag WHERE name = 'seasonal'") == [(0,)]  # reset for the next task


def test_a_wrong_change_fails(suite, django_site, agent_llm, tmp_path):
    _add_tag("autumn", agent_llm)

    run = run_task_once(_task(suite, "create-tag"), django_site, "none", OPTS, tmp_path)

    assert run.status == "done"  # the agent believes it did the task ...
    assert not run.success  # ... the database says otherwise
    assert run.got == []
    assert run.detail.startswith("the database does not hold the expected rows")
