"""A submit-like button outside any form, chosen while a box or an option the task names is unset, is refused
once with what is left (act/named_fields.py), as SubmitForm fills a form's fields before it submits: the
model sets them, then submits. Chosen again with nothing changed, the click goes through. Real headless
Chromium, the real extension, the scripted LLM.

The task's end gets the same precondition while nothing was submitted (agent/finish.py unset_at_end), and a quoted
value next to a field's own words is typed into that field without a call."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from companion.act.named_fields import named_values_held, names_action, unset_named, value_named_for
from companion.text import names_in
from companion.agent.loop import run_task
from companion.pagemem.model import Element
from companion.protocol import ElementRef
from tests.support.agent_llm import candidates_of, index_of, submit_the_form

PAGE = "named_fields.html"
TASK = "Select Iceland and blue, then click Submit."
PICK_ICELAND = {"select_option": lambda text: {"reason": "scripted", "index": 1}}  # Norway | Iceland | Chile


def submitted_text(text: str) -> bool:
    return 'Clicked button "Submit"' in text


def eager_then_told(text: str, labels: list[str]) -> int:
    """A small model's habit: Submit first; once told what is unset, it sets that, then submits."""
    if submitted_text(text):
        return index_of(labels, r"^end the task")
    told = "not clicked yet" in text
    submit = index_of(labels, r'^button "Submit"')
    if not told and submit is not None:
        return submit
    combo = index_of(labels, r'^combobox .*value="Norway"')
    if combo is not None:
        return combo
    blue = index_of(labels, r'^checkbox "blue"(?!.*\[checked\])')
    if blue is not None:
        return blue
    return submit if submit is not None else index_of(labels, r"^end the task")


def insists(text: str, labels: list[str]) -> int:
    """Submit; refused, it ticks red, refused (the task names blue), green (Submit is offered again after an
    action), then Submit again."""
    if submitted_text(text):
        return index_of(labels, r"^end the task")
    submit = index_of(labels, r'^button "Submit"')
    if submit is not None:
        return submit
    red = index_of(labels, r'^checkbox "red"')
    return red if red is not None else index_of(labels, r'^checkbox "green"')


def run(browser, pages, memory_dir):
    return browser.run(run_task(TASK, session=browser.session, start_url=pages.url(PAGE), memory_dir=memory_dir,
                                max_steps=3), timeout=300)


def test_submit_before_the_named_fields_is_refused_with_what_is_left(browser, pages, agent_llm, memory_dir):
    agent_llm(choose=eager_then_told, overrides=PICK_ICELAND)
    result = run(browser, pages, memory_dir)

    assert browser.driver.find_element(By.ID, "submitted").text == "Iceland blue", result.actions
    notes = [e.text for e in result.events if e.kind == "note"]
    refusal = next(n for n in notes if "not clicked yet" in n)
    assert '"Iceland" of combobox' in refusal and 'checkbox "blue" is not checked' in refusal
    assert "red" not in refusal and "green" not in refusal  # the task does not name them
    assert result.actions[-1] == 'Clicked button "Submit"'


def test_choosing_submit_again_after_another_action_clicks_it_anyway(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=insists)
    result = run(browser, pages, memory_dir)

    # Refused once, left out until the next action, then the model's insistence wins: the task may name a label
    # for another reason.
    assert browser.driver.find_element(By.ID, "submitted").text == "Norway green", result.actions
    assert result.actions == ['Checked checkbox "green"', 'Clicked button "Submit"']
    assert sum("not clicked yet" in e.text for e in result.events if e.kind == "note") == 1
    told = server.prompts("action_selection")[1]
    assert "not clicked yet" in told and 'button "Submit"' not in candidates_of(told)


