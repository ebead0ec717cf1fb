"""`bench serving` replays a recording's LLM calls as they met the server: in the order they started, the calls
whose recorded intervals overlapped (a step's concurrent candidate-filtering calls) sent together again."""

from __future__ import annotations

import json

from benchmarks.commands.serving import recorded_calls, waves


def _call(prompt: str, start: float, latency: float) -> dict:
    return {"key": prompt, "prompt": prompt, "messages": [{"role": "user", "content": prompt}],
            "params": {"max_tokens": 8, "schema": {}}, "time": start + latency, "latency_s": latency}


def test_calls_that_overlapped_are_one_wave_and_calls_that_followed_are_not(tmp_path):
    recording = tmp_path / "task.jsonl"
    lines = [{"meta": {"task": "t"}}, {"browser": {"call": "snapshot"}},
             _call("section_selection", 0.0, 5.0),
             _call("candidate_filtering_b", 5.02, 30.0),   # sent together with the next
             _call("candidate_filtering_a", 5.01, 28.0),   # (written in the order they ended)
             _call("action_selection", 35.03, 4.0)]        # started once both had ended
    recording.write_text("\n".join(json.dumps(line) for line in lines))

    calls = recorded_calls(recording)
    assert [c["prompt"] for c in calls] == ["section_selection", "candidate_filtering_a", "candidate_filtering_b",
                                            "action_selection"]
    assert [[c["prompt"] for c in wave] for wave in waves(calls)] == [
        ["section_selection"], ["candidate_filtering_a", "candidate_filtering_b"], ["action_selection"]]
    assert len(recorded_calls(recording, limit=2)) == 2
