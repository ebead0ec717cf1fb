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


def test_check_against_a_web_server_that_is_not_an_llm_server_says_to_check_the_url(tmp_path, capsys):
    """A URL where a plain web server answers 404 is reported with what to do, not an empty or HTML body."""
    import http.server
    import threading
    from functools import partial

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(http.server.SimpleHTTPRequestHandler,
                                                                       directory=str(tmp_path)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}/wrong"
        assert main(["llm", "check", "--llm", f"openai:{url}"]) == 1
    finally:
        httpd.shutdown()
        httpd.server_close()
    err = capsys.readouterr().err
    assert f"LLM server {url} answered HTTP 404 (listing models); nothing answers at that path: check the URL" in err
    assert "<" not in err and "): " not in err


def test_a_product_command_loads_no_benchmark_code():
    """`webchallenger run|explore|memory …` build their command line without importing the benchmarks package
    (its stand-in model pulls in the action layer: about a second of start-up); `bench` and --help load it."""
    import subprocess
    import sys

    probe = ("import sys, companion.cli as c; c.build_parser({argv!r}); "
             "print(any(m == 'benchmarks' or m.startswith('benchmarks.') for m in sys.modules))")
    def loads_benchmarks(argv: list[str]) -> bool:
        out = subprocess.run([sys.executable, "-c", probe.format(argv=argv)], capture_output=True, text=True, check=True)
        return out.stdout.strip() == "True"

    assert not loads_benchmarks(["run", "a task"])
    assert not loads_benchmarks(["memory", "ls"])
    assert loads_benchmarks(["bench", "miniwob"])
