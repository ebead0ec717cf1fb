"""Task checkpoints as files: private, atomic, typed; a damaged or finished one is refused with the reason."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest

from companion.agent.checkpoint import (
    CheckpointError, TaskCheckpoint, TaskOptions, latest_checkpoint, load_checkpoint, task_checkpoint,
)
from companion.agent.history import StepRecord
from tests.support.run_cli import ROOT

STEP = StepRecord(step=1, page_name="Shop", url="http://127.0.0.1:1/shop", summary="Kettles are listed.",
                  reason="The kettles page has prices.", actions=['Clicked link "Kettles"'])


def saved(tmp_path, name: str, **fields) -> TaskCheckpoint:
    checkpoint = TaskCheckpoint.begin("find the price", "http://127.0.0.1:1/shop", TaskOptions(max_steps=7),
                                      task_id=name, directory=tmp_path / "tasks")
    for key, value in fields.items():
        setattr(checkpoint, key, value)
    checkpoint.save()
    return checkpoint


def test_a_checkpoint_round_trips_and_is_private(tmp_path):
    umask = os.umask(0o022)  # what a user's shell usually has: files would be 0644 by default
    try:
        checkpoint = saved(tmp_path, "t1", step=1, history=[STEP], url="http://127.0.0.1:1/kettles", status="failed")
    finally:
        os.umask(umask)
    loaded = load_checkpoint(checkpoint.path)
    assert loaded.history == [STEP] and loaded.step == 1 and loaded.options.max_steps == 7
    assert loaded.url == "http://127.0.0.1:1/kettles" and loaded.path == checkpoint.path
    assert stat.S_IMODE(checkpoint.path.stat().st_mode) == 0o600
    assert [p.name for p in checkpoint.path.parent.iterdir()] == ["t1.json"]  # no temporary file left behind


def test_secret_looking_url_values_never_reach_the_file(tmp_path):
    secret = "k8Jq2vXw9LmZ4tRb7YcN"
    step = STEP.model_copy(update={"url": f"http://127.0.0.1:1/account?session_token={secret}",
                                   "summary": f"Signed in at http://127.0.0.1:1/welcome?sid={secret} as Ann."})
    checkpoint = saved(tmp_path, "t2", step=1, history=[step], url=f"http://127.0.0.1:1/orders?token={secret}&page=2")
    text = checkpoint.path.read_text()
    assert secret not in text
    assert "page=2" in text and "as Ann." in text  # ordinary values are kept
    assert checkpoint.url.endswith(f"token={secret}&page=2")  # the running task keeps what it has


def test_the_newest_unfinished_checkpoint_is_the_one_resumed(tmp_path):
    older = saved(tmp_path, "older", status="failed")
    saved(tmp_path, "newer", status="failed")
    done = saved(tmp_path, "done", status="done")
    os.utime(older.path, (2e9, 2e9))  # touched last
    os.utime(done.path, (3e9, 3e9))
    assert latest_checkpoint(tmp_path / "tasks").task_id == "older"


@pytest.mark.parametrize("content, problem", [
    ("{not json", "not JSON"),
    (json.dumps({"version": 9, "task_id": "x", "task": "t"}), "version 9"),
    (json.dumps({"version": 1, "task_id": "../../etc", "task": "t"}), "task_id"),
    (json.dumps([1, 2]), "not a usable checkpoint"),
])
def test_a_damaged_checkpoint_is_refused_with_the_reason(tmp_path, content, problem):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(CheckpointError, match=problem):
        load_checkpoint(path)


def test_resuming_a_finished_task_is_refused_on_the_command_line(tmp_path):
    checkpoint = saved(tmp_path, "finished", status="done", answer="$24.50")
    result = subprocess.run([sys.executable, "-m", "companion", "run", "--resume", str(checkpoint.path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "that task is done (answer: $24.50)" in result.stderr


@pytest.mark.parametrize("task_id", ["../../etc/passwd", "/tmp/x", "a/b", "", "x" * 500])
def test_resume_by_task_id_reads_no_file_a_name_outside_the_pattern_points_at(task_id, tmp_path):
    """The side panel names the checkpoint to resume by its task id: anything that is not a task id is refused
    before a file is opened, so the panel cannot have the companion read another file."""
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "b.json").write_text("{}")
    with pytest.raises(CheckpointError, match="is not a task id"):
        task_checkpoint(task_id, tmp_path)
