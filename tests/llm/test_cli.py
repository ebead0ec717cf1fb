"""`webchallenger llm check|fetch`."""

from companion.cli import main


def test_check_reports_mode_model_and_choice_time(scripted_llm, capsys):
    server = scripted_llm(script=['{"index": 1}'], reject_json_schema=True)
    assert main(["llm", "check", "--llm", server.spec]) == 0
    out = capsys.readouterr().out
    assert "structured:   json_object_schema" in out
    assert "model:        scripted-model" in out
    assert "answer [1]" in out


def test_check_against_a_dead_server_is_a_clear_error(capsys):
    assert main(["llm", "check", "--llm", "openai:http://127.0.0.1:9/v1#m"]) == 1
    assert "cannot connect to the LLM server at http://127.0.0.1:9/v1" in capsys.readouterr().err


def test_fetch_has_nothing_to_do_for_a_server(capsys):
    assert main(["llm", "fetch", "ollama"]) == 0
    assert "nothing to fetch" in capsys.readouterr().out


def test_fetch_rejects_a_bad_spec(capsys):
    assert main(["llm", "fetch", "embedded:gpt-9"]) == 2
    assert "unknown embedded model" in capsys.readouterr().err
