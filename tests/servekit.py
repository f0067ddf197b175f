"""`mkdocs serve` on a copy of the project, up and answering: shared by the browser tests
(tests/browser/browserkit.py) and the benchmark (tests/perf/bench.py)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class ServeFailed(RuntimeError):
    """`mkdocs serve` exited or did not answer; the message ends with its log."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def mkdocs_serve(project: Path, timeout: float = 120) -> Iterator[str]:
    """Run `mkdocs serve --strict --dirty` in `project`, as `make serve` does (log in serve.log);
    yield the site's root URL."""
    port = free_port()
    log = project / "serve.log"
    with log.open("w") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "--strict", "--dirty", "-a", f"127.0.0.1:{port}"],
            cwd=project,
            stdout=output,
            stderr=subprocess.STDOUT,
            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        )
    try:
        # `/` redirects to the mount point taken from site_url's path.
        yield _wait_until_up(f"http://127.0.0.1:{port}/", process, log, timeout)
    finally:
        process.terminate()
        process.wait(timeout=30)


def _wait_until_up(url: str, process: subprocess.Popen, log: Path, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ServeFailed(f"mkdocs serve exited with {process.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.geturl()
        except OSError:
            time.sleep(0.25)
    raise ServeFailed(f"mkdocs serve did not answer within {timeout} s:\n{log.read_text()}")
