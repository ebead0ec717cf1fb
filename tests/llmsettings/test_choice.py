"""Which specs the extension may choose (companion/llm/choice.py), and how the choice is kept in llm.toml."""

from __future__ import annotations

import stat
import tomllib

import pytest

from companion.llm.choice import choosable, save_spec, saved_spec
from companion.llm.config import LLMConfigError, load_settings


@pytest.mark.parametrize("spec", ["embedded", "ollama#qwen2.5:7b", "lmstudio", "openai:http://10.0.0.5:8000/v1#m"])
def test_the_backends_of_the_options_page_are_choosable(spec):
    assert choosable(spec).spec == spec


@pytest.mark.parametrize("spec", ["gguf:/etc/passwd", "replay:/tmp/session.jsonl", "lexical"])
def test_a_spec_naming_a_file_or_a_test_backend_is_left_to_the_command_line(spec):
    with pytest.raises(LLMConfigError, match="chosen on the command line"):
        choosable(spec)


def test_a_url_with_no_host_is_refused():
    with pytest.raises(LLMConfigError, match="names no host"):
        choosable("openai:http:///v1")


def test_a_url_with_a_port_that_is_not_a_number_is_refused():
    with pytest.raises(LLMConfigError, match="not a usable server URL"):
        choosable("openai:http://127.0.0.1:80a/v1")


def test_saving_keeps_the_other_keys_and_comments(config):
    path = config / "llm.toml"
    path.write_text('# tuned for this laptop\nspec = "vllm"\ntimeout_s = 7.5\nthreads = 3\n')
    save_spec('openai:http://127.0.0.1:8080/v1#a "quoted" model')
    text = path.read_text()
    assert tomllib.loads(text) == {"spec": 'openai:http://127.0.0.1:8080/v1#a "quoted" model', "timeout_s": 7.5, "threads": 3}
    assert "# tuned for this laptop" in text
    assert load_settings().timeout_s == 7.5  # what every other command reads


def test_a_new_llm_toml_is_private(config):
    save_spec("ollama")
    assert saved_spec() == "ollama"
    assert stat.S_IMODE((config / "llm.toml").stat().st_mode) == 0o600


def test_a_damaged_llm_toml_is_not_overwritten(config):
    path = config / "llm.toml"
    path.write_text("spec = [unclosed\n")
    with pytest.raises(LLMConfigError, match="not valid TOML"):
        save_spec("ollama")
    assert path.read_text() == "spec = [unclosed\n"
