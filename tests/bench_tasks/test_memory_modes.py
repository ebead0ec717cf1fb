"""With and without exploration memory: `--memory explore` explores the admin once (`webchallenger explore
--no-summaries`, logged in through a profile) and every task starts from its own copy of what it learned."""

from __future__ import annotations

from benchmarks.explore_memory import ExploreLimits, explore_site
from benchmarks.task_runner import run_task_once
from companion.memory.store import WebsiteMemStore, site_key
from tests.support.bench_scripts import OPTS, count_orders, task_of

SMALL = ExploreLimits(max_pages=2, max_elements=5, max_time=120)


def test_a_task_with_exploration_memory_is_offered_what_the_exploration_learned(suite, django_site, agent_llm, tmp_path):
    explored = explore_site(django_site, tmp_path, SMALL)
    with WebsiteMemStore(site_key(django_site.admin_url), directory=explored.memory_dir) as store:
        bookmarks = [b.url for b in store.bookmarks()]
    explored_file = next(explored.memory_dir.glob("*.json"))
    learned = explored_file.read_bytes()
    seen: list[list[str]] = []
    count_orders("Pending", agent_llm, seen)

    run = run_task_once(task_of(suite, "orders-pending-count"), django_site, "explore", OPTS, tmp_path,
                        memory_seed=explored.memory_dir)

    assert not explored.db_changed
    assert bookmarks
    assert run.success, run
    assert any(label.startswith(f"go to bookmark {url} ") for url in bookmarks for label in seen[0])
    assert explored_file.read_bytes() == learned  # the task learned into its own copy, not into the exploration's


def test_a_task_without_memory_is_offered_no_bookmark(suite, django_site, agent_llm, tmp_path):
    seen: list[list[str]] = []
    count_orders("Pending", agent_llm, seen)

    run = run_task_once(task_of(suite, "orders-pending-count"), django_site, "none", OPTS, tmp_path)

    assert run.success, run
    assert seen[0] and not any(label.startswith("go to bookmark") for label in seen[0])
