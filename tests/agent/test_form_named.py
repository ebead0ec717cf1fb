"""SubmitForm and the fields the task names, in real Chromium with the real extension and the scripted LLM.

"Subscribe ada@example.com to the monthly newsletter": the default model's field selection chose only the email,
and the review submitted the form with "Weekly" (the select's first option). A field the task names an unset
option or box of is filled even when field selection leaves it out, and the review's Submit is refused once
while such a field is not as the task says (companion/act/form.py, named_fields.py)."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from companion.agent.loop import run_task
from tests.support.agent_llm import index_of, option_named, options, submit_the_form

PAGE = "agent_news.html"
TASK = "Subscribe ada@example.com to the monthly newsletter."


def open_the_form(text: str, labels: list[str]) -> int:
    """Open the form through its email field; on the thank-you page, end the task."""
    if "agent_news_done.html" in text.split("Current page:", 1)[1].split("\n", 1)[0]:
        return index_of(labels, r"^end the task")
    found = index_of(labels, r'Email address')
    return found if found is not None else index_of(labels, r"^end the task")


def only_the_email(text: str) -> dict:
    fields = options(text.split("Fields:\n", 1)[1].split("\n\n", 1)[0])
    return {"indices": [index_of(fields, r"Email address")]}



OVERRIDES = {
    "form_field_selection": only_the_email,
    "field_value": lambda text: {"value": "ada@example.com"},
    "select_option": option_named(r"^Monthly$"),
    "form_review": submit_the_form,
}


def subscribe(browser, pages, memory_dir):
    result = browser.run(run_task(TASK, session=browser.session, start_url=pages.url(PAGE), memory_dir=memory_dir,
                                  max_steps=2), timeout=300)
    done = browser.driver.find_elements(By.ID, "done")
    return result, (done[0].text if done else "")


def test_a_field_whose_option_the_task_names_is_filled_though_field_selection_left_it_out(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=open_the_form, overrides=OVERRIDES)
    result, done = subscribe(browser, pages, memory_dir)

    assert done == "ada@example.com will get the monthly newsletter.", (done, result.actions)
    assert len(server.prompts("select_option")) == 1
    assert len(server.prompts("form_review")) == 1  # nothing was left unset: no refusal


def test_the_reviews_submit_is_refused_once_while_a_named_option_is_unset(browser, pages, agent_llm, memory_dir):
    """The model picks the wrong option and submits: the review is asked again, told what is not as the task says;
    it submits again, and the form goes as it is (the task may name a word for another reason)."""
    server = agent_llm(choose=open_the_form, overrides={**OVERRIDES, "select_option": option_named(r"^Weekly$")})
    result, done = subscribe(browser, pages, memory_dir)

    reviews = server.prompts("form_review")
    assert len(reviews) == 2, reviews
    assert "Not as the task says yet" not in reviews[0]
    assert '"Monthly" of combobox "How often" is not selected' in reviews[1]
    assert done == "ada@example.com will get the weekly newsletter.", (done, result.actions)


def test_a_refused_submit_followed_by_the_edit_submits_the_named_option(browser, pages, agent_llm, memory_dir):
    picks = iter([r"^Weekly$", r"^Monthly$"])  # wrong at first, right once told

    def review(text: str) -> dict:
        if "Not as the task says yet" in text:
            return {"reason": "monthly", "index": index_of(options(text), r'^Edit field: combobox "How often"')}
        return submit_the_form(text)

    server = agent_llm(choose=open_the_form, overrides={**OVERRIDES, "form_review": review,
                                                         "select_option": lambda text: option_named(next(picks))(text)})
    result, done = subscribe(browser, pages, memory_dir)

    assert done == "ada@example.com will get the monthly newsletter.", (done, result.actions)
    assert len(server.prompts("form_review")) == 3  # submit (refused), edit, submit
