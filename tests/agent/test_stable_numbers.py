"""A candidate that fails in a step keeps its number, shown as tried and not choosable, so no other number
moves: the default 1.5B model answered "3" three times in a row on MiniWoB's click-checkboxes, and once its
box at [3] had been refused as a no-op, "3" had become the Submit button. Real headless Chromium, the real
extension, the scripted LLM."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from companion.agent.decide import TRIED
from companion.agent.loop import run_task
from tests.support.agent_llm import candidates_of, index_of

PAGE = "named_fields.html"  # [0] combobox, [1] red, [2] green, [3] blue, [4] Submit


def always_three(text: str, labels: list[str]) -> int:
    """A small model's habit: the same number again, while it is there to answer."""
    return 3 if labels[3] != TRIED else index_of(labels, r"^end the task")


def test_a_refused_candidate_keeps_its_number_and_the_others_keep_theirs(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=always_three)
    result = browser.run(run_task("Tick the blue box.", session=browser.session, start_url=pages.url(PAGE),
                                  memory_dir=memory_dir, max_steps=1), timeout=300)

    assert result.actions == ['Checked checkbox "blue"']
    assert browser.driver.find_element(By.ID, "submitted").text == "nothing"  # "3" never became Submit
    after = [candidates_of(p) for p in server.prompts("action_selection")][2]  # after the no-op was refused
    assert after[3] == TRIED and after[4] == 'button "Submit"'


def test_a_retry_reads_the_last_prompt_with_the_refused_line_taken_out(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=always_three)
    browser.run(run_task("Tick the blue box.", session=browser.session, start_url=pages.url(PAGE),
                         memory_dir=memory_dir, max_steps=1), timeout=300)

    refused, retry = server.prompts("action_selection")[1:3]  # "3" refused as a no-op, then chosen again

    def through_the_list(prompt: str) -> str:
        head, rest = prompt.split("Possible actions:\n", 1)
        return head + "Possible actions:\n" + rest.split("\n\n", 1)[0]

    line = next(x for x in through_the_list(refused).splitlines() if x.startswith("[3] "))
    # Nothing put in before the list's end, only the line taken out: llama.cpp's chunk reuse keeps the rest cached.
    assert through_the_list(retry) == through_the_list(refused).replace(line + "\n", "")
    assert f"\n\nNot offered now:\n{line} {TRIED}\n" in retry
