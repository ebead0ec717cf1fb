"""Scripted answers for the observation prompts (rules of tests/support/scripted_server.py)."""

from __future__ import annotations

import json


def answer(**fields) -> str:
    return json.dumps(fields)


def observation_rules(purposes: dict[str, str] | None = None, *, selection: list[int] | None = None,
                      extractions: dict[str, str] | None = None, stop: list[bool] | None = None,
                      items: list[int] | None = None, summary: str = "The page shows what the task needs.") -> list[dict]:
    """Rules for one observation: `purposes` maps a regex over a section's content to its purpose,
    `extractions` a regex over the extraction prompt to its answer, `stop` the early-stop answers in order."""
    rules: list[dict] = [{"prompt": "section_summary", "pattern": "purpose is known",
                          "responses": [answer(summary="A region of the page.", state="Shows its usual content.")]}]
    for pattern, purpose in (purposes or {}).items():
        rules.append({"prompt": "section_summary", "pattern": pattern,
                      "responses": [answer(purpose=purpose, summary=f"{purpose} of the page.", state=f"{purpose} as loaded.")]})
    rules.append({"prompt": "section_summary",
                  "responses": [answer(purpose="Other region", summary="Some other content.", state="As loaded.")]})
    rules.append({"prompt": "page_summary", "responses": [answer(summary="A page of a small test site.")]})
    rules.append({"prompt": "section_selection", "responses": [answer(indices=selection or [0])]})
    for pattern, text in (extractions or {}).items():
        rules.append({"prompt": "detail_extraction", "pattern": pattern, "responses": [answer(details=text)]})
    rules.append({"prompt": "detail_extraction", "responses": [answer(details="Nothing relevant here.")]})
    rules.append({"prompt": "list_item_selection", "responses": [answer(indices=items if items is not None else [0])]})
    rules.append({"prompt": "list_early_stop",
                  "responses": [answer(reason="scripted", stop=s) for s in (stop or [False])]})
    rules.append({"prompt": "page_task_summary", "responses": [answer(summary=summary)]})
    return rules
