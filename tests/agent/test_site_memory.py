"""The agent saves what it sees into WebsiteMem: every visited page, in the memory of the page's own site,
without typed values or passwords. Real Chromium with the real extension, the real loop, a scripted LLM."""

from __future__ import annotations

from companion.agent.loop import run_task
from companion.memory.store import WebsiteMemStore, site_key
from tests.support.agent_llm import index_of

TYPED = "Zed Typedvalue 31"  # what the agent types into the Name field: it must never reach the disk
FIXTURE_PASSWORD = "hunter2-fixture-secret"  # basic.html's password field value


def _page(text: str) -> str:
    return text.split("Current page:", 1)[1].split("\n", 1)[0]


def test_every_visited_page_is_saved_without_typed_values(browser, pages, agent_llm, memory_dir):
    def choose(text: str, labels: list[str]) -> int:
        if "second.html" in _page(text):
            return index_of(labels, r"^end the task")
        if "After \"" not in text:  # first choice on the basic page: type the name
            return index_of(labels, r'"Name"|Your name')
        return index_of(labels, r'link "link to the second page"')

    agent_llm(choose=choose, overrides={"input_value": lambda text: {"value": TYPED}})
    result = browser.run(run_task("Enter the name Zed, then go to the second page.", session=browser.session,
                                  start_url=pages.url("basic.html"), memory_dir=memory_dir), timeout=180)

    assert result.status == "done", result.explanation
    assert any(TYPED in a for a in result.actions), result.actions  # the value really was typed
    assert browser.driver.current_url == pages.url("second.html")

    path = memory_dir / f"{site_key(pages.url('basic.html'))}.json"
    raw = path.read_text()
    assert TYPED not in raw and "Typedvalue" not in raw
    assert FIXTURE_PASSWORD not in raw
    with WebsiteMemStore(pages.url("basic.html"), memory_dir) as store:
        assert sorted(store.page_urls()) == sorted([pages.url("basic.html"), pages.url("second.html")])
        basic = store.load_page(pages.url("basic.html"))
        second = store.load_page(pages.url("second.html"))
    name = next(e for e in basic.all_elements() if e.attrs.get("id") == "name")
    assert name.value is None
    assert basic.title == "Basic page" and second.title == "Second page"
    # The observation's abstractions were kept with the page (a later visit reads them from memory).
    assert all(s.purpose for s in second.sections)
    assert any(e.attrs.get("id") == "back-link" for e in second.all_elements())


def test_a_page_of_another_site_goes_to_that_sites_own_memory(browser, pages, agent_llm, memory_dir):
    other = pages.other_url("second.html")  # another port: another site

    def choose(text: str, labels: list[str]) -> int:
        if "second.html" in _page(text):
            return index_of(labels, r"^end the task")
        return index_of(labels, r"^type a URL")

    agent_llm(choose=choose, overrides={"input_value": lambda text: {"value": other}})
    result = browser.run(run_task(f"Open {other} and tell me its heading.", session=browser.session,
                                  start_url=pages.url("basic.html"), memory_dir=memory_dir), timeout=180)

    assert result.status == "done", result.explanation
    assert browser.driver.current_url == other
    home, away = site_key(pages.url("basic.html")), site_key(other)
    assert home != away
    with WebsiteMemStore(home, memory_dir) as store:
        assert store.page_urls() == [pages.url("basic.html")]
    with WebsiteMemStore(away, memory_dir) as store:
        assert store.page_urls() == [other]
        assert store.load_page(other).title == "Second page"


def test_an_unreadable_memory_file_is_reported_and_the_task_goes_on(browser, pages, agent_llm, memory_dir):
    path = memory_dir / f"{site_key(pages.url('basic.html'))}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{ not json")

    def choose(text: str, labels: list[str]) -> int:
        if "second.html" in _page(text):
            return index_of(labels, r"^end the task")
        return index_of(labels, r'link "link to the second page"')

    agent_llm(choose=choose)
    result = browser.run(run_task("Go to the second page.", session=browser.session,
                                  start_url=pages.url("basic.html"), memory_dir=memory_dir), timeout=180)

    assert result.status == "done", result.explanation
    notes = [e.text for e in result.events if e.kind == "note"]
    assert any("Working without memory for" in n and "corrupt-" in n for n in notes), notes
    assert path.read_text() == "{ not json"  # left for the user, never overwritten
