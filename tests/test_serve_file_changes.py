"""`make serve` follows what happens to a data file: deleted, renamed, truncated, restored, saved
with the same size and time. Each leaves either the page of the current data, or the last good
page with the banner, or no page; never a stale page without a word, and the server keeps
answering. One real server on a copy of the made-up project goes through them in turn.
"""

from __future__ import annotations

import os
import urllib.error
import urllib.request
from pathlib import Path

from bs4 import BeautifulSoup
from conftest import FIXTURE_DATA, copy_project
from servekit import mkdocs_serve
from test_serve_bad_data import banner, fetch, wait_for


def status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def honest(page: BeautifulSoup, still: str) -> bool:
    """The page no longer shows `still`, or says with the banner that it shows the last good data."""
    return still not in page.get_text() or banner(page) is not None


def test_a_data_file_deleted_renamed_truncated_or_saved_in_place_is_followed(tmp_path: Path) -> None:
    project = copy_project(tmp_path, FIXTURE_DATA)
    release = project / "data" / "releases" / "9.2.yaml"
    good = release.read_bytes()
    with mkdocs_serve(project) as root:
        url = root + "releases/9.2.html"
        assert banner(fetch(url)) is None and "The third made-up release." in fetch(url).get_text()

        # A save of the same size that keeps the file's time is still a change.
        times = release.stat()
        changed = good.replace(b"The third made-up release.", b"The THIRD made-up release.")
        assert len(changed) == len(good)
        release.write_bytes(changed)
        os.utime(release, ns=(times.st_atime_ns, times.st_mtime_ns))
        page = wait_for(url, lambda page: "The THIRD made-up release." in page.get_text())
        assert "The THIRD made-up release." in page.get_text()

        # Truncated (an editor's save cut short): the last good page with the banner; restored:
        # the server still answers, with the page and no banner.
        for cut in (good[: len(good) // 2], b""):
            release.write_bytes(cut)
            page = wait_for(url, lambda page: banner(page) is not None)
            assert "9.2.yaml" in (banner(page) or ""), banner(page)
            release.write_bytes(good)
            page = wait_for(url, lambda page: banner(page) is None and "The third made-up release." in page.get_text())
            assert banner(page) is None and "The third made-up release." in page.get_text()

        # Renamed to a name the loader does not read: said, never silently dropped.
        moved = release.with_suffix(".yml")
        release.rename(moved)
        page = wait_for(url, lambda page: banner(page) is not None)
        assert "9.2.yml" in (banner(page) or ""), banner(page)
        moved.rename(release)
        page = wait_for(url, lambda page: banner(page) is None)
        assert banner(page) is None

        # Deleted, the newest release: its page goes (or says it is the last good data), and the
        # home page stops listing it as the newest.
        release.unlink()
        home = wait_for(root + "index.html", lambda page: honest(page, "9.2"))
        assert honest(home, "9.2"), home.get_text()[:500]
        assert status(url) == 404 or honest(fetch(url), "The third made-up release.")


def test_a_render_error_in_a_page_shows_the_banner_on_that_page(tmp_path: Path) -> None:
    # A bug in the release page's renderer (planted in the copy), not in the feed: the page it
    # stops keeps its last good content with the banner, and the server keeps answering.
    project = copy_project(tmp_path, FIXTURE_DATA)
    renderer = project / "macros" / "render" / "release.py"
    code = renderer.read_text(encoding="utf-8")
    head = "    release = catalog.release(version)\n"
    planted = head + '    if "Kaboom" in release.summary:\n        raise RuntimeError("planted page bug")\n'
    renderer.write_text(code.replace(head, planted, 1), encoding="utf-8")
    release = project / "data" / "releases" / "9.2.yaml"
    good = release.read_text(encoding="utf-8")
    with mkdocs_serve(project) as root:
        url = root + "releases/9.2.html"
        assert banner(fetch(url)) is None
        release.write_text(good.replace("The third made-up release.", "Kaboom release."), encoding="utf-8")
        page = wait_for(url, lambda page: banner(page) is not None)
        text = banner(page) or ""
        assert "The last rebuild failed" in text and "RuntimeError: planted page bug" in text, text
        assert "Kaboom" not in page.get_text() and "The third made-up release." in page.get_text()
        release.write_text(good, encoding="utf-8")
        page = wait_for(url, lambda page: banner(page) is None)
        assert banner(page) is None and "The third made-up release." in page.get_text()
