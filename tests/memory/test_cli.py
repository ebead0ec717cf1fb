"""`webchallenger memory ls|show|rm` against the (test-isolated) data directory."""

from __future__ import annotations

from companion.cli import main
from companion.memory import WebsiteMemStore, list_sites
from companion.pagemem.divide import divide_page
from tests.pagemem.htmlsnap import snapshot_from_html


def test_ls_show_rm(capsys):
    pm = divide_page(snapshot_from_html('<html><body><nav><a href="/">Home</a></nav></body></html>',
                                        url="https://cli.example.org/start", title="Start"))
    with WebsiteMemStore("https://cli.example.org/") as store:
        store.save_page(pm)
        store.add_template(pm)
    assert main(["memory", "ls"]) == 0
    assert "cli.example.org" in capsys.readouterr().out
    assert main(["memory", "show", "https://cli.example.org/anything"]) == 0
    out = capsys.readouterr().out
    assert "https://cli.example.org/start" in out and "'Start'" in out and "1 templates" in out
    assert main(["memory", "rm", "cli.example.org"]) == 0
    assert "cli.example.org" not in {s for s, _ in list_sites()}
    assert main(["memory", "show", "cli.example.org"]) == 1


def test_show_of_a_corrupt_file_says_so_and_keeps_a_backup(capsys):
    from companion.memory.store import memory_dir

    path = memory_dir() / "broken.example.json"
    path.write_text("{ not json")
    assert main(["memory", "show", "broken.example"]) == 1
    err = capsys.readouterr().err
    assert "unreadable" in err and "copy was kept" in err
    assert any(p.name.startswith("broken.example.json.corrupt-") for p in memory_dir().iterdir())
    assert path.read_text() == "{ not json"
