"""The native messaging host: Chrome starts it for one `chrome.runtime.sendNativeMessage` call, writes one
message to its stdin and reads one answer from its stdout (each a 32-bit native-order length, then UTF-8
JSON). Chrome passes the caller's origin as the first argument.

It answers only the origins it was installed for (install.py writes them into the launcher): Chrome already
refuses other extensions by the manifest's allowed_origins, and a host started by hand with another origin
gets a refusal, never the token. Nothing here listens on a port; it lives for one question.
"""

from __future__ import annotations

import argparse
import json
import os
import struct
import subprocess
import sys
import time
from typing import BinaryIO

from filelock import FileLock, Timeout
from pydantic import ValidationError

from companion.bridge.auth import EXTENSION_ORIGIN, TokenError, load_or_create_token
from companion.native.running import RunningCompanion, find_running, listening
from companion.paths import config_dir, data_dir, private_dir, private_file
from companion.protocol import NativePair, NativePairAnswer

HOST_NAME = "com.webchallenger.companion"
DEFAULT_PORT = 47611
# Chrome limits a message to the host at 4 GB and from it at 1 MB; ours are a few hundred bytes.
MAX_MESSAGE_BYTES = 64 * 1024
START_TIMEOUT_S = 45.0
LOG_FILE_NAME = "companion.log"
START_LOCK_NAME = "companion-start.lock"
EXIT_WITHOUT_BROWSER_S = 600.0  # a companion the host started ends 10 minutes after the last browser left


def read_message(stream: BinaryIO) -> bytes | None:
    header = stream.read(4)
    if len(header) < 4:
        return None
    (length,) = struct.unpack("=I", header)
    if length > MAX_MESSAGE_BYTES:
        raise ValueError(f"message of {length} bytes is larger than {MAX_MESSAGE_BYTES}")
    body = stream.read(length)
    if len(body) < length:
        return None
    return body


def write_message(stream: BinaryIO, answer: NativePairAnswer) -> None:
    body = answer.model_dump_json().encode("utf-8")
    stream.write(struct.pack("=I", len(body)) + body)
    stream.flush()


def _normal(origin: str) -> str:
    return origin.rstrip("/")


def start_companion(port: int, exit_without_browser_s: float = EXIT_WITHOUT_BROWSER_S) -> subprocess.Popen:
    """`webchallenger serve` in its own session (it outlives this host and the browser's process group),
    its output appended to a private log file in the data directory. It exits once no browser has been
    connected for `exit_without_browser_s`: nobody started it by hand, so nobody would stop it."""
    log = private_file(data_dir() / LOG_FILE_NAME, "ab", encoding=None)
    command = [sys.executable, "-m", "companion", "serve", "--port", str(port),
               "--exit-without-browser", f"{exit_without_browser_s:g}"]
    try:
        return subprocess.Popen(command,
                                stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True,
                                close_fds=True, env=os.environ.copy())
    finally:
        log.close()


def wait_running(process: subprocess.Popen, timeout: float = START_TIMEOUT_S) -> RunningCompanion | None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        running = find_running()
        if running is not None and running.pid == process.pid:
            return running
        if process.poll() is not None:
            return None
        time.sleep(0.2)
    return None


def answer(request: NativePair) -> NativePairAnswer:
    # Chrome may start several hosts at once (the worker's start-up and its alarm): one at a time decides
    # whether to start a companion, so the others find it announced instead of starting their own.
    lock = FileLock(str(private_dir(config_dir()) / START_LOCK_NAME), mode=0o600, timeout=START_TIMEOUT_S + 15)
    try:
        with lock:
            return _answer(request)
    except Timeout:
        return NativePairAnswer(error="another start of the companion is still under way; try again in a moment")


def _answer(request: NativePair) -> NativePairAnswer:
    running = find_running()
    started = False
    if running is None:
        if not request.start:
            return NativePairAnswer(error="the companion is not running (start it with `webchallenger serve`)")
        port = request.port or DEFAULT_PORT
        if listening(port, timeout=0.5):
            port = 0  # something else holds it: any free port (the answer says which)
        process = start_companion(port)
        running = wait_running(process)
        if running is None:
            return NativePairAnswer(error=f"could not start the companion; see {data_dir() / LOG_FILE_NAME}")
        started = True
    try:
        token = load_or_create_token()
    except TokenError as exc:
        return NativePairAnswer(error=str(exc))
    return NativePairAnswer(port=running.port, token=token, started=started)


def main(argv: list[str] | None = None, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> int:
    parser = argparse.ArgumentParser(prog="webchallenger-native-host", add_help=False)
    parser.add_argument("--allow-origin", action="append", default=[])
    parser.add_argument("origin", nargs="?", default="")
    args, _ = parser.parse_known_args(argv)  # Chrome on Windows adds --parent-window=N
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    allowed = {_normal(o) for o in [EXTENSION_ORIGIN, *args.allow_origin]}
    if _normal(args.origin) not in allowed:
        write_message(stdout, NativePairAnswer(error=f"origin {args.origin or '(none)'!r} may not use this host"))
        return 1
    try:
        raw = read_message(stdin)
        if raw is None:
            return 0  # Chrome closed the pipe
        request = NativePair.model_validate_json(raw)
    except (ValueError, ValidationError) as exc:
        write_message(stdout, NativePairAnswer(error=f"not a pairing request: {str(exc).splitlines()[0]}"))
        return 2
    write_message(stdout, answer(request))
    return 0


if __name__ == "__main__":
    sys.exit(main())
