"""MkDocs edge: `mkdocs serve --dirty` rebuilds only the pages that changed, and the site it
serves is still, file for file, the one a clean build writes.

MkDocs' dirty mode skips a page when `File.is_modified()` says so, which it answers from file
times: generated pages always count as modified, and a page it does skip is left unread, so the
nav names it by its file name, links into it fail the anchor check and search forgets it. Here:

- **What changed** is decided by fingerprints. One per page: a generated page's Markdown and
  finished HTML; a hand-written page that calls macros, their output. One for the whole site:
  the hand-written pages' text, every generated page's path and title (the nav), the footer's
  figures, the data-problem banner, mkdocs.yml, the theme overrides and the list of files. When
  the site's fingerprint changes, every page is rebuilt (into an emptied folder, so a page that
  went away leaves nothing behind).
- **A skipped page** gets back what MkDocs and the other pages read of it: title, metadata, table
  of contents, anchors, its own links (for the anchor check) and date, kept from the build that
  made it.
- **Search** keeps the skipped pages' entries, in page order, as a full build writes them.
- **Finished HTML swapped in place.** A page search does not index (a guide) whose Markdown did
  not change, only some of its finished HTML blocks (`render/markdown.py`: the rows, made as HTML
  by our templates), is not built again: its last output gets the new blocks where the old ones
  were. Converting a guide's Markdown and rendering it through the theme took about 0.15 s of CPU,
  and an item's summary sits in every guide into its release (15 at 16 releases). When an old
  block is not found exactly once, the page is rebuilt as usual.

Active only under `mkdocs serve --dirty` (`make serve`). A failed build forgets everything, so
the next one is full. tests/test_serve_rebuilds.py compares every file with a clean build.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from mkdocs import utils
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

log = logging.getLogger("mkdocs.hooks.atlas")


def fingerprint(*parts: object) -> str:
    """A digest of the parts' structure and text. Strings are hashed as they are: `repr` of the
    pages' text (about 20 MB for the real site) took most of a rebuild's fingerprinting time."""
    digest = hashlib.blake2b(digest_size=16)
    _feed(digest, parts)
    return digest.hexdigest()


def _feed(digest: Any, part: object) -> None:
    # Each part is tagged and length-prefixed, so ("ab", "c") and ("a", "bc") differ.
    if isinstance(part, str):
        data = part.encode("utf-8", "surrogatepass")
        digest.update(b"s%d:" % len(data))
        digest.update(data)
    elif isinstance(part, bytes):
        digest.update(b"b%d:" % len(part))
        digest.update(part)
    elif isinstance(part, (tuple, list)):
        digest.update(b"(%d:" % len(part))
        for element in part:
            _feed(digest, element)
    elif isinstance(part, Mapping):
        digest.update(b"{%d:" % len(part))
        for key, value in part.items():
            _feed(digest, key)
            _feed(digest, value)
    else:
        text = repr(part).encode("utf-8", "surrogatepass")
        digest.update(b"r%d:" % len(text))
        digest.update(text)


@dataclass
class _Kept:
    """What a built page leaves for the builds that skip it."""

    markdown: str
    meta: dict[str, Any]
    title_from_render: str | None
    toc: Any
    content: str | None
    present_anchor_ids: set[str] | None
    links_to_anchors: dict[str, dict[str, str]] | None  # target src_uri -> anchor -> link
    parts: Swappable | None = None  # what the page was made from, when it may be swapped in place


@dataclass(frozen=True)
class Swappable:
    """A page that may be updated in place: a print of its Markdown (front matter included) and
    the finished HTML blocks written into its content after conversion (marker -> HTML)."""

    markdown_print: str
    blocks: Mapping[str, str]


@dataclass(frozen=True)
class _Swap:
    """A page updated in place by this build: the file to write and what it keeps from now on."""

    path: Path
    output: str
    kept: _Kept


def swap_blocks(text: str, changes: Mapping[str, str]) -> str | None:
    """`text` with each old block (key) replaced by its new one, or None unless every old block
    occurs exactly once and no two overlap (the page is then built the usual way)."""
    spans: list[tuple[int, int, str]] = []
    for old, new in changes.items():
        start = text.find(old) if old else -1
        if start < 0 or text.find(old, start + 1) >= 0:
            return None
        spans.append((start, start + len(old), new))
    spans.sort()
    pieces, at = [], 0
    for start, end, new in spans:
        if start < at:
            return None
        pieces += [text[at:start], new]
        at = end
    pieces.append(text[at:])
    return "".join(pieces)


def _keep(page: Page, parts: Swappable | None) -> _Kept:
    links = page.links_to_anchors
    return _Kept(
        markdown=page.markdown or "",
        meta=dict(page.meta),
        title_from_render=page._title_from_render,
        toc=page.toc,
        content=page.content,
        present_anchor_ids=set(page.present_anchor_ids) if page.present_anchor_ids is not None else None,
        links_to_anchors={target.src_uri: dict(anchors) for target, anchors in links.items()} if links else None,
        parts=parts,
    )


def _restore(page: Page, kept: _Kept, files: Files) -> None:
    page.markdown = kept.markdown
    page.meta = dict(kept.meta)
    page._title_from_render = kept.title_from_render
    page.toc = kept.toc
    page.content = kept.content
    page.present_anchor_ids = set(kept.present_anchor_ids) if kept.present_anchor_ids is not None else None
    if kept.links_to_anchors is not None:
        page.links_to_anchors = {
            target: dict(anchors)
            for src_uri, anchors in kept.links_to_anchors.items()
            if (target := files.get_file_from_path(src_uri)) is not None
        }


class _DropDirtyWarning(logging.Filter):
    """MkDocs warns on every dirty build that navigation may be wrong; `--strict` would turn that
    warning into a failed build. Here the navigation is right (restored, and tested)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("A 'dirty' build is being performed")


