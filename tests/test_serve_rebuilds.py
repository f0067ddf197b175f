"""`mkdocs serve` rebuilds once per saved file, and then rests.

A real server on a copy of the made-up project. Every build reads data/, and the operating
system's file events also report files being opened and read: a watcher that took those for
changes would start the next build from the reads of the last one, for ever.
"""

from __future__ import annotations

import re
import time
import urllib.request
from pathlib import Path

from conftest import FIXTURE_DATA, copy_project
from servekit import mkdocs_serve

BUILT = re.compile(r"Documentation built in ([\d.]+) seconds")


def builds(log: Path) -> list[float]:
    return [float(seconds) for seconds in BUILT.findall(log.read_text())]


def page_text(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read().decode("utf-8")


def test_one_saved_file_makes_one_rebuild_and_then_the_server_rests(tmp_path: Path) -> None:
    project = copy_project(tmp_path, FIXTURE_DATA)
    release = project / "data" / "releases" / "9.2.yaml"
    log = project / "serve.log"
    with mkdocs_serve(project) as root:
        assert len(builds(log)) == 1
        release.write_text(release.read_text(encoding="utf-8").replace("A faster default path", "A saved edit"))
        deadline = time.monotonic() + 60
        while "A saved edit" not in page_text(root + "releases/9.2.html"):
            assert time.monotonic() < deadline, "the edit never showed"
            time.sleep(0.1)
        # Long enough for several more builds, had the rebuild's own reads started one.
        time.sleep(max(3.0, 4 * max(builds(log))))
        assert len(builds(log)) == 2, log.read_text()
        assert log.read_text().count("Detected file changes") == 1
