"""Memory at work in a task, real Chromium + extension + the scripted LLM server: a site whose
memory was learned beforehand through memory/learn.py (as exploration does) offers its bookmarks at task start,
shows a remembered menu's hidden entries and lets one be chosen directly, and a revisited page costs no
section_summary call."""

from __future__ import annotations

import pytest

from companion.agent.loop import run_task
from companion.memory.store import WebsiteMemStore, site_key
from tests.support.agent_llm import candidates_of, index_of
from companion.memory import learn
from companion.pagemem.identity import element_key
from companion.pagemem.divide import divide_page
from companion.explore.explore_element import option_candidates
from tests.support.learning import learn_menu, named, visit

pytestmark = pytest.mark.browser

HIDDEN_SHIP = r'^button "Mark shipped" \(in the menu of button "Actions"\)'


@pytest.fixture
def learned_site(browser, pages, memory_dir):
    """The Depot site's memory as an exploration leaves it: three pages, and the Actions menu of the orders page."""
    with WebsiteMemStore(site_key(pages.url("mem_home.html")), memory_dir) as store:
        for name in ("mem_home.html", "mem_help.html"):
            visit(browser, store, pages.url(name))
        learn_menu(browser, store, pages.url("mem_orders.html"), "Actions")
    return memory_dir


def end_task(text: str, labels: list[str]) -> int:
    return index_of(labels, r"^end the task")


def test_a_learned_bookmark_is_offered_at_task_start_and_stays_a_navigation_candidate(browser, pages, agent_llm, learned_site):
    orders = pages.url("mem_orders.html")

    def choose(text: str, labels: list[str]) -> int:
        if "mem_orders.html" in text.split("Current page:", 1)[1].split("\n", 1)[0]:
            return index_of(labels, r"^end the task")
        return index_of(labels, rf"^go to bookmark {orders}")

    llm_server = agent_llm(choose=choose)
    result = browser.run(run_task("Open the list of orders", session=browser.session, start_url=pages.url("mem_home.html"),
                                  memory_dir=learned_site), timeout=240)

    assert result.status == "done", result.explanation
    [offer] = llm_server.prompts("bookmark_selection")
    assert f"Depot orders ({orders})" in offer
    first_choice = candidates_of(llm_server.prompts("action_selection")[0])
    assert index_of(first_choice, rf"^go to bookmark {orders} \(Depot orders\)") is not None, first_choice
    assert result.actions == [f"Navigated to {orders}"]


def test_a_remembered_menu_shows_its_hidden_entries_in_the_observation_and_the_action_choice(browser, pages, agent_llm, learned_site):
    llm_server = agent_llm(choose=end_task)
    result = browser.run(run_task("Which bulk actions can be applied to the orders?", session=browser.session,
                                  start_url=pages.url("mem_orders.html"), memory_dir=learned_site), timeout=240)

    assert result.status == "done", result.explanation
    # The orders page is small enough to show whole (observe/whole.py): the actor reads the trigger's line itself.
    assert 'button "Actions" (opens: Mark shipped, Export as CSV, Archive old orders)' in \
        llm_server.prompts("action_selection")[0].split("Possible actions:", 1)[0]
    labels = candidates_of(llm_server.prompts("action_selection")[0])
    assert [label for label in labels if "(in the menu of" in label] == [
        'button "Mark shipped" (in the menu of button "Actions")',
        'button "Export as CSV" (in the menu of button "Actions")',
        'button "Archive old orders" (in the menu of button "Actions")']
    assert browser.driver.find_element("id", "menu").get_attribute("hidden") is not None  # nothing was clicked


def test_a_hidden_entry_chosen_directly_opens_its_trigger_and_is_clicked(browser, pages, agent_llm, learned_site):
    def choose(text: str, labels: list[str]) -> int:
        if "marked shipped" in text:
            return index_of(labels, r"^end the task")
        return index_of(labels, HIDDEN_SHIP)

    llm_server = agent_llm(choose=choose)
    result = browser.run(run_task("Mark the orders of the week as shipped", session=browser.session,
                                  start_url=pages.url("mem_orders.html"), memory_dir=learned_site), timeout=240)

    assert result.status == "done", result.explanation
    assert result.actions[:2] == ['Clicked button "Actions"', 'Clicked button "Mark shipped"']
    assert browser.driver.find_element("id", "status").text == "All orders are marked shipped"
    assert llm_server.prompts("dropdown_option") == []  # the entry was known: no question which one


