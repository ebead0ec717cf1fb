"""shared_schema/protocol.schema.json is generated from companion/protocol.py; the committed copy must match."""

import json
import subprocess
from pathlib import Path

from companion.protocol import json_schema

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = "shared_schema/protocol.schema.json"


def generated() -> str:
    # The exact bytes build.py writes.
    return json.dumps(json_schema(), indent=1, sort_keys=True) + "\n"


def committed() -> str:
    """The schema as committed in git (HEAD): build.py rewrites the work-tree copy before CI runs the
    tests, so only the committed blob can be stale. Outside a git checkout, the file on disk."""
    try:
        return subprocess.run(["git", "show", f"HEAD:{SCHEMA}"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return (ROOT / SCHEMA).read_text()


def test_committed_schema_matches_the_protocol_models():
    assert committed() == generated(), "shared_schema is stale: run `python3 build.py schema` and commit it"


def test_work_tree_schema_matches_the_protocol_models():
    assert (ROOT / SCHEMA).read_text() == generated(), "run `python3 build.py schema`"
