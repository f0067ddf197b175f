"""Plain helpers shared by the browser tests and the weight report: launch Debian's chromium
through Playwright, and serve a built site on 127.0.0.1. No pytest here."""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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


@contextmanager
def serve_directory(directory: Path) -> Iterator[str]:
    """Serve `directory` on a free port of 127.0.0.1; yields the base URL (ending in /)."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
