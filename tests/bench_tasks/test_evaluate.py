"""Judging answers and database states against expectations read from the live, seeded shop database.

Database states are written straight into the site's SQLite file (the real database the admin serves), as a
change through the admin would leave them; runs through the admin itself are in test_run_tasks.py."""

from __future__ import annotations

import sqlite3

import pytest

from benchmarks.task_eval import EvaluatorError, judge, prepare
from benchmarks.task_suite import AppTask


def _task(suite, task_id: str) -> AppTask:
    return next(t for t in suite.tasks if t.id == task_id)


def _write(site, sql: str, *params) -> None:
    with sqlite3.connect(site.db_path) as conn:
        conn.execute(sql, params)


def _lookup(suite, site, task_id: str, answer: str):
    task = _task(suite, task_id)
    return judge(task, prepare(task, site.query), answer, site.query)


def test_a_count_stated_in_a_sentence_is_right(suite, django_site):
    pending = django_site.query("SELECT count(*) FROM shop_order WHERE status = 'pending'")[0][0]

    assert _lookup(suite, django_site, "orders-pending-count", f"There are {pending} pending orders.").success


def test_a_wrong_count_is_wrong(suite, django_site):
    pending = django_site.query("SELECT count(*) FROM shop_order WHERE status = 'pending'")[0][0]

    verdict = _lookup(suite, django_site, "orders-pending-count", f"{pending + 1} orders are pending.")

    assert not verdict.success
    assert verdict.detail == f"no number in the answer equals {pending}"


def test_a_right_count_next_to_another_number_is_wrong(suite, django_site):
    pending = django_site.query("SELECT count(*) FROM shop_order WHERE status = 'pending'")[0][0]

    verdict = _lookup(suite, django_site, "orders-pending-count", f"{pending} or {pending + 2}")

    assert not verdict.success
    assert verdict.detail == f"the answer also states {pending + 2}"


def test_a_total_is_read_with_its_currency_and_the_order_number_the_intent_names(suite, django_site):
    total = django_site.query("SELECT round(sum(l.quantity * l.unit_price), 2) FROM shop_orderline l "
                              "JOIN shop_order o ON o.id = l.order_id WHERE o.number = 'SO-1020'")[0][0]

    assert _lookup(suite, django_site, "order-total-amount", f"Order SO-1020 totals €{total:,.2f}.").success
    assert not _lookup(suite, django_site, "order-total-amount", f"Order SO-1020 totals €{total + 1:,.2f}.").success


def test_a_page_pasted_back_as_the_answer_is_not_an_answer(suite, django_site):
    pending = django_site.query("SELECT count(*) FROM shop_order WHERE status = 'pending'")[0][0]
    pasted = f"Select order to change - [{pending}] link \"SO-1060\" " + "- row: cell " * 40

    verdict = _lookup(suite, django_site, "orders-pending-count", pasted)

    assert not verdict.success
    assert "not an answer" in verdict.detail


def test_an_answer_containing_the_email_is_right_whatever_its_case(suite, django_site):
    email = django_site.query("SELECT c.email FROM shop_order o JOIN shop_customer c ON c.id = o.customer_id "
                              "WHERE o.number = 'SO-1010'")[0][0]

    assert _lookup(suite, django_site, "order-customer-email", f"The customer's email is {email.upper()}.").success
    assert not _lookup(suite, django_site, "order-customer-email", "The customer's email is ada@example.com.").success


def test_the_requested_change_alone_is_right(suite, fresh_django_site):
    task = _task(suite, "product-status-edit")
    exp = prepare(task, fresh_django_site.query)
    _write(fresh_django_site, "UPDATE shop_product SET status = 'discontinued' WHERE name = 'Wall Clock'")

    verdict = judge(task, exp, "", fresh_django_site.query)

    assert verdict.success, verdict.detail
    assert verdict.got == [["discontinued"]]


def test_the_requested_change_with_another_row_changed_too_is_wrong(suite, fresh_django_site):
    task = _task(suite, "product-status-edit")
    exp = prepare(task, fresh_django_site.query)
    _write(fresh_django_site, "UPDATE shop_product SET status = 'discontinued' WHERE name IN ('Wall Clock', 'Kite')")

    verdict = judge(task, exp, "", fresh_django_site.query)

    assert not verdict.success
    assert verdict.detail.startswith("the run also changed what the task leaves alone")


def test_an_inline_row_is_judged_against_the_lines_the_order_had_before(suite, fresh_django_site):
    task = _task(suite, "order-add-line")
    exp = prepare(task, fresh_django_site.query)
    order_id = fresh_django_site.query("SELECT id FROM shop_order WHERE number = 'SO-1003'")[0][0]
    product_id, price = fresh_django_site.query("SELECT id, price FROM shop_product WHERE name = 'Bird Feeder'")[0]
    _write(fresh_django_site, "INSERT INTO shop_orderline (order_id, product_id, quantity, unit_price) VALUES (?, ?, 3, ?)",
           order_id, product_id, price)
    assert not judge(task, exp, "", fresh_django_site.query).success  # 3, not 2
    _write(fresh_django_site, "UPDATE shop_orderline SET quantity = 2 WHERE order_id = ? AND product_id = ?", order_id, product_id)

    assert judge(task, exp, "", fresh_django_site.query).success


def test_a_broken_evaluator_is_a_harness_error_naming_the_task(django_site):
    task = AppTask.model_validate({"id": "typo", "kind": "lookup", "intent": "How many?", "start_url": "/admin/",
                                   "evaluator": {"type": "number", "answer_sql": "SELECT count(*) FROM shop_orders"}})

    with pytest.raises(EvaluatorError, match=r"task typo: the answer_sql failed: no such table: shop_orders"):
        prepare(task, django_site.query)


def test_an_evaluator_query_of_several_values_for_one_answer_is_a_harness_error(django_site):
    task = AppTask.model_validate({"id": "vague", "kind": "lookup", "intent": "Which tag?", "start_url": "/admin/",
                                   "evaluator": {"type": "exact", "answer_sql": "SELECT name FROM shop_tag"}})

    with pytest.raises(EvaluatorError, match="task vague: the answer_sql must return one value"):
        prepare(task, django_site.query)
