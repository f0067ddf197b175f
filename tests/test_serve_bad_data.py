"""`mkdocs serve` with broken data keeps answering: the last good pages, with the problems shown.

A real server on a copy of the made-up project: break a data file, and every request still gets
an answer (a hang would time out), with a banner naming file:line:column: field; fix the file, and
the banner goes and the new content shows.
"""

from __future__ import annotations

import shutil
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

from bs4 import BeautifulSoup
from conftest import FIXTURE_DATA, ROOT, copy_project
from servekit import mkdocs_serve

BROKEN = ROOT / "tests" / "bad_inputs" / "bad_effect.yaml"
WHERE = "data/releases/9.2.yaml:35:13: items[1].effect"


def fetch(url: str) -> BeautifulSoup:
    # A request that waits for a build which cannot happen is the failure this test is about.
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200
        return BeautifulSoup(response.read().decode("utf-8"), "html.parser")


def wait_for(url: str, condition: Callable[[BeautifulSoup], bool], timeout: float = 60) -> BeautifulSoup:
    deadline = time.monotonic() + timeout
    while True:
        page = fetch(url)
        if condition(page) or time.monotonic() > deadline:
            return page
        time.sleep(0.3)


def banner(page: BeautifulSoup) -> str | None:
    found = page.select_one(".atlas-data-error")
    return found.get_text(" ", strip=True) if found else None


def test_broken_data_keeps_the_last_good_pages_with_the_problem_shown(tmp_path: Path) -> None:
    project = copy_project(tmp_path, FIXTURE_DATA)
    release = project / "data" / "releases" / "9.2.yaml"
    good = release.read_text(encoding="utf-8")
    with mkdocs_serve(project) as root:
        url = root + "releases/9.2.html"
        assert banner(fetch(url)) is None

        shutil.copyfile(BROKEN, release)
        page = wait_for(url, lambda page: banner(page) is not None)
        text = banner(page)
        assert text is not None and WHERE in text, text
        assert page.find(id="fast-path") is not None, "the last good content stays"
        assert banner(fetch(root + "index.html")) is not None, "every page shows the banner"
        assert WHERE in (project / "serve.log").read_text(), "and the terminal shows the problem"

        release.write_text(good.replace("A faster default path", "A fixed default path"), encoding="utf-8")
        page = wait_for(url, lambda page: banner(page) is None and "A fixed default path" in page.get_text())
        assert banner(page) is None
        assert "A fixed default path" in page.get_text()


def test_any_error_in_a_rebuild_shows_the_banner_and_keeps_answering(tmp_path: Path) -> None:
    # Not a data problem: a renderer that raises on data the checks accept (planted in the copy's
    # feed renderer, as a stand-in for any bug). MkDocs alone would hold every request until a
    # rebuild succeeds.
    project = copy_project(tmp_path, FIXTURE_DATA)
    feed = project / "macros" / "render" / "feed.py"
    code = feed.read_text(encoding="utf-8")
    planted = '    for release in reversed(catalog.releases):\n        if "Kaboom" in release.summary:\n'
    planted += '            raise RuntimeError("planted renderer bug")\n'
    feed.write_text(code.replace("    for release in reversed(catalog.releases):\n", planted, 1), encoding="utf-8")
    release = project / "data" / "releases" / "9.2.yaml"
    good = release.read_text(encoding="utf-8")
    with mkdocs_serve(project) as root:
        url = root + "releases/9.2.html"
        assert banner(fetch(url)) is None

        release.write_text(good.replace("The third made-up release.", "Kaboom release."), encoding="utf-8")
        page = wait_for(url, lambda page: banner(page) is not None)
        text = banner(page) or ""
        assert "The last rebuild failed" in text
        assert "macros/render/feed.py:" in text and "RuntimeError: planted renderer bug" in text, text
        assert "Kaboom" not in page.get_text(), "the last good data stays"
        assert banner(fetch(root + "index.html")) is not None, "every page answers, with the banner"
        assert "Traceback" in (project / "serve.log").read_text(), "the terminal has the whole traceback"

        release.write_text(good.replace("The third made-up release.", "The fixed release."), encoding="utf-8")
        page = wait_for(url, lambda page: banner(page) is None and "The fixed release." in page.get_text())
        assert banner(page) is None
        assert "The fixed release." in page.get_text()
