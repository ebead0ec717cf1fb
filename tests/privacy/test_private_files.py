"""Every file the product writes is 0600 in a 0700 directory (companion/paths.py), whatever the umask; and what
is written keeps URLs without secret-looking query values (companion/urls.py)."""

from __future__ import annotations

import os
import stat

import pytest

from companion import paths
from companion.bridge.recorder import Recorder
from companion.llm.recording import Completion, Recorder as LLMRecorder
from companion.memory.store import normalize_url
from companion.urls import REDACTED, scrub_text, scrub_url


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def open_umask():
    old = os.umask(0o000)  # the worst case: nothing narrows what a file is created with
    yield
    os.umask(old)


def test_a_private_file_is_0600_in_new_0700_directories(tmp_path, open_umask):
    path = tmp_path / "a" / "b" / "file.jsonl"
    with paths.private_file(path, "a") as f:
        f.write("x\n")
    assert mode(path) == 0o600
    assert mode(tmp_path / "a") == 0o700 and mode(tmp_path / "a" / "b") == 0o700


def test_an_existing_world_readable_file_is_narrowed(tmp_path):
    path = tmp_path / "old.jsonl"
    path.write_text("old\n")
    os.chmod(path, 0o644)
    with paths.private_file(path, "a") as f:
        f.write("new\n")
    assert mode(path) == 0o600 and path.read_text() == "old\nnew\n"


def test_a_shared_existing_directory_is_left_alone(tmp_path):
    os.chmod(tmp_path, 0o755)
    paths.private_file(tmp_path / "f", "w").close()
    assert mode(tmp_path) == 0o755 and mode(tmp_path / "f") == 0o600


def test_the_product_directories_are_0700(tmp_path, monkeypatch, open_umask):
    monkeypatch.setenv("WEBCHALLENGER_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "data").mkdir(mode=0o777)
    assert mode(paths.data_dir()) == 0o700


def test_session_and_llm_recordings_are_private(tmp_path, open_umask):
    session = Recorder(tmp_path / "rec" / "session.jsonl")
    session.record("in", '{"type":"heartbeat","id":"1","sent_at":1}', "s1")
    session.close()
    calls = LLMRecorder(tmp_path / "llm" / "calls.jsonl")
    calls.append("k", "p", "1", [{"role": "user", "content": "hi"}], {}, Completion(text="{}"), "json_schema", 0.1)
    for path in (tmp_path / "rec" / "session.jsonl", tmp_path / "llm" / "calls.jsonl"):
        assert mode(path) == 0o600 and mode(path.parent) == 0o700


@pytest.mark.parametrize("url, secret", [
    ("https://shop.example/account?token=abc123&page=2", "abc123"),
    ("https://shop.example/cb?code=4/0AfJohXk&state=x#access_token=ya29.a0AfH6SM", "ya29.a0AfH6SM"),
    ("https://shop.example/p?sid=77&q=teapot", "sid=77"),
    ("https://shop.example/dl?id=9f8e7d6c5b4a39281706f5e4d3c2b1a0", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"),
    ("https://shop.example/x?X-Amz-Signature=0ab1c2", "0ab1c2"),
])
def test_secret_looking_query_values_are_scrubbed(url, secret):
    assert secret not in scrub_url(url) and REDACTED in scrub_url(url)
    assert secret not in normalize_url(url)


def test_ordinary_query_values_are_kept():
    url = "https://shop.example/search?q=glass+teapot&page=2&sort=price&slug=best-glass-teapot-2024-edition"
    assert scrub_url(url) == url


def test_a_relative_link_in_a_recorded_message_loses_its_token():
    raw = '{"attrs":{"href":"/reset?token=s3cr3t&lang=en"},"url":"http://127.0.0.1:8000/reset?token=s3cr3t&lang=en"}'
    assert "s3cr3t" not in scrub_text(raw) and "lang=en" in scrub_text(raw)


def test_a_url_that_does_not_parse_is_no_error_for_memory():
    assert normalize_url("http://x:y/?token=abc") == f"http://x:y/?token={REDACTED}"
