"""`webchallenger serve` argument handling (its running behaviour is covered by test_reconnect.py)."""

from companion.cli import main


def test_serve_refuses_to_allow_a_web_origin(capsys):
    assert main(["serve", "--port", "0", "--allow-origin", "http://evil.example"]) == 2
    assert "chrome-extension:// origins only" in capsys.readouterr().err


def test_serve_reports_a_port_in_use(capsys):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 1
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def test_serve_logs_no_line_per_llm_call_without_verbose(caplog):
    """Under `serve`'s logging (no -v) an LLM call's HTTP requests print nothing: one line per task, not per call."""
    import logging

    from companion.commands.serve import configure_logging
    from tests.support.scripted_server import ScriptedLLMServer

    caplog.set_level(logging.INFO)  # serve's terminal shows INFO
    root = logging.getLogger()
    before = {h: list(h.filters) for h in root.handlers}
    try:
        configure_logging(verbose=False)
        with ScriptedLLMServer(script=['{"index": 1}']) as server:
            assert main(["llm", "check", "--llm", server.spec]) == 0
        shown = [r.getMessage() for r in caplog.records if all(f(r) for f in caplog.handler.filters)]
    finally:
        for handler, filters in before.items():
            handler.filters[:] = filters
    assert [line for line in shown if "HTTP Request" in line] == []
