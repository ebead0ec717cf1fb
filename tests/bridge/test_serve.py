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


def _under_serve_logging(verbose: bool):
    """Root logging as a fresh `serve` process has it (no handler before ours), put back as it was afterwards."""
    import contextlib
    import logging

    from companion.commands.serve import configure_logging

    @contextlib.contextmanager
    def configured():
        root = logging.getLogger()
        handlers, level = list(root.handlers), root.level
        root.handlers.clear()
        try:
            configure_logging(verbose=verbose)
            yield
        finally:
            root.handlers[:] = handlers
            root.setLevel(level)
    return configured()


def test_serve_logs_no_line_per_llm_call_without_verbose(capsys):
    """Under `serve`'s logging (no -v) an LLM call's HTTP requests print nothing: one line per task, not per call."""
    import logging

    from tests.support.scripted_server import ScriptedLLMServer

    with _under_serve_logging(verbose=False):
        with ScriptedLLMServer(script=['{"index": 1}']) as server:
            assert main(["llm", "check", "--llm", server.spec]) == 0
        logging.getLogger("companion.agent.service").info("a task's line")
    shown = capsys.readouterr().err
    assert "a task's line" in shown
    assert "HTTP Request" not in shown


def test_serve_logs_each_llm_call_with_verbose(capsys):
    import logging

    from tests.support.scripted_server import ScriptedLLMServer

    with _under_serve_logging(verbose=True):
        with ScriptedLLMServer(script=['{"index": 1}']) as server:
            assert main(["llm", "check", "--llm", server.spec]) == 0
        logging.getLogger("companion.agent.service").info("a task's line")
    shown = capsys.readouterr().err
    assert "a task's line" in shown and "HTTP Request" in shown


def test_serve_leaves_logging_that_is_already_set_up_alone(caplog):
    """A test runner's (or an embedding program's) handlers keep every logger's INFO after `serve` ran."""
    import logging

    caplog.set_level(logging.INFO)
    assert main(["serve", "--port", "0", "--allow-origin", "http://evil.example"]) == 2
    logging.getLogger("companion.panel.llm_settings").info("still seen")
    assert "still seen" in caplog.text
