"""`webchallenger llm check|fetch`: probe the configured LLM backend; fetch and hash-check an embedded model."""

from __future__ import annotations

import argparse
import asyncio
import sys

from companion.llm.config import LLMConfigError, add_llm_arguments, load_settings


def register(subparsers) -> None:
    parser = subparsers.add_parser("llm", help="check the LLM backend, fetch embedded models")
    sub = parser.add_subparsers(dest="llm_command", required=True)

    check = sub.add_parser("check", help="probe the backend: structured-output mode, model, context size, time of one choice")
    add_llm_arguments(check)
    check.set_defaults(func=run_check)

    fetch = sub.add_parser("fetch", help="install, join and hash-check an embedded model (default: the default model)")
    fetch.add_argument("spec", nargs="?", default=None, help="embedded[:name] or gguf:PATH (default: the configured spec)")
    fetch.set_defaults(func=run_fetch)


def run_fetch(args: argparse.Namespace) -> int:
    from companion.llm.model_files import EMBEDDED_MODELS, ModelError, ensure_model, xllamacpp_available

    try:
        settings = load_settings(args.spec)
    except LLMConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if settings.kind != "embedded":
        print(f"{settings.spec}: a server or replay backend, nothing to fetch")
        return 0
    if not xllamacpp_available():
        print("error: the xllamacpp package is missing: pip install xllamacpp", file=sys.stderr)
        return 1
    if settings.gguf_path:
        from pathlib import Path

        ok = Path(settings.gguf_path).is_file()
        print(f"{settings.gguf_path}: {'found' if ok else 'NOT FOUND'} (user files are not hash-checked)")
        return 0 if ok else 1
    model = EMBEDDED_MODELS[settings.model]
    try:
        path = ensure_model(settings.model, install=True, log=lambda m: print(m, flush=True))
    except ModelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"{model.name}: {path} ({model.size / 1e6:.0f} MB, sha256 {model.sha256} verified)")
    return 0


def run_check(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(_check(args))
    except LLMConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


async def _check(args: argparse.Namespace) -> int:
    from companion.llm import LLMError, use_llm_from_args
    from companion.llm.check import check_backend
    from companion.llm.model_files import ModelError

    client = use_llm_from_args(args)
    try:
        result = await check_backend(client)
    except (LLMError, ModelError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        await client.aclose()
    print(f"backend:      {result.backend} ({result.spec})")
    print(f"base url:     {result.base_url or '-'}")
    print(f"model:        {result.model or '-'}")
    print(f"context size: {result.n_ctx or 'unknown'}")
    print(f"ready in:     {result.ready_s:.2f} s")
    print(f"structured:   {result.mode}")
    print(f"one choice:   {result.choice_s:.2f} s ({result.prompt_tokens} prompt + {result.completion_tokens} generated tokens, "
          f"answer [{result.answer}], {result.attempts} attempt(s))")
    return 0