def test_a_quoted_value_no_field_holds_holds_back_the_submit(browser, pages, agent_llm, memory_dir):
    def eager(text: str, labels: list[str]) -> int:
        if submitted_text(text):
            return index_of(labels, r"^end the task")
        submit = index_of(labels, r'^button "Submit"')
        return submit if submit is not None else index_of(labels, r"^textbox")

    agent_llm(choose=eager, overrides={"input_value": lambda text: {"value": "Kasie"}})
    result = browser.run(run_task('Enter "Kasie" into the text field and press Submit.', session=browser.session,
                                  start_url=pages.url("named_text.html"), memory_dir=memory_dir, max_steps=2), timeout=300)

    assert browser.driver.find_element(By.ID, "submitted").text == "Kasie", result.actions
    assert any('"Kasie" is not typed into a field yet' in e.text for e in result.events if e.kind == "note")


def test_only_whole_words_of_the_task_count():
    reds = Element(ref=ElementRef(frame=0, id=1), index=1, tag="input", role="checkbox", name="red", attrs={"type": "checkbox"}, checked=False)
    assert names_in("Tick red and submit", "red") and not names_in("Show reduced prices", "red")
    assert unset_named("Show reduced prices", [reds]) == []
    assert unset_named("Tick red", [reds.model_copy(update={"checked": True})]) == []
    # A quoted phrase naming an element is a reference: 'Click the "Submit" button' next to an empty field.
    field = Element(ref=ElementRef(frame=0, id=2), index=2, tag="input", role="textbox", attrs={"type": "text"}, value="")
    submit = Element(ref=ElementRef(frame=0, id=3), index=3, tag="button", role="button", name="Submit")
    assert unset_named('Click the "Submit" button.', [field, submit]) == []


def ends_early(text: str, labels: list[str]) -> int:
    """Sets the country and ends (the default model's "the user has already selected them"); told what is
    unset, it ticks it and submits."""
    if submitted_text(text):
        return index_of(labels, r"^end the task")
    combo = index_of(labels, r'^combobox .*value="Norway"')
    if combo is not None:
        return combo
    if index_of(labels, r'^checkbox "blue".*\[checked\]') is not None:
        return index_of(labels, r'^button "Submit"')
    if "Not done yet" not in text:
        return index_of(labels, r"^end the task")
    return index_of(labels, r'^checkbox "blue"')


def test_ending_before_the_named_fields_are_set_is_refused_with_what_is_left(browser, pages, agent_llm, memory_dir):
    server = agent_llm(choose=ends_early, overrides=PICK_ICELAND)
    result = run(browser, pages, memory_dir)

    assert browser.driver.find_element(By.ID, "submitted").text == "Iceland blue", result.actions
    refusals = [e.text for e in result.events if e.kind == "note" and "names what is unset on this page" in e.text]
    assert len(refusals) == 1 and 'checkbox "blue" is not checked' in refusals[0], refusals
    assert "Iceland" not in refusals[0]  # set already
    assert result.actions[-1] == 'Clicked button "Submit"'
    assert len(server.prompts("end_task_verification")) == 1  # the refused end never reached the verifier


def test_an_end_chosen_again_on_the_same_unset_fields_goes_through(browser, pages, agent_llm, memory_dir):
    """Refused once per set of unset fields: the task may name a label for another reason. (A refused end is not
    offered again until an action ran: here the model ticks red.)"""
    def always_ends(text: str, labels: list[str]) -> int:
        combo = index_of(labels, r'^combobox .*value="Norway"')
        end = index_of(labels, r"^end the task")
        red = index_of(labels, r'^checkbox "red"')  # refused once (the task names blue): then green
        return combo if combo is not None else end if end is not None else red if red is not None else \
            index_of(labels, r'^checkbox "green"')

    agent_llm(choose=always_ends, overrides=PICK_ICELAND)
    result = run(browser, pages, memory_dir)

    assert result.status == "done", (result.status, result.explanation)
    assert result.actions == ['Selected "Iceland" in combobox', 'Checked checkbox "green"']
    assert sum("names what is unset on this page" in e.text for e in result.events if e.kind == "note") == 1


def _field(i: int, **kw) -> Element:
    return Element(ref=ElementRef(frame=0, id=i), index=i, tag="input", role="textbox", **kw)


