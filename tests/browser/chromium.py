"""Plain helpers shared by the browser tests and the weight report: launch Debian's chromium
through Playwright, and serve a built site on 127.0.0.1. No pytest here."""

from __future__ import annotations

import functools
import gzip
import http.server
import io
import shutil
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


class ChromiumMissing(RuntimeError):
    pass


def launch(playwright):
    """Debian's chromium; Playwright's own browser download does not work on our machines."""
    executable = shutil.which("chromium")
    if executable is None:
        raise ChromiumMissing("chromium is not installed: `apt-get install chromium` (.ci/run does this)")
    return playwright.chromium.launch(executable_path=executable, args=LAUNCH_ARGS)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


#: What a static host (GitHub Pages) sends gzip-compressed.
COMPRESSIBLE = {".html", ".css", ".js", ".json", ".xml", ".svg", ".txt"}


class _HostedLikeHandler(_QuietHandler):
    """Text files gzip-compressed when the browser accepts it, as the static host serves them: what
    a visit really transfers."""

    def send_head(self):  # type: ignore[no-untyped-def]
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if not (path.is_file() and path.suffix in COMPRESSIBLE and "gzip" in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


class _ProjectSiteHandler(_QuietHandler):
    """As GitHub Pages serves a project site: under its path (`/atlas/`), and the site's own
    404.html, with status 404, for every address it does not have."""

    mount = "/"

    def send_head(self):  # type: ignore[no-untyped-def]
        path = urlsplit(self.path).path
        if not path.startswith(self.mount):
            return self._not_found()
        self.path = "/" + self.path[len(self.mount) :]
        local = Path(self.translate_path(self.path))
        if not (local.is_file() or (local.is_dir() and (local / "index.html").is_file())):
            return self._not_found()
        return super().send_head()

    def _not_found(self):  # type: ignore[no-untyped-def]
        body = (Path(self.directory) / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


class _Server(http.server.ThreadingHTTPServer):
    """A browser that leaves a page mid-download (a test closing it) breaks the connection: that is
    no error of the site, and its traceback would only bury the test report."""

    def handle_error(self, request, client_address) -> None:  # type: ignore[no-untyped-def]
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextmanager
def serve_directory(directory: Path, *, hosted_like: bool = False, mount: str | None = None) -> Iterator[str]:
    """Serve `directory` on a free port of 127.0.0.1; yields the base URL (ending in /).
    `hosted_like`: compress text as the static host does (for measuring what a visit transfers).
    `mount`: serve it under that path ("/atlas/") and answer any other address with its 404.html,
    as the host of a project site does; the URL yielded is then the site's own."""
    if mount is not None:
        mounted = type("Mounted", (_ProjectSiteHandler,), {"mount": mount})
        handler = functools.partial(mounted, directory=str(directory))
    else:
        handler = functools.partial(_HostedLikeHandler if hosted_like else _QuietHandler, directory=str(directory))
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{mount or '/'}"
    finally:
        server.shutdown()
        server.server_close()
