"""The permalink guarantee: every published `page.html#anchor` stays published.

Reads a built site (plain HTML parsing, no MkDocs), lists each page and every anchor inside its
article, and compares the list with the committed manifest `tests/permalinks.txt`, the promise
to wiki authors. Entries are added by one command (`make permalinks`), never lost: a manifest
entry the site no longer publishes fails the tests, and so does a published anchor the manifest
does not list yet (the promise must cover everything a reader can link to).
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from macros import ROOT
from macros.dataset.safe_io import read_text, write_text

MANIFEST = ROOT / "tests" / "permalinks.txt"
#: Largest page or manifest read, in bytes (the largest page is under 2 MB).
MAX_PAGE_BYTES = 32 * 1024 * 1024
#: Built files that are not content pages.
SKIP = {"404.html"}


class _Anchors(HTMLParser):
    """Collects ids inside <article> (Material's own ids such as __code_0 are skipped)."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "article":
            self.depth += 1
        ident = dict(attrs).get("id")
        if self.depth and ident and not ident.startswith("__"):
            self.ids.append(ident)

    def handle_endtag(self, tag: str) -> None:
        if tag == "article" and self.depth:
            self.depth -= 1


def published(site: Path) -> set[str]:
    entries: set[str] = set()
    for page in sorted(site.rglob("*.html")):
        relative = page.relative_to(site).as_posix()
        if relative in SKIP or relative.startswith(("assets/", "search/")):
            continue
        parser = _Anchors()
        parser.feed(read_text(page, limit=MAX_PAGE_BYTES))
        entries.add(relative)
        entries.update(f"{relative}#{ident}" for ident in parser.ids)
    return entries


def read_manifest(path: Path = MANIFEST) -> set[str]:
    if not path.exists():
        return set()
    lines = read_text(path, limit=MAX_PAGE_BYTES).splitlines()
    return {line for line in lines if line and not line.startswith("#")}


def missing(site: Path, path: Path = MANIFEST) -> list[str]:
    return sorted(read_manifest(path) - published(site))


def unlisted(site: Path, path: Path = MANIFEST) -> list[str]:
    """Published pages and anchors the manifest does not list yet (`make permalinks` adds them)."""
    return sorted(published(site) - read_manifest(path))


def write_manifest(site: Path, path: Path = MANIFEST) -> tuple[int, list[str]]:
    """Add newly published entries; refuse when a published one disappeared."""
    lost = missing(site, path)
    if lost:
        return 0, lost
    before = read_manifest(path)
    entries = before | published(site)
    header = (
        "# Every published page and anchor. Entries are added by `make permalinks`, never removed:\n"
        "# wikis link to them. A renamed item keeps its old id in `aliases`.\n"
    )
    # Inside the project for the committed manifest; a test's own manifest elsewhere is its folder's.
    root = ROOT if path.resolve().is_relative_to(ROOT) else path.parent
    write_text(path, header + "\n".join(sorted(entries)) + "\n", root=root)
    return len(entries) - len(before), []
