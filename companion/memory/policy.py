"""Per-site learning control: may the companion learn a site's pages while the user browses it?

allow  — learn it (passive learning stores its pages, templates, dropdowns and clicks);
block  — never learn it (nothing of it is stored while the user browses);
ask    — the default: ask the user first (the side panel offers allow/block for the current site).

The choices live in one small 0600 file in the data directory, `learning_policy.json`, written atomically
under a cross-process lock (storage.py), since `serve`, the side panel's requests and `webchallenger memory
allow|block|ask` may change it at once. Sites are keyed like memory files (store.site_key: host, and the
port when it is not the default), so `shop.example.com` and `https://shop.example.com/cart` are one site.

A damaged policy file is never overwritten: learning_policy() answers "ask" for every site (so nothing is
learned without the user's say), and set_learning_policy() raises MemoryFileError naming the file and the
copy kept of it.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from companion import paths
from companion.memory.storage import MemoryFileError, backup_copy, file_lock, holding, read_json_object, write_atomic
from companion.memory.store import site_key

log = logging.getLogger(__name__)

LearningPolicy = Literal["allow", "block", "ask"]
POLICIES: tuple[str, ...] = get_args(LearningPolicy)
DEFAULT_POLICY: LearningPolicy = "ask"
FILE_NAME = "learning_policy.json"


class LearningPolicies(BaseModel):
    """The file's content."""

    model_config = ConfigDict(extra="forbid")

    version: int = 1
    sites: dict[str, LearningPolicy] = Field(default_factory=dict, description="by site key; absent means ask")


def policy_path(directory: Path | None = None) -> Path:
    return (Path(directory) if directory is not None else paths.data_dir()) / FILE_NAME


def _damaged(path: Path):
    remedy = "Remove it to reset every site to 'ask'."

    def make(reason: str, raw: bytes | None) -> MemoryFileError:
        return MemoryFileError(path, reason, backup_copy(path, raw), remedy=remedy)

    return make


def read_policies(directory: Path | None = None) -> LearningPolicies:
    """Every site's explicit choice. Raises MemoryFileError when the file is damaged."""
    path = policy_path(directory)
    data = read_json_object(path, _damaged(path))
    if data is None:
        return LearningPolicies()
    try:
        return LearningPolicies.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "top level"
        raise _damaged(path)(f"not a learning policy file ({where}: {first.get('msg', 'invalid')})", None) from None


def learning_policy(host: str, directory: Path | None = None) -> LearningPolicy:
    """The choice for the site of `host` (a host, host:port, site key or any URL of the site). Never raises
    for a damaged file: it answers "ask" (and logs why)."""
    try:
        policies = read_policies(directory)
    except MemoryFileError as exc:
        log.warning("%s", exc)
        return DEFAULT_POLICY
    return policies.sites.get(site_key(host), DEFAULT_POLICY)


def set_learning_policy(host: str, policy: LearningPolicy, directory: Path | None = None) -> str:
    """Record the choice for the site of `host`; returns the site key it was recorded under."""
    if policy not in POLICIES:
        raise ValueError(f"learning policy must be one of {', '.join(POLICIES)}, not {policy!r}")
    key = site_key(host)
    if key == "unknown":
        raise ValueError(f"{host!r} names no site")
    path = policy_path(directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    with holding(file_lock(path), path):  # read-modify-write: another process's choice is not lost
        policies = read_policies(directory)
        policies.sites[key] = policy
        policies.sites = dict(sorted(policies.sites.items()))
        write_atomic(path, json.dumps(policies.model_dump(mode="json"), indent=1).encode("utf-8"))
    return key
