"""`webchallenger bench tasks`: the command starts its own site and browsers, prints the table and writes JSON."""

from __future__ import annotations

import json
import stat

from companion.cli import main
from tests.support.bench_scripts import SUITE_FILE, count_orders


def test_the_command_runs_the_chosen_tasks_and_writes_every_figure(agent_llm, tmp_path, capsys):
    server = count_orders("Pending", agent_llm)
    out = tmp_path / "results" / "tasks.json"

    code = main(["bench", "tasks", str(SUITE_FILE), "--llm", server.spec, "--only", "orders-pending-count",
                 "--max-steps", "4", "--out", str(out)])

    printed = capsys.readouterr().out
    report = json.loads(out.read_text())
    assert code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert report["llm"] == server.spec and report["max_steps"] == 4 and report["memory_modes"] == ["none"]
    [run] = report["runs"]
    assert run["id"] == "orders-pending-count" and run["success"] is True and run["status"] == "done"
    assert run["calls"] == len(server.requests) and run["prompt_tokens"] > 0 and run["wall_s"] > 0
    assert report["summary"]["none"]["lookup"] == {"tasks": 1, "success": 1}
    assert report["summary"]["none"]["overall"] == {"tasks": 1, "success": 1}
    assert "ok   none    lookup orders-pending-count" in printed
    assert "\nnone           1/1       0/0       0/0       1/1" in printed  # lookups, changes, at log-in, overall
    # What each step cost, from the step events: the steps add up to the task's new (uncached) prompt tokens.
    assert run["new_prompt_tokens"] == run["prompt_tokens"] - run["cached_tokens"] > 0
    assert len(run["step_new_tokens"]) == len(run["step_wall_s"]) == run["steps"]
    assert sum(run["step_new_tokens"]) == run["new_prompt_tokens"] and all(w > 0 for w in run["step_wall_s"])
    assert report["summary"]["none"]["median_step_new_tokens"] > 0
    # Where the new tokens went, per prompt: the task's calls and tokens, split without remainder.
    assert sum(c for c, _ in run["by_prompt"].values()) == run["calls"]
    assert sum(n for _, n in run["by_prompt"].values()) == run["new_prompt_tokens"]
    assert "action_selection" in run["by_prompt"] and "new prompt tokens by prompt (calls): " in printed


def test_a_run_goes_on_from_its_result_file_without_running_finished_tasks_again(agent_llm, tmp_path, capsys):
    server = count_orders("Pending", agent_llm)
    out = tmp_path / "tasks.json"
    args = ["bench", "tasks", str(SUITE_FILE), "--llm", server.spec, "--only", "orders-pending-count",
            "--max-steps", "4", "--out", str(out)]
    assert main(args) == 0
    first = json.loads(out.read_text())
    calls = len(server.requests)

    assert main(args) == 0  # a second session of the same run

    report = json.loads(out.read_text())
    assert len(server.requests) == calls  # the finished task was not run again
    assert report == first  # nothing was run, so nothing was written
    assert f"every chosen task is already in {out}: nothing to run" in capsys.readouterr().out


def test_a_result_file_of_another_llm_is_not_appended_to(agent_llm, tmp_path, capsys):
    out = tmp_path / "tasks.json"
    earlier = json.dumps({"bench": "tasks", "llm": "openai:http://127.0.0.1:9/v1#other", "max_steps": 4, "runs": []})
    out.write_text(earlier)
    server = count_orders("Pending", agent_llm)

    code = main(["bench", "tasks", str(SUITE_FILE), "--llm", server.spec, "--only", "orders-pending-count",
                 "--max-steps", "4", "--out", str(out)])

    assert code == 2 and not server.requests
    err = capsys.readouterr().err
    assert "cannot go on from" in err and "it was run with llm 'openai:http://127.0.0.1:9/v1#other'" in err
    assert out.read_text() == earlier  # the other run's figures are left as they were


def test_an_unknown_task_name_is_refused_before_anything_starts(capsys):
    code = main(["bench", "tasks", str(SUITE_FILE), "--only", "no-such-task", "--llm", "openai:http://127.0.0.1:9/v1#x"])

    assert code == 2
    assert "no task named no-such-task in the suite" in capsys.readouterr().err
