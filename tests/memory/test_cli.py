"""`webchallenger memory ls|show|rm|allow|block|ask`, run as the installed command on a temporary data dir."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.memory import WebsiteMemStore
from companion.memory.learning_consent import learning_consent
from companion.memory.records import DropdownRecord, RevealedElement
from companion.pagemem.divide import divide_page
from companion.pagemem.model import Bookmark
from tests.support.memcli import cli, cli_json
from tests.support.htmlsnap import snapshot_from_html

SITE = "cli.example.org"
ITEMS = "".join(f'<li><a href="/p/{i}">Product {i}</a> <span>{i}.00 EUR</span></li>' for i in range(6))
LIST_PAGE = f'<html><body><nav><a href="/">Home</a><button>Sort</button></nav><ul>{ITEMS}</ul></body></html>'


@pytest.fixture
def data(tmp_path) -> Path:
    """A data dir whose memory knows one site: two pages, a template, a dropdown and a bookmark."""
    data = tmp_path / "data"
    with WebsiteMemStore(SITE, data / "memory") as store:
        listing = divide_page(snapshot_from_html(LIST_PAGE, url=f"https://{SITE}/products", title="Products"))
        store.save_page(listing)
        store.add_template(listing)
        store.save_page(divide_page(snapshot_from_html('<html><body><a href="/">Home</a></body></html>',
                                                       url=f"https://{SITE}/about", title="About")))
        store.save_dropdown(DropdownRecord(trigger_key="sort-button", url=f"https://{SITE}/products", role="button",
                                           name="Sort", elements=[RevealedElement(key="k1", role="menuitem", name="Price"),
                                                                  RevealedElement(key="k2", role="menuitem", name="Name")]))
        store.add_bookmark(Bookmark(url=f"https://{SITE}/products", title="Products"))
    return data


def test_ls_with_no_memory_says_so(tmp_path):
    out = cli(tmp_path / "data", "memory", "ls")
    assert out.returncode == 0 and out.stdout.strip() == "no site memory yet"


def test_ls_shows_pages_templates_dropdowns_bookmarks_and_policy_per_site(data):
    out = cli(data, "memory", "ls")
    assert out.returncode == 0, out.stderr
    header, row = out.stdout.splitlines()
    assert header.split() == ["SITE", "PAGES", "TEMPLATES", "DROPDOWNS", "BOOKMARKS", "LEARNING"]
    assert row.split() == [SITE, "2", "1", "1", "1", "ask", "(default)"]


def test_ls_json_is_one_typed_object_per_site(data):
    [row] = cli_json(data, "memory", "ls")
    assert {k: row[k] for k in ("site", "pages", "templates", "dropdowns", "bookmarks", "learning",
                                "learning_is_default", "error")} == {
        "site": SITE, "pages": 2, "templates": 1, "dropdowns": 1, "bookmarks": 1, "learning": "ask",
        "learning_is_default": True, "error": None}
    assert row["file"] == str(data / "memory" / f"{SITE}.json")


def test_ls_lists_a_site_that_only_has_a_learning_choice(data):
    assert cli(data, "memory", "block", "https://blocked.example.net/").returncode == 0
    rows = {r["site"]: r for r in cli_json(data, "memory", "ls")}
    assert rows["blocked.example.net"]["learning"] == "block" and rows["blocked.example.net"]["file"] is None
    assert rows["blocked.example.net"]["pages"] == 0


def test_show_lists_what_was_learned(data):
    out = cli(data, "memory", "show", f"https://{SITE}/anything")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert f"site {SITE}: learning ask (default)" in text
    assert f"page https://{SITE}/products  'Products'" in text and f"page https://{SITE}/about  'About'" in text
    assert "template " in text and f"e.g. https://{SITE}/products" in text
    assert "dropdown button 'Sort'" in text and "'Price', 'Name'" in text
    assert f"bookmark https://{SITE}/products  'Products'" in text


def test_show_json_prints_pages_templates_dropdowns_and_bookmarks(data):
    view = cli_json(data, "memory", "show", SITE)
    assert view["site"] == SITE and view["learning"] == "ask"
    assert [p["url"] for p in view["pages"]] == [f"https://{SITE}/about", f"https://{SITE}/products"]
    assert view["pages"][1]["sections"]  # whole PageMems
    assert [t["example_url"] for t in view["templates"]] == [f"https://{SITE}/products"]
    assert [(d["name"], [e["name"] for e in d["elements"]]) for d in view["dropdowns"]] == [("Sort", ["Price", "Name"])]
    assert [b["url"] for b in view["bookmarks"]] == [f"https://{SITE}/products"]


def test_show_of_a_site_without_memory_fails_clearly(data):
    out = cli(data, "memory", "show", "nothing.example")
    assert out.returncode == 1 and out.stderr.strip() == "no memory for nothing.example"


def test_rm_deletes_the_sites_memory_and_keeps_its_learning_choice(data):
    assert cli(data, "memory", "allow", SITE).returncode == 0
    out = cli(data, "memory", "rm", SITE)
    assert out.returncode == 0 and out.stdout.strip() == f"removed memory of {SITE} (learning stays 'allow')"
    assert not (data / "memory" / f"{SITE}.json").exists()
    assert cli(data, "memory", "show", SITE).returncode == 1
    assert learning_consent(SITE, data) == "allow"


def test_rm_of_an_unknown_site_fails_clearly(data):
    out = cli(data, "memory", "rm", "nothing.example")
    assert out.returncode == 1 and "no memory for nothing.example" in out.stderr


def test_rm_page_deletes_only_that_page(data):
    out = cli(data, "memory", "rm", SITE, "--page", f"https://{SITE}/about")
    assert out.returncode == 0, out.stderr
    assert [p["url"] for p in cli_json(data, "memory", "show", SITE)["pages"]] == [f"https://{SITE}/products"]
    again = cli(data, "memory", "rm", SITE, "--page", f"https://{SITE}/about")
    assert again.returncode == 1 and "no page" in again.stderr


@pytest.mark.parametrize("policy", ["allow", "block", "ask"])
def test_allow_block_ask_set_the_learning_policy(data, policy):
    out = cli(data, "memory", policy, f"https://{SITE}/x")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"learning on {SITE}: {policy}")
    assert learning_consent(SITE, data) == policy
    [row] = cli_json(data, "memory", "ls")
    assert row["learning"] == policy and row["learning_is_default"] is False
    assert json.loads((data / "learning_policy.json").read_text())["sites"] == {SITE: policy}


def test_a_changed_policy_says_what_it_was(data):
    cli(data, "memory", "block", SITE)
    assert cli(data, "memory", "allow", SITE).stdout.strip() == f"learning on {SITE}: allow (was block)"


def test_a_policy_for_no_host_is_refused(data):
    out = cli(data, "memory", "allow", "")
    assert out.returncode == 1 and "names no site" in out.stderr
    assert not (data / "learning_policy.json").exists()


def test_a_damaged_policy_file_is_reported_by_ls_and_kept(data):
    path = data / "learning_policy.json"
    path.write_text("[]")
    out = cli(data, "memory", "ls")
    assert out.returncode == 0 and "unreadable" in out.stderr and "treated as 'ask'" in out.stderr
    assert out.stdout.splitlines()[1].split()[-2:] == ["ask", "(default)"]
    refused = cli(data, "memory", "allow", SITE)
    assert refused.returncode == 1 and "a copy was kept" in refused.stderr
    assert path.read_text() == "[]"


def test_show_prints_the_summaries_the_memory_holds(tmp_path):
    """`memory show` prints a page's summary and each section's purpose and summary, not only counts."""
    data = tmp_path / "data"
    page = divide_page(snapshot_from_html(LIST_PAGE, url=f"https://{SITE}/products", title="Products"))
    page.summary = "A list of six products with their prices."
    page.sections[0].purpose = "site navigation"
    page.sections[0].summary = "Links home and a Sort button."
    with WebsiteMemStore(SITE, data / "memory") as store:
        store.save_page(page)
    out = cli(data, "memory", "show", SITE)
    assert out.returncode == 0, out.stderr
    assert "      A list of six products with their prices." in out.stdout
    assert f"      {page.sections[0].id} ({page.sections[0].kind}): site navigation — Links home and a Sort button." in out.stdout
    assert "1 pages" in out.stdout  # the counts stay


def test_show_json_into_a_closed_pipe_ends_quietly(data):
    """`memory show --json | head -1` ends without a BrokenPipeError traceback, with the status of a closed pipe."""
    import os
    import subprocess

    from tests.support.memcli import ROOT, WEBCHALLENGER

    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before anything is written, as `head` may be: no timing involved
    try:
        out = subprocess.run([str(WEBCHALLENGER), "memory", "show", SITE, "--json"], cwd=ROOT, stdout=write_end,
                             stderr=subprocess.PIPE, text=True, timeout=120,
                             env={**os.environ, "WEBCHALLENGER_DATA_DIR": str(data)})
    finally:
        os.close(write_end)
    assert "Traceback" not in out.stderr and "BrokenPipeError" not in out.stderr, out.stderr
    assert out.returncode == 141
