"""Static page servers on 127.0.0.1 for tests, benchmarks and `webchallenger snapshot FILE`.

Two servers over the same directory give two origins (127.0.0.1:A and 127.0.0.1:B), so a page
can embed a cross-origin iframe; `localhost:B` additionally makes it cross-site (its own process).
Gzipped pages (`*.html.gz`, as in the corpus) are sent with Content-Encoding: gzip, or
decompressed when `decompress=True`.
"""

from __future__ import annotations

import gzip
import io
import http.server
import logging
import mimetypes
import threading
import urllib.parse
from contextlib import ExitStack
from functools import partial
from pathlib import Path

from companion.bridge.localsites import stable_port

log = logging.getLogger(__name__)


class _Handler(http.server.SimpleHTTPRequestHandler):
    decompress = False

    def end_headers(self) -> None:
        # Tests reload the same URL after editing nothing; caching would only hide server-side mistakes.
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_file() and path.name.endswith(".gz"):
            return self._send_gzip(path)
        return super().send_head()

    def _send_gzip(self, path: Path):
        inner_type = mimetypes.guess_type(path.name[:-3])[0] or "application/octet-stream"
        body = path.read_bytes()
        if self.decompress:
            body = gzip.decompress(body)
        self.send_response(200)
        # No charset: the page's own <meta charset> decides, as it would on its original site.
        self.send_header("Content-Type", inner_type)
        if not self.decompress:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the stdlib's signature
        pass  # quiet: tests and the CLI print what matters themselves


class PageServer:
    """One threaded static server bound to 127.0.0.1 on a free port (or `port`)."""

    def __init__(self, root: str | Path, port: int = 0, decompress: bool = False):
        self.root = Path(root).resolve()
        handler = type("PageHandler", (_Handler,), {"decompress": decompress})
        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), partial(handler, directory=str(self.root)))
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(target=self._httpd.serve_forever, name=f"pages-{self.port}", daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, relative: str | Path = "", host: str = "127.0.0.1") -> str:
        """URL of a file under the root (a path relative to it, or an absolute path inside it)."""
        rel = Path(relative)
        if rel.is_absolute():
            rel = rel.resolve().relative_to(self.root)
        posix = rel.as_posix()
        return f"http://{host}:{self.port}/" + urllib.parse.quote("" if posix == "." else posix.lstrip("/"))

    def start(self) -> "PageServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> "PageServer":
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()


class PagePair:
    """Two servers over one directory: `main` for pages, `other` for cross-origin frames."""

    def __init__(self, root: str | Path, decompress: bool = False):
        self.main = PageServer(root, decompress=decompress)
        self.other = PageServer(root, decompress=decompress)
        self.root = self.main.root

    @property
    def base(self) -> str:
        return self.main.base

    @property
    def other_base(self) -> str:
        return self.other.base

    def url(self, relative: str | Path = "") -> str:
        return self.main.url(relative)

    def other_url(self, relative: str | Path = "", host: str = "127.0.0.1") -> str:
        return self.other.url(relative, host)

    def start(self) -> "PagePair":
        self.main.start()
        self.other.start()
        return self

    def stop(self) -> None:
        self.main.stop()
        self.other.stop()

    def __enter__(self) -> "PagePair":
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()


def serve_if_local_file(stack: ExitStack, target: str, decompress: bool = False, stable: bool = False) -> str | None:
    """When `target` is a local file, serve its folder on 127.0.0.1 for the life of `stack` and return the
    file's URL; None when `target` is not a file (a URL, say). Pages then load as they would from a site,
    with relative links, scripts and same-origin rules intact, which file:// does not give. `stable`: on the
    folder's own port (bridge/localsites.py), so its site memory is found again by the next command."""
    path = Path(target)
    if "://" in target or not path.is_file():
        return None
    folder = path.resolve().parent
    port = stable_port(folder) if stable else 0
    try:
        server = stack.enter_context(PageServer(folder, port=port, decompress=decompress))
    except OSError as exc:
        if not port:
            raise
        log.warning("127.0.0.1:%d, where %s is always served, is busy (%s): serving it on another port, so this "
                    "run neither reads nor adds to its site memory", port, folder, exc.strerror or exc)
        server = stack.enter_context(PageServer(folder, decompress=decompress))
    return server.url(path.name)


def missing_local_file(target: str) -> str | None:
    """Why `target` can be neither opened as a URL nor served as a file (None: it can be one of the two). A
    target without a scheme is meant as a file: one that is not there is said so before any browser starts."""
    if "://" in target or target.startswith(("about:", "data:")):
        return None
    path = Path(target).expanduser()
    if path.is_dir():
        return f"{target} is a folder: give an HTML file in it, or an http(s) URL"
    if not path.exists():
        return f"no such file: {target} (give an existing HTML file, or an http(s) URL such as https://example.com)"
    return None
