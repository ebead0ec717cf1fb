"""A count question is not answered while a control the task names (a filter's choice) is unused on the page
(agent/finish.py unnarrowed_count): the list's total is not the count asked for. Refused once, the model told
which control. Real headless Chromium, the real extension, the scripted LLM."""

from __future__ import annotations

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of
from tests.support.task_events import notes


def test_a_count_answered_before_the_named_filter_is_used_is_refused_once(browser, pages, agent_llm, memory_dir):
    def choose(text: str, labels: list[str]) -> int:
        if "not narrowed yet" in text and 'Clicked link "Pending"' not in text:
            return index_of(labels, r'^link "Pending"')
        return index_of(labels, r"^end the task")

    agent_llm(choose=choose, answer=lambda text: "13")
    result = browser.run(run_task("How many orders are pending?", session=browser.session,
                                  start_url=pages.url("orders_list.html"), memory_dir=memory_dir, max_steps=3),
                         timeout=300)

    refusal = next(n for n in notes(result) if "not narrowed yet" in n)
    assert 'link "Pending" is not used' in refusal and '"Orders"' not in refusal, refusal
    assert result.actions == ['Clicked link "Pending"'] and result.status == "done", result.actions


def test_a_question_that_counts_nothing_is_not_held_back_by_a_named_link(browser, pages, agent_llm, memory_dir):
    agent_llm(choose=lambda text, labels: index_of(labels, r"^end the task"), answer=lambda text: "ann.lee@example.com")
    result = browser.run(run_task("Which customer placed the pending order 102?", session=browser.session,
                                  start_url=pages.url("orders_list.html"), memory_dir=memory_dir, max_steps=2),
                         timeout=300)

    assert not any("not narrowed yet" in n for n in notes(result))


def test_a_count_on_the_list_narrowed_as_asked_is_checked_before_any_other_action(browser, pages, agent_llm, memory_dir):
    # Step 1 on the whole list: the filter. Step 2, on ?status=Pending: a model that would wander back to the whole
    # list (as the default model did) is never asked; the end check runs first there.
    def choose(text: str, labels: list[str]) -> int:
        if 'Clicked link "Pending"' not in text:
            return index_of(labels, r'^link "Pending"')
        return index_of(labels, r"^(?!end the task)")  # anything but the end

    server = agent_llm(choose=choose, answer=lambda text: "13")
    result = browser.run(run_task("How many orders are pending?", session=browser.session,
                                  start_url=pages.url("orders_list.html"), memory_dir=memory_dir, max_steps=3),
                         timeout=300)

    assert result.actions == ['Clicked link "Pending"'] and result.status == "done", result.actions
    assert result.answer == "13"
    assert len(server.prompts("action_selection")) == 1  # only step 1 chose among the page's actions
    assert any("narrowed as the question asks: checked first" in n for n in notes(result))


def test_a_list_narrowed_by_another_word_is_not_checked_first(browser, pages, agent_llm, memory_dir):
    agent_llm(choose=lambda text, labels: index_of(labels, r"^end the task"), answer=lambda text: "13")
    result = browser.run(run_task("How many orders are pending?", session=browser.session,
                                  start_url=pages.url("orders_list.html") + "?status=Shipped", memory_dir=memory_dir,
                                  max_steps=2), timeout=300)

    # Step 1 (on ?status=Shipped) is not checked first; refused for the unused "Pending", the step takes it, and
    # the list narrowed as asked is checked first at step 2.
    assert not any("checked first" in e.text for e in result.events if e.kind == "note" and e.step == 1)
    assert result.actions == ['Clicked link "Pending"'], result.actions


