"""Prompts are files: prompts/<name>.j2, rendered with Jinja2 where an undefined variable is an error.

Each file starts with a comment header `{# version: N` followed by the documentation of its variables.
Every call is sent as two messages: the shared system message (prompts/_system.j2, identical for all calls)
and the rendered prompt. Templates put the task and history first and the call-specific part last, so the
server's prompt cache reuses the common prefix across the calls of one step.

Page text is untrusted: everything a web page wrote (or a model wrote about one) enters a prompt only through
untrusted(), the `page` filter, which puts it between <page-content nonce=N> markers with this task's nonce
and removes anything marker-like from the text first, so a page can neither close the block nor forge one;
a secret the task typed (typed_secrets) is masked in it in any spelling (the URL a GET login led to holds it).
The system message says what the markers mean. The nonce is per task (AgentContext.nonce, made current for the
task's calls by use_task_nonce); outside a task a per-process one is used.
"""

from __future__ import annotations

import contextvars
import os
import re
import secrets
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

import jinja2
from pydantic import BaseModel

from companion.typed_secrets import mask

PROMPTS_DIR = Path(__file__).resolve().parents[2] / "prompts"
SYSTEM_PROMPT = "_system"
_VERSION_RE = re.compile(r"^\{#-?\s*version:\s*([\w.\-]+)")


NONCE_HEX = 10  # 40 bits: a page has no way to learn it, and one guess per snapshot
_task_nonce: contextvars.ContextVar[str | None] = contextvars.ContextVar("page_content_nonce", default=None)
_PROCESS_NONCE = secrets.token_hex(NONCE_HEX // 2)
# Anything that looks like a page-content marker, in any case or spelling a page might try.
_MARKER_RE = re.compile(r"<\s*/?\s*page[-_]?content\b[^>\n]*>?|page[-_]content", re.I)
_NONCE_RE = re.compile(r"nonce=[0-9a-f]{%d}\b" % NONCE_HEX)


def new_nonce() -> str:
    return secrets.token_hex(NONCE_HEX // 2)


def use_task_nonce(nonce: str) -> None:
    """Make `nonce` the marker of every prompt rendered from here on in this asyncio task (and the tasks it
    starts). A task's context is its own copy: setting it leaks into no other task."""
    _task_nonce.set(nonce)


def current_nonce() -> str:
    return _task_nonce.get() or _PROCESS_NONCE


def untrusted(text, nonce: str | None = None) -> str:
    """`text` (page-derived) between this task's page-content markers, with every marker-like string and the
    nonce itself removed from it: the one way page text enters a prompt."""
    nonce = nonce or current_nonce()
    body = _MARKER_RE.sub("", mask(str(text)))  # a secret the task typed, as the next URL or the page echoes it
    body = re.sub(re.escape(nonce), "", body, flags=re.I).strip("\n")
    opening, closing = f"<page-content nonce={nonce}>", f"</page-content nonce={nonce}>"
    if "\n" not in body:
        return f"{opening}{body}{closing}"
    return f"\n{opening}\n{body}\n{closing}\n"  # a block stands apart: blank lines around it (render collapses extras)


def mask_nonce(text: str) -> str:
    """The text with every nonce replaced by a fixed one: what a recorded request is keyed by, so a replay
    (another task, another nonce) finds the recorded answers."""
    return _NONCE_RE.sub("nonce=" + "0" * NONCE_HEX, text)


class PromptError(ValueError):
    """A prompt that does not exist or cannot be rendered with the given variables."""


class RenderedPrompt(BaseModel):
    name: str
    version: str
    messages: list[dict[str, str]]


def prompts_dir() -> Path:
    return Path(os.environ.get("WEBCHALLENGER_PROMPTS_DIR") or PROMPTS_DIR)


def numbered(items, start: int = 0) -> str:
    """`[0] first\n[1] second`: the numbered-choice layout every choice prompt uses. A mapping gives each item its
    own number (a list with gaps: agent/decide.py)."""
    pairs = items.items() if isinstance(items, Mapping) else enumerate(items, start)
    return "\n".join(f"[{i}] {item}" for i, item in pairs)


@lru_cache(maxsize=8)
def _environment(directory: str) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(directory),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        autoescape=False,  # prompts are plain text, not HTML
    )
    env.filters["numbered"] = numbered
    env.filters["page"] = untrusted  # {% filter page %}...{% endfilter %} or {{ x | page }}
    return env


def available_prompts() -> list[str]:
    return sorted(p.stem for p in prompts_dir().glob("*.j2") if not p.stem.startswith("_"))


def prompt_version(name: str) -> str:
    path = prompts_dir() / f"{name}.j2"
    if not path.exists():
        raise PromptError(f"no prompt named {name!r} in {prompts_dir()}")
    match = _VERSION_RE.match(path.read_text())
    if not match:
        raise PromptError(f"prompt {name!r} has no `{{# version: N` header")
    return match.group(1)


def render_text(name: str, variables: dict) -> str:
    env = _environment(str(prompts_dir()))
    try:
        template = env.get_template(f"{name}.j2")
    except jinja2.TemplateNotFound as exc:
        raise PromptError(f"no prompt named {name!r} in {prompts_dir()}") from exc
    except jinja2.TemplateSyntaxError as exc:
        raise PromptError(f"prompt {name!r} line {exc.lineno}: {exc.message}") from exc
    try:
        text = template.render(**variables)
    except jinja2.UndefinedError as exc:
        raise PromptError(f"prompt {name!r}: {exc.message} (variables given: {sorted(variables)})") from exc
    # Collapse runs of blank lines left by optional blocks: fewer tokens, same meaning.
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def render(name: str, variables: dict) -> RenderedPrompt:
    version = prompt_version(name)
    system = render_text(SYSTEM_PROMPT, {"nonce": current_nonce()})
    user = render_text(name, variables)
    return RenderedPrompt(
        name=name,
        version=version,
        messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
    )
