"""The suite's task file (tests/djangosite/tasks.json): its shape, and every evaluator on the seeded database."""

from __future__ import annotations

import json

import pytest

from benchmarks.task_eval import judge, numbers_in, prepare
from benchmarks.task_suite import SuiteError, load_suite

# What the suite must exercise, as the tasks' own tags name it.
LOOKUP_TAGS = {"count", "total"}
CHANGE_TAGS = {"edit-field", "create", "bulk-action", "inline", "many-to-many"}


def test_the_suite_has_twenty_tasks_or_more_half_of_them_lookups(suite):
    kinds = [t.kind for t in suite.tasks]
    assert len(kinds) >= 20
    assert kinds.count("lookup") == kinds.count("change")


def test_the_lookups_include_counts_and_totals_and_the_changes_every_kind_of_edit(suite):
    lookup_tags = {tag for t in suite.tasks if t.kind == "lookup" for tag in t.tags}
    change_tags = {tag for t in suite.tasks if t.kind == "change" for tag in t.tags}
    assert LOOKUP_TAGS <= lookup_tags
    assert CHANGE_TAGS <= change_tags


def test_every_evaluator_computes_its_expected_value_on_the_seeded_database(suite, fresh_django_site):
    for task in suite.tasks:
        exp = prepare(task, fresh_django_site.query)
        if task.kind == "change":
            assert exp.rows, task.id
            assert all(cell is not None for row in exp.rows for cell in row[:1]), task.id
            assert len(exp.unchanged) == len(task.evaluator.unchanged), task.id
        elif task.evaluator.type == "number":
            assert exp.number is not None, task.id
        else:
            assert exp.answers and all(a.strip() for a in exp.answers), task.id
        assert "{" not in exp.intent, task.id  # every parameter filled in


def test_no_change_task_is_already_done_in_the_seed(suite, fresh_django_site):
    for task in suite.tasks:
        if task.kind == "change":
            exp = prepare(task, fresh_django_site.query)
            verdict = judge(task, exp, "", fresh_django_site.query)
            assert not verdict.success, task.id


def test_no_lookup_names_its_own_answer_in_the_intent(suite, django_site):
    for task in suite.tasks:
        if task.kind == "lookup":
            exp = prepare(task, django_site.query)
            if exp.number is not None:
                assert exp.number not in numbers_in(exp.intent), task.id
            assert not any(a.casefold() in exp.intent.casefold() for a in exp.answers), task.id


def test_a_parameter_of_the_intent_is_filled_in_from_the_database(suite, django_site):
    task = next(t for t in suite.tasks if t.params)
    exp = prepare(task, django_site.query)
    for name, sql in task.params.items():
        value = str(django_site.query(sql)[0][0])
        assert "{" + name + "}" in task.intent
        assert exp.params[name] == value
        assert value in exp.intent


def test_a_task_file_error_names_the_task_and_the_field(tmp_path):
    bad = {"tasks": [{"id": "fine", "kind": "lookup", "intent": "How many?", "start_url": "/admin/",
                      "evaluator": {"type": "number", "answer": 3}},
                     {"id": "broken", "kind": "change", "intent": "Do it.", "start_url": "/admin/",
                      "evaluator": {"type": "db", "sql": "SELECT 1"}}]}
    path = tmp_path / "tasks.json"
    path.write_text(json.dumps(bad))

    with pytest.raises(SuiteError, match=r"tasks\.broken\.evaluator\.db.*exactly one of expected and expected_sql"):
        load_suite(path)


def test_a_change_task_must_be_judged_by_the_database(tmp_path):
    path = tmp_path / "tasks.json"
    path.write_text(json.dumps({"tasks": [{"id": "edit", "kind": "change", "intent": "Edit it.", "start_url": "/admin/",
                                           "evaluator": {"type": "exact", "answer": "done"}}]}))

    with pytest.raises(SuiteError, match="a change task is judged by the database"):
        load_suite(path)


def test_change_tasks_reset_the_database_and_lookups_do_not_by_default(suite):
    assert all(t.resets for t in suite.tasks if t.kind == "change")
    assert not any(t.resets for t in suite.tasks if t.kind == "lookup")


def test_some_tasks_start_at_the_log_in_page_with_the_sites_credentials_in_their_intent(suite):
    """As WebArena's: logged out, at the log-in page, the credentials in the task; a lookup and a change at least."""
    from tests.djangosite.server import Credentials

    at_login = [t for t in suite.tasks if not t.needs_login]
    assert 3 <= len(at_login) <= 4
    assert {t.kind for t in at_login} == {"lookup", "change"}
    creds = Credentials()
    for task in at_login:
        assert task.start_url.startswith("/admin/login/")
        assert f"username: {creds.username}, password: {creds.password}" in task.intent


def test_tasks_that_start_at_the_log_in_page_are_counted_apart():
    from benchmarks.task_runner import TaskRun, summarize

    runs = [TaskRun(id="a", kind="lookup", memory="none", intent="?", success=True),
            TaskRun(id="b", kind="lookup", memory="none", intent="?", success=False, starts_at_login=True),
            TaskRun(id="c", kind="change", memory="none", intent="?", success=True, starts_at_login=True)]
    row = summarize(runs)["none"]
    assert row["lookup"] == {"tasks": 1, "success": 1} and row["change"] == {"tasks": 0, "success": 0}
    assert row["at_login"] == {"tasks": 2, "success": 1}
    assert row["overall"] == {"tasks": 3, "success": 2}