def test_a_count_naming_a_yes_no_facet_by_its_title_is_refused_and_its_choice_taken(browser, pages, agent_llm,
                                                                                      memory_dir):
    # "unsubscribed" is the "No" of the facet "By is subscribed" (act/list_choices.py): the model answered the
    # list's total for "How many customers are inactive?", the facet's "No" unused beside it; refused, it still
    # chose a row, "view all" and page 2. The one choice the refusal names is taken by the step itself.
    server = agent_llm(choose=lambda text, labels: index_of(labels, r"^end the task"), answer=lambda text: "1")
    result = browser.run(run_task("How many members are unsubscribed?", session=browser.session,
                                  start_url=pages.url("facets_list.html"), memory_dir=memory_dir, max_steps=3),
                         timeout=300)

    refusal = next(n for n in notes(result) if "not narrowed yet" in n)
    assert 'link "No" is not used' in refusal and '"Yes"' not in refusal, refusal
    assert result.actions == ['Clicked link "No" (for "By is subscribed")'] and result.status == "done", result.actions
    # One choice only: the end. The "No" took none, and the list it leads to, narrowed as the question asks (the
    # page is where its "No" links), is checked for the answer first (finish.narrowed_as_asked).
    assert len(server.prompts("action_selection")) == 1
    assert any("checked first" in n for n in notes(result))
    assert any("taken as it said" in n for n in notes(result))


def test_a_facet_opened_by_its_button_narrows_nothing_yet_and_its_choice_is_taken(browser, pages, agent_llm,
                                                                                  memory_dir):
    # The held-out admin's tier facet was opened ("Clicked button "By tier"") and the count answered from the whole
    # list: a button clicked on a list no query narrows does not end the count's check.
    def choose(text: str, labels: list[str]) -> int:
        if 'Clicked button "By plan"' not in text and index_of(labels, r'^button "By plan"') is not None:
            return index_of(labels, r'^button "By plan"')
        return index_of(labels, r"^end the task")

    # The opened menu's choice is declined (-1): the facet is open, the list not narrowed.
    agent_llm(choose=choose, answer=lambda text: "1",
              overrides={"dropdown_option": lambda text: {"reason": "none fits yet", "index": -1}})
    result = browser.run(run_task("How many members are on the gold plan?", session=browser.session,
                                  start_url=pages.url("facets_list.html"), memory_dir=memory_dir, max_steps=3),
                         timeout=300)

    assert result.actions[-1].startswith('Clicked link "Gold"') and result.status == "done", (result.actions, notes(result))


SHOWN_ALL = """<html><body><h1>Customers</h1>
<ul><li><a href="?all=&tier=gold">Gold</a></li><li><a href="?all=&tier=silver">Silver</a></li></ul>
<table><thead><tr><th>Name</th><th>Tier</th></tr></thead><tbody>
<tr><td>Ann Lee</td><td>Gold</td></tr><tr><td>Bo Chen</td><td>Silver</td></tr></tbody></table>
<p>2 customers</p></body></html>"""


def _list_at(address: str):
    from urllib.parse import urljoin

    from companion.pagemem.divide import divide_page
    from tests.support.htmlsnap import snapshot_from_html

    page = divide_page(snapshot_from_html(SHOWN_ALL, url=address))
    for el in page.all_elements():  # the browser's resolved link targets (the extension sends them)
        if "href" in el.attrs:
            el.url = urljoin(address, el.attrs["href"])
    return page


def test_a_list_shown_whole_by_a_followed_link_is_not_narrowed_by_it():
    """The default model followed "Show all" (?all=) and answered the list's total for the Gold tier's count."""
    from companion.agent.finish import unnarrowed_count

    task = "How many customers are in the Gold tier?"
    shown_all = _list_at("http://127.0.0.1/customers/?all=")
    assert unnarrowed_count(task, shown_all, ['Clicked link "Show all"']) == ('link "Gold" is not used',)
    # Narrowed by another choice already: the Gold link would replace it, not add to it: the model's to judge.
    silver = _list_at("http://127.0.0.1/customers/?all=&tier=silver")
    assert unnarrowed_count(task, silver, ['Clicked link "Silver"']) == ()
