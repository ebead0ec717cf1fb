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
