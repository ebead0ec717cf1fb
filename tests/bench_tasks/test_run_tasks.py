"""Suite tasks end to end: the agent's loop in real headless Chromium with the real extension, logged in to the
shop admin, with the scripted LLM over real HTTP (tests/support/agent_llm.py) choosing the actions; then judged
by the runner on the answer or on the admin's database."""

from __future__ import annotations

from dataclasses import replace

from benchmarks.task_runner import run_task_once, summarize
from tests.support.scripted_server import Stall
from tests.support.agent_llm import index_of, option_named
from tests.support.bench_scripts import (OPTS, add_tag, count_orders, count_shown, count_summary, filter_then_end, page_of,
                                         task_of)


def test_a_lookup_answered_from_the_filtered_list_succeeds(suite, django_site, agent_llm, tmp_path):
    count_orders("Pending", agent_llm)

    run = run_task_once(task_of(suite, "orders-pending-count"), django_site, "none", OPTS, tmp_path)

    assert run.success, run
    assert run.status == "done"
    assert run.answer == f"{django_site.query('SELECT count(*) FROM shop_order WHERE status = ?', 'pending')[0][0]} orders."
    assert run.steps == 2 and run.calls > 0 and run.prompt_tokens > 0
    assert not run.db_changed


def test_a_lookup_answered_with_a_count_the_page_does_not_give_fails(suite, django_site, agent_llm, tmp_path):
    # The right filter, a wrong reading of it: the runner judges the answer, not the path. (A filter choice the task
    # does not name is no longer offered on a list with many of them: act/candidates.py unnamed_list_choices.)
    pending = django_site.query("SELECT count(*) FROM shop_order WHERE status = 'pending'")[0][0]
    agent_llm(choose=filter_then_end("Pending"), answer=lambda text: f"{pending + 1} orders.",
              overrides={"page_task_summary": count_summary})

    run = run_task_once(task_of(suite, "orders-pending-count"), django_site, "none", OPTS, tmp_path)

    assert run.status == "done"
    assert run.answer == f"{pending + 1} orders."
    assert not run.success
    assert run.detail.startswith("no number in the answer equals")


def test_a_change_made_through_the_admin_form_succeeds_and_the_seed_is_restored_after_it(suite, django_site, agent_llm, tmp_path):
    add_tag("seasonal", agent_llm)

    run = run_task_once(task_of(suite, "create-tag"), django_site, "none", OPTS, tmp_path)

    assert run.success, run
    assert run.got == [["seasonal"]]
    assert run.db_changed
    assert django_site.query("SELECT count(*) FROM shop_tag WHERE name = 'seasonal'") == [(0,)]  # reset for the next task


def test_a_wrong_change_fails(suite, django_site, agent_llm, tmp_path):
    add_tag("autumn", agent_llm)

    run = run_task_once(task_of(suite, "create-tag"), django_site, "none", OPTS, tmp_path)

    assert run.status == "done"  # the agent believes it did the task ...
    assert not run.success  # ... the database says otherwise
    assert run.got == []
    assert run.detail.startswith("the database does not hold the expected rows")


def test_a_task_stopped_by_its_time_limit_keeps_what_it_cost(suite, django_site, agent_llm, tmp_path):
    # The second step's end check never comes back in time: the limit stops the task mid-call. (The filtered list
    # shows its count, so the second step goes to its end check with no action choice.)
    agent_llm(choose=filter_then_end("Pending"), answer=count_shown,
              stall=Stall(seconds=120, prompt="end_task_verification", at=1))

    run = run_task_once(task_of(suite, "orders-pending-count"), django_site, "none", replace(OPTS, task_timeout=20),
                        tmp_path)

    assert run.status == "timeout"
    assert not run.success and not run.error
    assert "did not end within 20 s" in run.detail
    assert run.steps == 2  # stopped in its second step, after the filter click ...
    assert run.calls > 0 and run.prompt_tokens > 0  # ... with the calls so far counted, not lost with the task
    assert 20 <= run.wall_s < 60


def test_a_task_that_starts_at_the_log_in_page_logs_in_with_the_intents_credentials(suite, django_site, agent_llm, tmp_path):
    """Logged out at the log-in page, the agent fills the form with the credentials the intent names (typed
    without a call) and its review's "leave" is refused: it logs in and reaches the product list, where it ends."""
    def choose(text: str, labels: list[str]) -> int:
        if "/admin/login/" in page_of(text):
            return index_of(labels, r'^textbox "Username')
        return index_of(labels, r"^end the task")

    server = agent_llm(choose=choose, answer=lambda text: "The stock is 18.",
                       overrides={"form_review": option_named(r"^Leave the form")})

    run = run_task_once(task_of(suite, "login-product-stock"), django_site, "none", OPTS, tmp_path)

    assert run.starts_at_login
    assert server.prompts("field_value") == []  # "username: admin, password: ..." name the fields' values
    (verification,) = server.prompts("end_task_verification")
    assert "[x] 1. Log in to the shop admin" in verification  # the log-in part is done: the form left the page
    assert "/admin/shop/product/" in verification and "/admin/login/" not in verification.split("Current page:")[1]
    assert run.status == "done", run


def test_a_value_the_model_invents_is_counted_as_dropped_in_the_tasks_figures(suite, django_site, agent_llm, tmp_path):
    """The page task summary adds an email no page shows on both pages: the sentence is dropped each time, and the
    run reports one value dropped more than the same run without it (the echoed extractions drop their own)."""
    def inventing(text: str) -> dict:
        written = count_summary(text)
        return {"summary": written["summary"].rstrip(".") + ". The first customer's email is someone@invented.test."}

    task = task_of(suite, "orders-pending-count")
    count_orders("Pending", agent_llm)
    plain = run_task_once(task, django_site, "none", OPTS, tmp_path / "plain")
    server = agent_llm(choose=filter_then_end("Pending"), answer=count_shown,
                       overrides={"page_task_summary": inventing})
    run = run_task_once(task, django_site, "none", OPTS, tmp_path / "inventing")

    assert plain.success and run.success, run
    assert len(server.prompts("page_task_summary")) >= 2
    assert run.values_dropped == plain.values_dropped + 1
    assert summarize([plain, run])["none"]["values_dropped"] == 2 * plain.values_dropped + 1


def test_a_task_leaves_no_llm_connection_open_on_its_loop(suite, django_site, agent_llm, tmp_path):
    """The bench printed "Task exception was never retrieved ... Event loop is closed" tracebacks between its rows:
    the openai client's connections on a task's event loop were left to the garbage collector after it closed."""
    from companion import llm

    count_orders("Pending", agent_llm)

    run = run_task_once(task_of(suite, "orders-pending-count"), django_site, "none", OPTS, tmp_path)

    assert run.status == "done" and run.calls > 0
    assert llm.get_client().open_loops == 0
