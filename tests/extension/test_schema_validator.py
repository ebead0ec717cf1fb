"""The extension's own JSON-Schema validator (extension/bg/schema.js), run in node against the generated
protocol schema: what the companion's pydantic models accept it accepts, and it names what is wrong."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.protocol import json_schema

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node") or shutil.which("nodejs")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

SCRIPT = """
import { SchemaValidator } from %(module)s;
const [schema, cases] = JSON.parse(await new Promise((resolve) => {
  let data = ""; process.stdin.on("data", (c) => (data += c)); process.stdin.on("end", () => resolve(data));
}));
const v = new SchemaValidator(schema);
console.log(JSON.stringify(cases.map((c) => v.validate(c))));
"""


def validate(*messages) -> list[str | None]:
    script = SCRIPT % {"module": json.dumps((ROOT / "extension" / "bg" / "schema.js").as_uri())}
    out = subprocess.run([NODE, "--input-type=module", "-e", script], input=json.dumps([json_schema(), list(messages)]),
                         capture_output=True, text=True, check=True, timeout=30)
    return json.loads(out.stdout)


def test_valid_commands_pass():
    assert validate(
        {"type": "snapshot", "id": "a"},
        {"type": "snapshot", "id": "a", "tab_id": None},
        {"type": "action", "id": "b", "tab_id": 3, "action": {"kind": "click", "target": {"frame": 0, "id": 7}}},
        {"type": "action", "id": "c", "action": {"kind": "press", "key": "Enter"}},
        {"type": "action", "id": "d", "action": {"kind": "select", "target": {"id": 2}, "label": "Blue"}},
        {"type": "heartbeat", "id": "e", "sent_at": 12.5},
        {"type": "list_tabs", "id": "f"},
    ) == [None] * 7


def test_a_snapshot_result_with_elements_passes():
    element = {"id": 1, "tag": "a", "attrs": {"href": "/x", "aria-label": "go"}, "box": {"x": 1, "y": 2, "w": 3, "h": 4},
               "visible": True, "interactive": True}
    message = {"type": "snapshot_result", "id": "r", "tab_id": 1, "snapshot": {
        "url": "http://127.0.0.1/", "title": "t", "viewport": {"width": 800, "height": 600}, "scroll": {},
        "frames": [{"frame": 0, "url": "http://127.0.0.1/", "elements": [element]}]}}
    assert validate(message) == [None]


@pytest.mark.parametrize("message, problem", [
    ({"type": "snapshot", "id": "a", "tab_id": "7"}, "tab_id: expected integer"),
    ({"type": "snapshot", "id": 5}, "id: expected string"),
    ({"type": "snapshot"}, "id: field required"),
    ({"type": "snapshot", "id": "a", "extra": 1}, "extra: unexpected field"),
    ({"type": "action", "id": "a", "action": {"kind": "fly"}}, "action.kind: unknown value"),
    ({"type": "action", "id": "a", "action": {"kind": "press", "key": "F5"}}, "action.key:"),
    ({"type": "action", "id": "a", "action": {"kind": "click", "target": {"id": 1.5}}}, "action.target.id: expected integer"),
    ({"type": "action", "id": "a", "action": {"kind": "click"}}, "action.target: field required"),
    ({"type": "teleport", "id": "a"}, "type: unknown value"),
    ({"type": "heartbeat", "id": "a", "sent_at": "now"}, "sent_at: expected number"),
])
def test_invalid_messages_are_named(message, problem):
    [error] = validate(message)
    assert error is not None and problem in error


def test_attrs_values_must_be_strings():
    message = {"type": "snapshot_result", "id": "r", "tab_id": 1, "snapshot": {
        "url": "u", "title": "t", "viewport": {"width": 1, "height": 1}, "scroll": {},
        "frames": [{"frame": 0, "url": "u", "elements": [{"id": 1, "tag": "a", "attrs": {"tabindex": 0}}]}]}}
    [error] = validate(message)
    assert "attrs.tabindex: expected string" in error