def test_a_remembered_entry_the_page_already_shows_is_offered_once_and_clicked_without_closing_its_menu(browser, pages, agent_llm,
                                                                                       memory_dir):
    """Django's admin shows its filter lists open (and remembers a list closed by hand in the browser's session
    storage): the menu was learnt with its entries, the task finds it open, and clicking the trigger would close it
    and hide the entry. Seen on the held-out admin: 'button "By status" opened, but the remembered option is not
    among what it showed'."""
    url = pages.url("mem_orders.html") + "#menu-open"
    browser.open(pages.url("mem_home.html"))  # a fresh load of the orders page below, not only a new fragment
    with WebsiteMemStore(site_key(url), memory_dir) as store:
        pm = visit(browser, store, url)
        trigger = named(pm, "Actions")
        entries = [named(pm, n) for n in ("Mark shipped", "Export as CSV", "Archive old orders")]
        learn.learn_click(store, pm, trigger, revealed=entries, trigger_key=element_key(pm, trigger), source="explore")

    def choose(text: str, labels: list[str]) -> int:
        if "marked shipped" in text:
            return index_of(labels, r"^end the task")
        return index_of(labels, r'^button "Mark shipped"')

    server = agent_llm(choose=choose)
    result = browser.run(run_task("Mark the orders of the week as shipped", session=browser.session,
                                  start_url=url, memory_dir=memory_dir), timeout=240)

    assert result.status == "done", result.explanation
    # The entry is offered once, as the page shows it, not again as a hidden entry of its open menu.
    assert not [label for label in candidates_of(server.prompts("action_selection")[0]) if "(in the menu of" in label]
    assert result.actions[0] == 'Clicked button "Mark shipped"'  # the trigger was not clicked
    assert browser.driver.find_element("id", "status").text == "All orders are marked shipped"


def test_a_remembered_option_of_a_native_select_is_selected_as_it_is(browser, pages, agent_llm, memory_dir):
    """Exploration records a native select's options as its dropdown without clicking it (the popup is outside
    the DOM). Chosen directly, the option is selected: opening the select shows no elements, and the held-out
    admin's "Action:" select failed every step with "opened, but the remembered option is not among what it
    showed"."""
    url = pages.url("act_select.html")
    with WebsiteMemStore(site_key(url), memory_dir) as store:
        browser.open(url)
        snapshot = browser.run(browser.session.snapshot())
        pm = learn.learn_page(store, divide_page(snapshot), source="explore")
        select = named(pm, "Shipping speed")
        learn.learn_click(store, pm, select, revealed=option_candidates(select, snapshot),
                          trigger_key=element_key(pm, select), source="explore")

    def choose(text: str, labels: list[str]) -> int:
        if "Overnight" in text.split("Current page:", 1)[-1] and "Selected" in text:
            return index_of(labels, r"^end the task")
        # The select is named by its role and name only: its options are on its own line.
        return index_of(labels, r'^option "Overnight" \(in the menu of combobox "Shipping speed"\)$')

    llm_server = agent_llm(choose=choose)
    result = browser.run(run_task("Choose overnight shipping", session=browser.session, start_url=url,
                                  memory_dir=memory_dir), timeout=240)

    assert result.status == "done", result.explanation
    assert result.actions[0] == 'Selected "Overnight" in combobox "Shipping speed"'
    assert browser.driver.find_element("id", "chosen").text == "Overnight"
    assert llm_server.prompts("select_option") == []  # the option was chosen already: no question which one


@pytest.mark.paper_pipeline
def test_a_page_visited_again_costs_no_section_summary_call(browser, pages, agent_llm, memory_dir):
    llm_server = agent_llm(choose=end_task)

    def run():
        return browser.run(run_task("What is the Depot back office for?", session=browser.session,
                                    start_url=pages.url("mem_home.html"), memory_dir=memory_dir), timeout=240)

    assert run().status == "done"
    first = len(llm_server.prompts("section_summary"))
    assert first >= 1  # the welcome text is summarized once...
    assert run().status == "done"
    assert len(llm_server.prompts("section_summary")) == first  # ...and served from memory on the next visit


@pytest.mark.paper_pipeline
def test_a_page_entered_again_in_a_task_reuses_its_extractions(browser, pages, agent_llm, memory_dir):
    entries = []

    def choose(text: str, labels: list[str]) -> int:
        page = text.split("Current page:", 1)[1].split("\n", 1)[0]
        if "mem_orders.html" in page:
            return index_of(labels, r'^link "Home"')
        entries.append(page)
        return index_of(labels, r'^link "Orders"') if len(entries) == 1 else index_of(labels, r"^end the task")

    llm_server = agent_llm(choose=choose)
    result = browser.run(run_task("Read the welcome text, look at the orders, and come back", session=browser.session,
                                  start_url=pages.url("mem_home.html"), memory_dir=memory_dir), timeout=240)

    assert result.status == "done", result.explanation
    assert len(entries) == 2 and result.actions[0] == 'Clicked link "Orders"' and result.actions[-1] == 'Clicked link "Home"'
    welcome = [p for p in llm_server.prompts("detail_extraction") if "Welcome to the Depot back office" in p]
    assert len(welcome) == 1  # the second entry of the home page read the section's extraction from the first
