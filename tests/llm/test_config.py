"""Backend specs: presets, explicit servers, embedded models, precedence flag > env > llm.toml > default."""

import pytest

from companion.llm.config import PRESETS, LLMConfigError, load_settings, parse_spec


def test_presets_point_at_loopback_urls():
    s = parse_spec("ollama#qwen2.5-coder:1.5b")
    assert (s.kind, s.base_url, s.model) == ("server", PRESETS["ollama"], "qwen2.5-coder:1.5b")
    assert parse_spec("llamacpp").base_url == "http://127.0.0.1:8080/v1"


def test_openai_spec_takes_url_and_model():
    s = parse_spec("openai:http://10.0.0.5:9000/v1/#m1")
    assert (s.base_url, s.model) == ("http://10.0.0.5:9000/v1", "m1")


def test_embedded_specs():
    assert parse_spec("embedded").model == "qwen2.5-coder-1.5b"
    assert parse_spec("embedded:smollm2-135m").model == "smollm2-135m"
    assert parse_spec("gguf:/tmp/x.gguf").gguf_path == "/tmp/x.gguf"


@pytest.mark.parametrize("bad", ["embedded:gpt-9", "openai:localhost", "nonsense", "gguf:"])
def test_bad_specs_are_clear_errors(bad):
    with pytest.raises(LLMConfigError):
        parse_spec(bad)


def test_precedence_flag_env_file_default(fresh_dirs, monkeypatch):
    assert load_settings().spec == "embedded"
    (fresh_dirs / "config").mkdir(exist_ok=True)
    (fresh_dirs / "config" / "llm.toml").write_text('spec = "vllm"\ntimeout_s = 7.5\n')
    assert (load_settings().spec, load_settings().timeout_s) == ("vllm", 7.5)
    monkeypatch.setenv("WEBCHALLENGER_LLM", "lmstudio")
    assert load_settings().spec == "lmstudio"
    assert load_settings("ollama").spec == "ollama"


def test_corrupt_config_file_is_a_clear_error(fresh_dirs):
    (fresh_dirs / "config").mkdir(exist_ok=True)
    (fresh_dirs / "config" / "llm.toml").write_text("spec = [unclosed")
    with pytest.raises(LLMConfigError, match="llm.toml"):
        load_settings()


def test_idle_unload_defaults_to_ten_minutes_and_is_set_by_llm_toml_then_the_environment(fresh_dirs, monkeypatch):
    """The embedded model's idle period: 600 s by default, llm.toml's idle_unload_s, the environment (serve's flag)."""
    assert load_settings("embedded").idle_unload_s == 600
    (fresh_dirs / "config").mkdir(parents=True, exist_ok=True)
    (fresh_dirs / "config" / "llm.toml").write_text("idle_unload_s = 30\n")
    assert load_settings("embedded").idle_unload_s == 30
    monkeypatch.setenv("WEBCHALLENGER_LLM_IDLE_UNLOAD", "0")
    assert load_settings("embedded").idle_unload_s == 0
