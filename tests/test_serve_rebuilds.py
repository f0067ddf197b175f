"""`mkdocs serve --dirty` (`make serve`): each save rebuilds once, only the pages it changed, and
the site it serves is, file for file, the one a clean build writes.

A real server on a copy of the made-up project. Two failures are guarded:
- a rebuild loop: every build reads data/, and the operating system's file events also report
  files being opened and read; a watcher that took those for changes would start the next build
  from the reads of the last one, for ever;
- a stale or half-restored site: a page skipped because it did not change must still be named
  right in every nav, keep its anchors for the link check and its entries in the search index.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from conftest import FIXTURE_DATA, copy_project
from servekit import mkdocs_serve

BUILT = re.compile(r"Documentation built in ([\d.]+) seconds")
REBUILDING = re.compile(r"Rebuilding (\d+) of (\d+) pages")
IN_PLACE = re.compile(r"Rebuilding (\d+) of \d+ pages, (\d+) more updated in place")
LIVE_RELOAD = re.compile(rb"<script>\s*var livereload = function.*?</script>(?=</body>)", re.DOTALL)


def builds(log: Path) -> list[float]:
    return [float(seconds) for seconds in BUILT.findall(log.read_text())]


def served(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read()


def wait_until_served(url: str, text: str) -> None:
    deadline = time.monotonic() + 60
    while text.encode() not in served_or_missing(url):
        assert time.monotonic() < deadline, f"{text!r} never showed on {url}"
        time.sleep(0.1)


def served_or_missing(url: str) -> bytes:
    """The body, or nothing while the file does not exist yet (a new file, before its rebuild)."""
    try:
        return served(url)
    except urllib.error.HTTPError as error:
        if error.code != 404:
            raise
        return b""


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def differences_from_a_clean_build(project: Path, root: str, out: Path) -> list[str]:
    """Build the project from scratch with the server's site_url; every file it writes must be
    served byte for byte (HTML less the live-reload script the server adds)."""
    clean_build(project, root, out)
    differences = []
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        relative = path.relative_to(out).as_posix()
        body = served(root + relative)
        if relative.endswith(".html"):
            body = LIVE_RELOAD.sub(b"", body)
        if body != path.read_bytes():
            differences.append(relative)
    return differences


def pages_differing(before: Path, after: Path) -> list[str]:
    """The HTML pages two clean builds write differently (or only one of them writes)."""
    paths = {p.relative_to(site).as_posix() for site in (before, after) for p in site.rglob("*.html")}
    return sorted(
        path
        for path in paths
        if not (before / path).is_file()
        or not (after / path).is_file()
        or (before / path).read_bytes() != (after / path).read_bytes()
    )


def clean_build(project: Path, root: str, out: Path) -> None:
    config = project / "clean.yml"
    text = (project / "mkdocs.yml").read_text(encoding="utf-8")
    config.write_text(re.sub(r"(?m)^site_url: .*$", f"site_url: {root}", text), encoding="utf-8")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(out)],
        cwd=project,
        check=True,
        capture_output=True,
    )


def test_one_saved_file_makes_one_rebuild_and_then_the_server_rests(tmp_path: Path) -> None:
    project = copy_project(tmp_path, FIXTURE_DATA)
    release = project / "data" / "releases" / "9.2.yaml"
    log = project / "serve.log"
    with mkdocs_serve(project) as root:
        assert len(builds(log)) == 1
        edit(release, "A faster default path", "A saved edit")
        wait_until_served(root + "releases/9.2.html", "A saved edit")
        # Long enough for several more builds, had the rebuild's own reads started one.
        time.sleep(max(3.0, 4 * max(builds(log))))
        assert len(builds(log)) == 2, log.read_text()
        assert log.read_text().count("Detected file changes") == 1


def test_a_rebuild_of_the_changed_pages_serves_what_a_clean_build_writes(tmp_path: Path) -> None:
    project = copy_project(tmp_path, FIXTURE_DATA)
    log = project / "serve.log"
    with mkdocs_serve(project) as root:
        clean_build(project, root, tmp_path / "clean0")
        # A release's summary: its page and the pages showing it change, the others do not. The
        # rebuild makes exactly the pages a clean build writes differently: no more (a page rebuilt
        # for nothing is time lost on every save), no fewer (the next check would fail).
        edit(project / "data" / "releases" / "9.1.yaml", "The second made-up release.", "The edited release.")
        wait_until_served(root + "releases/9.1.html", "The edited release.")
        rebuilt, total = map(int, REBUILDING.findall(log.read_text())[-1])
        assert differences_from_a_clean_build(project, root, tmp_path / "clean1") == []
        changed = pages_differing(tmp_path / "clean0", tmp_path / "clean1")
        assert 0 < rebuilt == len(changed) < total, (rebuilt, changed)

        # An item's summary shows only in its row, finished HTML: the guides that list it are not
        # built again, their last output gets the new row (incremental.py, "swapped in place").
        edit(project / "data" / "releases" / "9.2.yaml", "summary: Different kernels by default.", "summary: Kernels.")
        wait_until_served(root + "releases/9.2.html", "Kernels.")
        rebuilt, swapped = map(int, IN_PLACE.findall(log.read_text())[-1])
        assert differences_from_a_clean_build(project, root, tmp_path / "clean1b") == []
        changed = pages_differing(tmp_path / "clean1", tmp_path / "clean1b")
        guides = [path for path in changed if path.startswith("upgrade/") and path != "upgrade/index.html"]
        assert guides and swapped == len(guides) and rebuilt + swapped == len(changed), (rebuilt, swapped, changed)

        # An item's title: its release page and every guide that lists it.
        edit(project / "data" / "releases" / "9.2.yaml", "title: A faster default path", "title: A renamed path")
        wait_until_served(root + "releases/9.2.html", "A renamed path")
        assert differences_from_a_clean_build(project, root, tmp_path / "clean2") == []

        # A later release re-links a lifecycle: the guides that end before it are kept from the
        # last build (render/made_from.py) only when what they read of it did not change.
        # Here 9.2 deprecates what 9.1 changed: the guide from 9.0 to 9.1 now lists that change
        # under "Deprecations that became removals or breaks".
        later = project / "data" / "releases" / "9.2.yaml"
        text = later.read_text(encoding="utf-8")
        text = text.replace(
            "  - id: legacy-io-removed\n    kind: removal", "  - id: legacy-io-removed\n    kind: deprecation"
        )
        later.write_text(text.replace("follows: legacy-io-deprecated", "follows: silent-sum"), encoding="utf-8")
        wait_until_served(root + "api/v1/items.json", '"silent-sum",\n      "legacy-io-removed"')
        assert differences_from_a_clean_build(project, root, tmp_path / "clean3") == []

        # A hand-written page: its title is in every page's nav, so every page is rebuilt.
        edit(project / "docs" / "about.md", "# ", "# Edited: ")
        wait_until_served(root + "about.html", "Edited: ")
        assert len(REBUILDING.findall(log.read_text())) == 4, "the fifth build was a whole one"
        assert differences_from_a_clean_build(project, root, tmp_path / "clean4") == []

        # A new file among the theme overrides is copied into the site by the next build (`make
        # serve` does not watch the theme; a saved page starts the build): the theme's files are
        # listed once per server (hooks.py), not once per build, until the overrides change.
        (project / "overrides" / "atlas-added.txt").write_text("added while serving\n", encoding="utf-8")
        edit(project / "docs" / "about.md", "# Edited: ", "# Edited again: ")
        wait_until_served(root + "atlas-added.txt", "added while serving")
        assert differences_from_a_clean_build(project, root, tmp_path / "clean5") == []


def test_a_page_that_did_not_change_still_has_its_links_checked(tmp_path: Path) -> None:
    # linking.md calls no macros: a data edit leaves it as it was, and the rebuild skips it. Its
    # link into a release page must still be checked against that page as rebuilt.
    project = copy_project(tmp_path, FIXTURE_DATA)
    linking = project / "docs" / "linking.md"
    linking.write_text(linking.read_text() + "\nSee [the fast path](releases/9.2.md#fast-path).\n")
    log = project / "serve.log"
    with mkdocs_serve(project):
        edit(project / "data" / "releases" / "9.2.yaml", "id: fast-path", "id: fast-lane")
        deadline = time.monotonic() + 60
        while "Aborted with" not in log.read_text():
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        assert (
            "Doc file 'linking.md' contains a link 'releases/9.2.md#fast-path', "
            "but the doc 'releases/9.2.md' does not contain an anchor '#fast-path'"
        ) in log.read_text()
        assert REBUILDING.search(log.read_text()), "the failed build was an incremental one"


def test_builds_freeze_what_they_keep_and_leave_the_collector_as_they_found_it(tmp_path: Path) -> None:
    # The hook pauses Python's cycle collector while it loads and renders, then freezes what the
    # build keeps while MkDocs builds the pages. A server runs build after build in one process:
    # each build, good or failed, must leave the collector running and nothing frozen, or one
    # build's objects would never be collected.
    import gc

    import mkdocs.commands.build as mkdocs_build
    from mkdocs.config import load_config

    project = copy_project(tmp_path, FIXTURE_DATA)
    seen: list[tuple[bool, int]] = []
    build_page = mkdocs_build._build_page

    def watched_build_page(*args: object, **kwargs: object) -> None:
        seen.append((gc.isenabled(), gc.get_freeze_count()))
        build_page(*args, **kwargs)

    def build() -> None:
        mkdocs_build.build(load_config(str(project / "mkdocs.yml"), site_dir=str(tmp_path / "site")))

    mkdocs_build._build_page = watched_build_page
    try:
        build()
        assert seen and all(enabled and frozen > 0 for enabled, frozen in seen)
        assert gc.isenabled() and gc.get_freeze_count() == 0
        release = project / "data" / "releases" / "9.1.yaml"
        release.write_text(release.read_text(encoding="utf-8") + "\n  - [unclosed\n", encoding="utf-8")
        with pytest.raises(Exception, match="Aborted with a BuildError"):
            build()
        assert gc.isenabled() and gc.get_freeze_count() == 0
    finally:
        mkdocs_build._build_page = build_page
        gc.enable()
        gc.unfreeze()


def test_finished_html_is_swapped_only_where_each_old_block_is_found_once() -> None:
    from macros.incremental import swap_blocks

    page = "<main><div>row A</div><p>text</p><div>row B</div></main>"
    assert swap_blocks(page, {"<div>row A</div>": "<div>row A2</div>", "<div>row B</div>": ""}) == (
        "<main><div>row A2</div><p>text</p></main>"
    )
    assert swap_blocks(page, {}) == page
    # Not found, found twice, an empty block, overlapping blocks: the page is built the usual way.
    assert swap_blocks(page, {"<div>row C</div>": "x"}) is None
    assert swap_blocks(page + "<div>row A</div>", {"<div>row A</div>": "x"}) is None
    assert swap_blocks(page, {"": "x"}) is None
    assert swap_blocks(page, {"<div>row A</div><p>": "x", "<p>text</p>": "y"}) is None
