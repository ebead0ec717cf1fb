"""Per-site learning control (companion/memory/learning_consent.py): allow, block or ask, default ask; one 0600 file."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.memory import MemoryFileError
from companion.memory.learning_consent import learning_consent, consent_path, read_consent, set_learning_consent

ROOT = Path(__file__).resolve().parents[2]


def test_a_site_nobody_chose_for_is_ask(tmp_path):
    assert learning_consent("shop.example.com", tmp_path) == "ask"
    assert not consent_path(tmp_path).exists()  # reading creates nothing


def test_a_choice_applies_to_every_url_of_the_site_and_only_to_it(tmp_path):
    assert set_learning_consent("https://Shop.Example.com/cart?x=1", "block", tmp_path) == "shop.example.com"
    assert learning_consent("shop.example.com", tmp_path) == "block"
    assert learning_consent("http://shop.example.com/other/page", tmp_path) == "block"
    assert learning_consent("https://shop.example.com:8443/", tmp_path) == "ask"  # another port, another site
    assert learning_consent("other.example.com", tmp_path) == "ask"


def test_a_later_choice_replaces_the_earlier_one(tmp_path):
    set_learning_consent("127.0.0.1:8000", "allow", tmp_path)
    set_learning_consent("http://127.0.0.1:8000/admin/", "block", tmp_path)
    assert read_consent(tmp_path).sites == {"127.0.0.1_8000": "block"}


def test_an_unknown_policy_or_an_empty_host_is_refused(tmp_path):
    with pytest.raises(ValueError, match="allow, block, ask"):
        set_learning_consent("shop.example.com", "sometimes", tmp_path)
    with pytest.raises(ValueError, match="names no site"):
        set_learning_consent("", "allow", tmp_path)
    assert not consent_path(tmp_path).exists()


def test_the_policy_file_and_its_lock_are_private_whatever_the_umask(tmp_path):
    old = os.umask(0)
    try:
        set_learning_consent("shop.example.com", "allow", tmp_path)
    finally:
        os.umask(old)
    for path in (consent_path(tmp_path), tmp_path / f".{consent_path(tmp_path).name}.lock"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


def test_a_damaged_policy_file_means_ask_and_is_never_overwritten(tmp_path):
    path = consent_path(tmp_path)
    path.write_text('{"version": 1, "sites": {"shop.example.com": "always"}}')
    before = path.read_bytes()
    assert learning_consent("shop.example.com", tmp_path) == "ask"
    with pytest.raises(MemoryFileError) as err:
        set_learning_consent("shop.example.com", "allow", tmp_path)
    assert path.read_bytes() == before
    assert err.value.backup is not None and err.value.backup.read_bytes() == before
    assert str(err.value.backup) in str(err.value) and "reset every site to 'ask'" in str(err.value)


SETTER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from companion.memory.learning_consent import set_learning_consent
    directory, name, go = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    print("ready", flush=True)
    while not go.exists():
        pass
    for i in range(60):
        set_learning_consent(f"{name}{i}.example", "allow" if i % 2 else "block", directory)
""")


def test_two_processes_setting_choices_at_once_lose_none(tmp_path):
    go = tmp_path / "go"
    procs = [subprocess.Popen([sys.executable, "-c", SETTER, str(tmp_path), name, str(go)], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
             for name in ("a", "b")]
    for p in procs:
        assert p.stdout.readline().strip() == b"ready"
    go.touch()
    results = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [err.decode()[-2000:] for _, err in results]
    sites = json.loads(consent_path(tmp_path).read_text())["sites"]
    assert sites == {f"{n}{i}.example": "allow" if i % 2 else "block" for n in "ab" for i in range(60)}