@dataclass
class IncrementalServe:
    """The state one `mkdocs serve --dirty` process keeps between its builds."""

    active: bool = False
    site: str | None = None
    pages: dict[str, str] = field(default_factory=dict)  # src_uri -> fingerprint of the last good build
    kept: dict[str, _Kept] = field(default_factory=dict)
    search: list[dict[str, Any]] | None = None
    # This build's plan, committed by `finish` and dropped by `forget`.
    _planned: dict[str, str] = field(default_factory=dict)
    _rebuilt: set[str] = field(default_factory=set)
    _site_planned: str | None = None
    _parts: Mapping[str, Swappable] = field(default_factory=dict)
    _swaps: dict[str, _Swap] = field(default_factory=dict)
    _search_planned: list[dict[str, Any]] | None = None
    _page_urls: dict[str, str] = field(default_factory=dict)  # src_uri -> url, in build order

    def start(self, command: str, dirty: bool) -> None:
        """MkDocs starts a command (once per `mkdocs serve`, not per rebuild): start from nothing."""
        self.forget()
        self.active = command == "serve" and dirty
        if self.active:
            build_log = logging.getLogger("mkdocs.commands.build")
            if not any(isinstance(f, _DropDirtyWarning) for f in build_log.filters):
                build_log.addFilter(_DropDirtyWarning())

    def plan(
        self,
        files: Files,
        config: MkDocsConfig,
        site: str,
        generated: Mapping[str, str],
        macro_pages: Mapping[str, str],
        swappable: Mapping[str, Swappable] | None = None,
    ) -> None:
        """Mark each page modified or not. `generated`: src_uri -> fingerprint of each generated
        page; `macro_pages`: the same for hand-written pages that call macros; `site`: the rest;
        `swappable`: the pages that may be updated in place, and what they are made from."""
        if not self.active:
            return
        whole = site != self.site
        if whole:
            # A full rebuild into the folder dirty mode would not clean: nothing stale survives.
            utils.clean_directory(config.site_dir)
            self.pages.clear()
            self.kept.clear()
            self.search = None
        self._site_planned, self._planned, self._rebuilt = site, {}, set()
        self._parts, self._swaps = swappable or {}, {}
        for file in files.documentation_pages():
            page_print = generated.get(file.src_uri) or macro_pages.get(file.src_uri) or "in the site's print"
            self._planned[file.src_uri] = page_print
            modified = whole or self.pages.get(file.src_uri) != page_print or file.src_uri not in self.kept
            if modified and not whole and (swap := self._swap(file.src_uri, Path(config.site_dir) / file.dest_uri)):
                self._swaps[file.src_uri] = swap
                self.kept[file.src_uri] = swap.kept  # what restore_skipped gives the page
                modified = False
            if modified:
                self._rebuilt.add(file.src_uri)
            # Dirty mode asks each file; the answer for this build is decided here.
            file.is_modified = (lambda answer: lambda: answer)(modified)  # type: ignore[method-assign]
        if not whole:
            log.info(
                "Rebuilding %d of %d pages, %d more updated in place: the others did not change",
                len(self._rebuilt),
                len(self._planned),
                len(self._swaps),
            )

    def _swap(self, src_uri: str, output_path: Path) -> _Swap | None:
        """The page's last output with its changed finished HTML blocks swapped, when its
        Markdown is the last build's and each old block is found exactly once."""
        parts, kept = self._parts.get(src_uri), self.kept.get(src_uri)
        if parts is None or kept is None or kept.parts is None or kept.content is None:
            return None
        if kept.parts.markdown_print != parts.markdown_print or kept.parts.blocks.keys() != parts.blocks.keys():
            return None
        new_blocks = parts.blocks
        changes = {old: new_blocks[marker] for marker, old in kept.parts.blocks.items() if old != new_blocks[marker]}
        try:
            output = output_path.read_text(encoding="utf-8")
        except OSError:
            return None
        new_output, new_content = swap_blocks(output, changes), swap_blocks(kept.content, changes)
        if new_output is None or new_content is None:
            return None
        return _Swap(output_path, new_output, replace(kept, content=new_content, parts=parts))

    def restore_skipped(self, files: Files, update_date: str) -> None:
        """Give every page this build skipped what the last build that made it kept."""
        if not self.active:
            return
        self._page_urls = {file.src_uri: file.url for file in files.documentation_pages()}
        for file in files.documentation_pages():
            if file.src_uri not in self._rebuilt and file.page is not None:
                _restore(file.page, self.kept[file.src_uri], files)
                file.page.update_date = update_date

    def built(self, page: Page) -> None:
        if self.active:
            self.kept[page.file.src_uri] = _keep(page, self._parts.get(page.file.src_uri))

    def merge_search(self, config: MkDocsConfig) -> None:
        """Before the search plugin writes its index: this build's entries plus the skipped
        pages' from the last build, in page order (Material's own dirty merge assumes one page)."""
        if not self.active:
            return
        search = config.plugins.get("material/search")
        index = getattr(search, "search_index", None)
        if index is None:
            return
        url_of = self._page_urls
        order = {url: position for position, url in enumerate(url_of.values())}
        rebuilt_urls = {url_of[src] for src in self._rebuilt if src in url_of}
        kept = [entry for entry in self.search or [] if _page_url(entry) not in rebuilt_urls]
        entries = sorted(kept + list(index.entries), key=lambda entry: order.get(_page_url(entry), len(order)))
        index.entries = entries
        search.search_index_prev = None  # type: ignore[union-attr]
        self._search_planned = entries

    def finish(self) -> None:
        """The build wrote everything: its plan becomes what the next build compares with."""
        if self.active:
            for swap in self._swaps.values():
                utils.write_file(swap.output.encode("utf-8"), str(swap.path))
            self.site, self.pages, self.search = self._site_planned, self._planned, self._search_planned

    def forget(self) -> None:
        """A new command, or a failed build: the next build starts from nothing."""
        self.site, self.pages, self.kept, self.search = None, {}, {}, None
        self._parts, self._swaps = {}, {}


def _page_url(entry: Mapping[str, Any]) -> str:
    return str(entry.get("location", "")).split("#", 1)[0]


def tree_stamp(root: Path) -> tuple[tuple[str, int, int], ...]:
    """Every file under `root` by path, mtime and size (the theme overrides, for the site's print)."""
    if not root.is_dir():
        return ()
    files = sorted(path for path in root.rglob("*") if path.is_file())
    return tuple((str(path.relative_to(root)), (status := path.stat()).st_mtime_ns, status.st_size) for path in files)
