"""A task is not let off its sites silently: with no --allow-domain, a link to another site asks the user
(the same confirm callback the side panel and the terminal answer), and a decline keeps the browser where it
was. Real Chromium with the real extension, the real loop, a scripted LLM (tests/fixtures/pages/sec_sites.html,
whose "Partner shop" link leads to the second server, another origin)."""

from __future__ import annotations

from companion.agent.loop import run_task
from tests.support.agent_llm import candidates_of, index_of, unwrap


def leave_then_end(text: str, labels: list[str]) -> int:
    """The partner link; else the end; refused that (nothing done yet), the page's own other link."""
    for pattern in (r'link "Partner shop"', r"^end the task", r'link "Second page here"'):
        at = index_of(labels, pattern)
        if at is not None:
            return at
    return index_of(labels, r"^type a URL")


def test_a_link_to_another_site_asks_and_a_decline_keeps_the_task_on_its_site(browser, pages, agent_llm, memory_dir):
    asked: list[str] = []

    async def decline(description: str) -> bool:
        asked.append(description)
        return False

    start = pages.url("sec_sites.html") + f"?other={pages.other_base}"
    agent_llm(choose=leave_then_end)
    result = browser.run(run_task("Find the partner shop's page.", session=browser.session, start_url=start,
                                  confirm=decline, memory_dir=memory_dir, max_steps=2), timeout=180)

    other = pages.other_base.removeprefix("http://")
    leave = [q for q in asked if other in q]
    assert len(leave) == 1 and "Partner shop" in leave[0], asked
    assert browser.driver.current_url == start  # the browser never went
    notes = [e.text for e in result.events if e.kind == "note"]
    assert any("declined by the user" in n and "Partner shop" in n for n in notes), notes


def test_with_confirmations_off_a_link_to_another_site_is_refused(browser, pages, agent_llm, memory_dir):
    start = pages.url("sec_sites.html") + f"?other={pages.other_base}"
    server = agent_llm(choose=leave_then_end)
    result = browser.run(run_task("Find the partner shop's page.", session=browser.session, start_url=start,
                                  memory_dir=memory_dir, max_steps=2), timeout=180)

    assert not browser.driver.current_url.startswith(pages.other_base)  # never on the other site
    # Refused before the LLM ever saw it: no candidate list offered the partner link.
    offered = [label for text in server.prompts("action_selection") for label in candidates_of(unwrap(text))]
    assert any("Second page here" in label for label in offered), offered
    assert not any("Partner shop" in label for label in offered), offered
    assert result.status in ("done", "out_of_steps"), result.explanation