def test_a_quoted_value_next_to_a_fields_own_words_is_that_fields():
    user, password = _field(1, name="Username", attrs={"id": "user"}), _field(2, attrs={"id": "pw", "type": "password"})
    task = 'Enter the username "sergio" and the password "DYh" into the text fields and press login.'
    assert (value_named_for(task, user), value_named_for(task, password)) == ("sergio", "DYh")
    first, last = _field(3, attrs={"name": "firstName"}), _field(4, name="Last name", attrs={"name": "last_name"})
    task = 'Type "Ada" as the first name and "Lovelace" as the last name.'
    assert (value_named_for(task, first), value_named_for(task, last)) == ("Ada", "Lovelace")


def test_no_value_is_named_for_a_field_the_task_does_not_point_at():
    plain = _field(1, attrs={"type": "text"})
    assert value_named_for('Enter "Tora" into the text field and press Submit.', plain) is None
    password = _field(2, attrs={"type": "password"})
    assert value_named_for('Try the password "a", then the password "b".', password) is None  # which one: the model's
    assert value_named_for('Log in as "sergio".', password) is None
    box = Element(ref=ElementRef(frame=0, id=3), index=3, tag="input", role="checkbox", name="password", attrs={"type": "checkbox"})
    assert value_named_for('Set the password "x".', box) is None  # not a text field


def test_a_value_after_a_fields_word_and_a_colon_is_that_fields():
    user = _field(1, name="Username:", attrs={"id": "id_username", "name": "username"})
    password = _field(2, name="Password:", attrs={"id": "id_password", "name": "password", "type": "password"})
    task = "Log in to the shop admin (username: admin, password: s3cret!.x). What is the stock of SKU KT-1002?"
    assert (value_named_for(task, user), value_named_for(task, password)) == ("admin", "s3cret!.x")


def test_named_values_are_held_only_when_every_value_the_task_names_is_in_its_field():
    task = 'Log in with the username "sergio" and the password "DYh-2024".'
    user = _field(1, name="Username", attrs={"id": "user"}, value="sergio")
    password = _field(2, name="Password", attrs={"id": "pw", "type": "password"}, has_value=True)
    remember = Element(ref=ElementRef(frame=0, id=3), index=3, tag="input", role="checkbox", name="Remember me",
                       attrs={"type": "checkbox"})
    assert named_values_held(task, [user, password, remember]) == ['textbox "Username" holds "sergio"',
                                                                   'textbox "Password" is filled']
    wrong = user.model_copy(update={"value": "serg"})
    assert named_values_held(task, [wrong, password, remember]) == []
    empty = password.model_copy(update={"has_value": False})
    assert named_values_held(task, [user, empty, remember]) == []
    assert named_values_held("Log in to the shop.", [user, password]) == []  # the task names no value here


def test_a_task_names_what_a_button_does_by_its_words_or_their_letters():
    task = "Log in to the shop admin, then open the orders."
    assert names_action(task, "Log in") and names_action(task, "Login") and names_action("login first", "Log in")
    assert not names_action(task, "Log out")
    assert not names_action("Sign up now", "Sign in")
    assert not names_action("Go to the orders", "Go")  # a vague button names nothing


def test_a_login_form_gets_the_values_the_task_names_without_asking(browser, pages, agent_llm, memory_dir):
    """The default model's mistake, scripted: every field_value answer is the username. With the rule no field
    asks, and the password field gets the password."""
    def open_login(text: str, labels: list[str]) -> int:
        if "Logged in as" in text:
            return index_of(labels, r"^end the task")
        found = index_of(labels, r'^textbox "Username"')
        return found if found is not None else index_of(labels, r"^end the task")

    server = agent_llm(choose=open_login, overrides={
        "form_field_selection": lambda text: {"indices": [0, 1]},
        "field_value": lambda text: {"value": "sergio"},
        "form_review": submit_the_form,
    })
    task = 'Log in with the username "sergio" and the password "DYh-2024".'
    result = browser.run(run_task(task, session=browser.session, start_url=pages.url("act_login.html"),
                                  memory_dir=memory_dir, max_steps=2), timeout=300)

    assert browser.driver.find_element(By.ID, "result").text == "Logged in as sergio (password length 8)", result.actions
    assert server.prompts("field_value") == []
