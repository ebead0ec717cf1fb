"""`webchallenger export SESSION.jsonl --format devtools-recorder`: a recorded task's browser actions as a
Chrome DevTools Recorder user flow (the JSON Chrome's Recorder panel imports and `@puppeteer/replay` runs), so
a person can replay or edit the task without this product.

Each recorded action keeps its target's selectors (companion/replay/selectors.py), so the flow needs no kept
pages: click and hover become `click`/`hover` steps at the middle of the element, typing and choosing an
option `change` steps with the field's final value, a key `keyDown`+`keyUp`, navigation (also back, forward,
reload, as the URL they reached) `navigate`; scrolling is left to the runner, which brings each target into
view. A click that loaded another page asserts that navigation, so the
runner waits for it. What a flow cannot express (a file upload, an element in a child frame) is left out and
named on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion import paths

FORMATS = ("devtools-recorder",)
# The browser's keys (puppeteer KeyInput) for the keys the agent presses.
KEYS = {"Space": " "}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("export", help="write a recorded task's browser actions in another tool's format",
                                   description="Export the browser actions of a session recorded with "
                                               "`webchallenger run --record FILE`.")
    parser.add_argument("session", type=Path, help="the recorded session file (JSONL)")
    parser.add_argument("--format", choices=FORMATS, default="devtools-recorder",
                        help="devtools-recorder: a Chrome DevTools Recorder / @puppeteer/replay user flow")
    parser.add_argument("-o", "--output", type=Path, metavar="FILE", help="write here (default: standard output)")
    parser.set_defaults(func=export)


def export(args: argparse.Namespace) -> int:
    from companion.replay.recorded import Exchange
    from companion.llm.recording import Replayer

    try:
        recording = Replayer(args.session)
        exchanges = [Exchange.model_validate(e) for e in recording.browser]
    except (FileNotFoundError, ValueError) as exc:
        print(f"webchallenger export: {exc}", file=sys.stderr)
        return 2
    if not exchanges:
        print(f"webchallenger export: {args.session} holds no browser requests (record the task with "
              "`webchallenger run --record FILE`)", file=sys.stderr)
        return 2
    task = (recording.meta.get("task") or {}).get("task") or args.session.stem
    flow, skipped = user_flow(task, exchanges)
    for reason in skipped:
        print(f"webchallenger export: {reason}", file=sys.stderr)
    text = json.dumps(flow, indent=2, ensure_ascii=False) + "\n"
    if args.output is None:
        sys.stdout.write(text)
    else:
        paths.private_dir(args.output.resolve().parent)
        with paths.private_file(args.output, "w") as fh:
            fh.write(text)
        print(f"wrote {args.output}: {len(flow['steps'])} steps", file=sys.stderr)
    return 0


def user_flow(title: str, exchanges) -> tuple[dict, list[str]]:
    """The user flow of these exchanges, and notes on it ("left out: ...", "check: ...")."""
    steps: list[dict] = []
    skipped: list[str] = []
    viewport_set = False
    pending_change: dict | None = None  # typing into the same field again updates its step

    for n, exchange in enumerate(exchanges):
        if exchange.call == "snapshot" and not viewport_set and exchange.viewport:
            width, height = exchange.viewport
            steps.insert(0, {"type": "setViewport", "width": width, "height": height,
                             "deviceScaleFactor": 1, "isMobile": False, "hasTouch": False, "isLandscape": False})
            viewport_set = True
        if exchange.call != "act" or exchange.error or not (exchange.reply or {}).get("ok", False):
            continue  # only what happened: a failed action did nothing a person needs to repeat
        action = exchange.request.get("action") or {}
        kind = action.get("kind")
        reply = exchange.reply or {}
        element = exchange.element
        target = action.get("target")
        if target and target.get("frame", 0) != 0:
            skipped.append(f"left out: step {exchange.step}: {kind} in a child frame")
            continue
        if target and (element is None or not element.get("selectors")):
            skipped.append(f"left out: step {exchange.step}: {kind} on an element with no selector the page proves")
            continue
        selectors = element["selectors"] if element else []
        if kind == "type" or kind == "clear":
            if action.get("text") == "[redacted]":
                skipped.append(f"left out: step {exchange.step}: typing into a password field (its text was never recorded)")
                continue
            value = "" if kind == "clear" else action["text"]
            if action.get("mode") == "append":
                before = pending_change["value"] if pending_change and pending_change["selectors"] == selectors \
                    else element.get("value", "")
                value = before + value
            if pending_change is not None and pending_change["selectors"] == selectors and steps[-1] is pending_change:
                pending_change["value"] = value
            else:
                pending_change = {"type": "change", "value": value, "selectors": selectors, "target": "main"}
                steps.append(pending_change)
            continue
        pending_change = None
        if kind == "click" or (kind == "check" and element.get("checked", False) != action.get("checked", True)):
            step = {"type": "click", "target": "main", "selectors": selectors,
                    "offsetX": element["offset"][0], "offsetY": element["offset"][1]}
            if reply.get("url_changed") and reply.get("url_after"):
                step["assertedEvents"] = [{"type": "navigation", "url": reply["url_after"]}]
            steps.append(step)
        elif kind == "check":
            continue  # already in the state asked for: the agent's click was not needed
        elif kind == "select":
            value = action.get("value") or _chosen_value(exchanges[n + 1:], target)
            if value is None:  # no kept page after it shows the option's value: its label is the best guess
                value = action.get("label")
                skipped.append(f"check: step {exchange.step}: the option's value is not recorded (no pages kept); "
                               f"the flow selects the value {value!r}, its label: check it")
            steps.append({"type": "change", "value": value, "selectors": selectors, "target": "main"})
        elif kind == "hover":
            steps.append({"type": "hover", "target": "main", "selectors": selectors})
        elif kind == "press":
            key = KEYS.get(action["key"], action["key"])
            focused = steps and steps[-1].get("type") == "change" and steps[-1]["selectors"] == selectors
            if target and not focused and element.get("tag") in ("input", "textarea"):  # the key goes to that field
                steps.append({"type": "click", "target": "main", "selectors": selectors,
                              "offsetX": element["offset"][0], "offsetY": element["offset"][1]})
            down = {"type": "keyDown", "target": "main", "key": key}
            if reply.get("url_changed") and reply.get("url_after"):  # the key goes down: Enter submits there
                down["assertedEvents"] = [{"type": "navigation", "url": reply["url_after"]}]
            steps += [down, {"type": "keyUp", "target": "main", "key": key}]
        elif kind in ("navigate", "back", "forward", "reload"):
            url = action.get("url") if kind == "navigate" else reply.get("url_after")
            if url:
                steps.append({"type": "navigate", "url": url,
                              "assertedEvents": [{"type": "navigation", "url": reply.get("url_after") or url}]})
        elif kind == "scroll":
            continue  # the runner scrolls each step's target into view itself
        else:
            skipped.append(f"left out: step {exchange.step}: {kind} (no user-flow step does it)")
    return {"title": title, "steps": steps}, skipped


def _chosen_value(later, target: dict) -> str | None:
    """The value a select holds on the next kept page of the same document (a label names an option; a flow's
    change step needs its value)."""
    for exchange in later:
        if exchange.call == "act" and (exchange.reply or {}).get("url_changed"):
            return None  # another document: its element ids mean other elements
        if exchange.call == "snapshot" and exchange.reply is not None:
            for frame in exchange.reply["snapshot"]["frames"]:
                if frame.get("frame", 0) == target.get("frame", 0):
                    found = next((e for e in frame["elements"] if e["id"] == target["id"]), None)
                    return found.get("value") if found is not None and found.get("tag") == "select" else None
            return None
    return None
