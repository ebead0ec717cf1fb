"""The lexical policy (`--llm lexical`) through the real client over HTTP to its server, on the real prompts:
what it answers is computed from the rendered prompt and the schema, by word overlap with the task."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.lexical import lexical_server
from companion.act.basic import VALUE_TOKENS
from companion.act.candidates import END_TASK_LABEL, TYPE_URL_LABEL
from companion.agent.finish import VERIFY_MAX_TOKENS
from companion.llm import TextValue, Verification
from companion.llm.client import LLMClient
from companion.llm.config import parse_spec

ROOT = Path(__file__).resolve().parents[2]
LOGIN = 'Enter the username "kanesha" and the password "Cq5" into the text fields and press login.'


@pytest.fixture
def client():
    lexical_server()  # what `webchallenger` starts for `--llm lexical`
    return LLMClient(spec="lexical")


def test_lexical_is_a_spec_of_the_shared_llm_parser():
    assert parse_spec("lexical").kind == "lexical"


async def test_action_selection_picks_the_option_sharing_most_words_with_the_task(client):
    candidates = ['button "Cancel"', 'button "Previous"', 'link "okay"', TYPE_URL_LABEL, END_TASK_LABEL]
    reply = await client.choose("action_selection", {"task": 'Click on the "okay" link.', "history": "",
                                                     "observation": "Three controls.", "candidates": candidates}, n=5)

    assert reply.answer.index == 2
    assert reply.usage.model == "lexical"


async def test_an_action_done_already_gives_way_to_the_next_one(client):
    history = ("Step 1\nObservation: Form (http://x/) - Summary: a form\nReason for Action: r\n"
               'Action: Typed "Tora" into textbox')
    candidates = ['textbox value="Tora"', 'button "Submit"', TYPE_URL_LABEL, END_TASK_LABEL]
    reply = await client.choose("action_selection", {"task": 'Enter "Tora" into the text field and press Submit.',
                                                     "history": history, "observation": "The field holds Tora.",
                                                     "candidates": candidates}, n=4)

    assert reply.answer.index == 1


async def test_the_typed_value_is_the_quoted_phrase_named_like_the_field(client):
    values = []
    for field in ('textbox "Username"', 'textbox "Password" type=password'):
        reply = await client.ask("field_value", {"task": LOGIN, "history": "", "form_purpose": "Login form",
                                                 "field": field, "problem": "", "others": ""}, TextValue, max_tokens=VALUE_TOKENS)
        values.append(reply.answer.value)

    assert values == ["kanesha", "Cq5"]


async def test_without_quotes_the_typed_value_is_what_follows_enter(client):
    reply = await client.ask("input_value", {"task": "Enter 12/03/2016 as the date and hit submit.", "history": "",
                                             "observation": "A date field.", "field": "textbox type=date"},
                             TextValue, max_tokens=VALUE_TOKENS)

    assert reply.answer.value == "12/03/2016"


async def test_a_dropdown_sharing_no_word_with_the_task_is_left(client):
    reply = await client.choose("dropdown_option", {"task": "Open the settings page.", "history": "",
                                                    "trigger": 'button "Menu"', "options": ["Apples", "Pears"]},
                                n=2, allow_none=True)

    assert reply.answer.index == -1


@pytest.mark.parametrize("actions, complete", [([], False), (['Clicked button "okay"'], True)])
async def test_the_end_of_task_check_holds_once_a_browser_action_was_taken(client, actions, complete):
    reply = await client.ask("end_task_verification", {"task": 'Click on the "okay" button.', "history": "",
                                                       "observation": "A page.", "actions_done": actions},
                             Verification, max_tokens=VERIFY_MAX_TOKENS)

    assert reply.answer.complete is complete


async def test_an_action_taken_earlier_in_the_same_step_gives_way_too(client):
    observation = 'Two tabs. After "Clicked tab "Tab #2"": the second tab opened.'
    candidates = ['tab "Tab #2" [expanded]', 'link "Tab two details"', TYPE_URL_LABEL, END_TASK_LABEL]
    reply = await client.choose("action_selection", {"task": "Open Tab #2 and its details.", "history": "",
                                                     "observation": observation, "candidates": candidates}, n=4)

    assert reply.answer.index == 1


PRODUCT_ONLY = """
import asyncio, sys
from companion.act.basic import VALUE_TOKENS
from companion.llm import LLMConfigError, TextValue
from companion.llm.client import LLMClient

client = LLMClient(spec="lexical")
try:
    asyncio.run(client.ask("input_value", {"task": "Enter 3 as the count.", "history": "", "observation": "A field.",
                                           "field": "textbox"}, TextValue, max_tokens=VALUE_TOKENS))
except LLMConfigError as exc:
    print("refused:", exc)
print("harness loaded:", sorted(m for m in sys.modules if m.split(".")[0] in ("benchmarks", "tests")))
"""


def test_the_products_client_connects_to_the_stand_in_but_never_starts_it():
    """Harness code stays out of the product: a `lexical` client in a process where nothing started the stand-in
    refuses its first call with the reason, and no module of benchmarks/ or tests/ gets loaded."""
    proc = subprocess.run([sys.executable, "-c", PRODUCT_ONLY], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})

    assert proc.returncode == 0, proc.stderr
    assert "refused: --llm lexical: the no-model stand-in is not running in this process" in proc.stdout
    assert "harness loaded: []" in proc.stdout
