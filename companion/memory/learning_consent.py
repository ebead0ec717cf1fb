"""Per-site learning consent: may the companion learn a site's pages while the user browses it?

allow  — learn it (passive learning stores its pages, templates, dropdowns and clicks);
block  — never learn it (nothing of it is stored while the user browses);
ask    — the default: ask the user first (the side panel offers allow/block for the current site).

The choices live in one small 0600 file in the data directory, `learning_policy.json` (its name, and the
wire messages site_policy_get/set, kept from before this module was named for what it holds), written atomically
under a cross-process lock (storage.py), since `serve`, the side panel's requests and `webchallenger memory
allow|block|ask` may change it at once. Sites are keyed like memory files (store.site_key: host, and the
port when it is not the default), so `shop.example.com` and `https://shop.example.com/cart` are one site.

A damaged consent file is never overwritten: learning_consent() answers "ask" for every site (so nothing is
learned without the user's say), and set_learning_consent() raises MemoryFileError naming the file and the
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

ConsentChoice = Literal["allow", "block", "ask"]
CONSENT_CHOICES: tuple[str, ...] = get_args(ConsentChoice)
DEFAULT_CONSENT: ConsentChoice = "ask"
FILE_NAME = "learning_policy.json"


class LearningConsent(BaseModel):
    """The file's content."""

    model_config = ConfigDict(extra="forbid")

    version: int = 1
    sites: dict[str, ConsentChoice] = Field(default_factory=dict, description="by site key; absent means ask")


def consent_path(directory: Path | None = None) -> Path:
    return (Path(directory) if directory is not None else paths.data_dir()) / FILE_NAME


def _damaged(path: Path):
    remedy = "Remove it to reset every site to 'ask'."

    def make(reason: str, raw: bytes | None) -> MemoryFileError:
        return MemoryFileError(path, reason, backup_copy(path, raw), remedy=remedy)

    return make


def read_consent(directory: Path | None = None) -> LearningConsent:
    """Every site's explicit choice. Raises MemoryFileError when the file is damaged."""
    path = consent_path(directory)
    data = read_json_object(path, _damaged(path))
    if data is None:
        return LearningConsent()
    try:
        return LearningConsent.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "top level"
        raise _damaged(path)(f"not a learning policy file ({where}: {first.get('msg', 'invalid')})", None) from None


def learning_consent(host: str, directory: Path | None = None) -> ConsentChoice:
    """The choice for the site of `host` (a host, host:port, site key or any URL of the site). Never raises
    for a damaged file: it answers "ask" (and logs why)."""
    try:
        consent = read_consent(directory)
    except MemoryFileError as exc:
        log.warning("%s", exc)
        return DEFAULT_CONSENT
    return consent.sites.get(site_key(host), DEFAULT_CONSENT)


def set_learning_consent(host: str, choice: ConsentChoice, directory: Path | None = None) -> str:
    """Record the choice for the site of `host`; returns the site key it was recorded under."""
    if choice not in CONSENT_CHOICES:
        raise ValueError(f"learning policy must be one of {', '.join(CONSENT_CHOICES)}, not {choice!r}")
    key = site_key(host)
    if key == "unknown":
        raise ValueError(f"{host!r} names no site")
    path = consent_path(directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    with holding(file_lock(path), path):  # read-modify-write: another process's choice is not lost
        consent = read_consent(directory)
        consent.sites[key] = choice
        consent.sites = dict(sorted(consent.sites.items()))
        write_atomic(path, json.dumps(consent.model_dump(mode="json"), indent=1).encode("utf-8"))
    return key
