"""API keys per server URL (companion/llm/api_keys.py): kept 0600, found for their own server only, described by
their last 4 characters, and a server's settings take its key."""

import stat

import pytest

from companion.llm.api_keys import APIKeyError, hint, key_for, keys_file, save_key
from companion.llm.config import load_settings

KEY = "sk-live-abcdefghijkl1234"


def test_a_key_is_kept_0600_for_its_own_server_only(fresh_dirs):
    """The key file is 0600; another server's URL finds no key; '' removes it."""
    save_key("https://llm.example.com/v1/", KEY)
    assert stat.S_IMODE(keys_file().stat().st_mode) == 0o600
    assert key_for("https://llm.example.com/v1") == KEY
    assert key_for("https://other.example.com/v1") == ""
    save_key("https://llm.example.com/v1", "")
    assert key_for("https://llm.example.com/v1") == ""


def test_a_server_spec_takes_its_saved_key_and_a_flag_wins(fresh_dirs):
    """The saved key is the client's api_key for that server; an explicit key (flag, environment) wins."""
    save_key("https://llm.example.com/v1", KEY)
    assert load_settings("openai:https://llm.example.com/v1#m").api_key == KEY
    assert load_settings("openai:https://llm.example.com/v1#m", api_key="other").api_key == "other"
    assert load_settings("ollama").api_key == "not-needed"
    assert KEY not in repr(load_settings("openai:https://llm.example.com/v1#m"))


def test_only_the_last_four_characters_of_a_long_key_are_told():
    assert hint(KEY) == "1234" and hint("short-key") == ""


def test_a_key_with_spaces_is_refused_without_repeating_it(fresh_dirs):
    with pytest.raises(APIKeyError) as refused:
        save_key("https://llm.example.com/v1", "sk-abc def-secretpart")
    assert "secretpart" not in str(refused.value)
