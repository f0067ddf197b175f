"""Queries: the site's page types and THE one way to link one page to another.

`PAGE_TYPES` is the registry of page TYPES (a release page, a guide, the about page...): where
its pages live (`pattern`, relative to docs/), whether the hook generates them from the data or
docs/ holds them by hand, where the nav lists them, whether search indexes them, the weight
budget of their HTML, and the page the tests visit for the type. The nav (`site_nav`, read by
the hook and by `materialize`), the generated pages' front matter (`render/pages.py`), the
weight report (`tests/browser/weight.py`) and the tests' page lists all read it.

`Links(page)` builds every link from `page` to another: a Markdown link (`.md`, which MkDocs
checks and rewrites) or, inside finished HTML, which MkDocs never sees, a link to the built
`.html` page. Queries return `Target`s (where a link goes), renderers and templates turn them
into links; no path of a page is spelled anywhere else.

Lives in `query/` so that queries (the comparison tables' cells) and every renderer can use it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

KB = 1024

#: What any page may transfer on a first visit (compressed as the host sends it; the search index
#: grows with every release: 666 KB raw, 12 releases), and any one response of it.
FIRST_VISIT_BUDGET = 500 * KB
ASSET_BUDGET = 300 * KB


@dataclass(frozen=True)
class PageType:
    name: str
    #: Path of its pages relative to docs/: `{field}`s are filled per page ("releases/{version}.md").
    pattern: str
    #: Made by the hook from the data (`render/pages.py` lists them) or written by hand under docs/.
    generated: bool
    #: Its nav entry's title, for a one-of-a-kind page (inside its `section` when it has one);
    #: None: not an entry of its own.
    nav: str | None = None
    #: When the entry is a section (the types that name this one as `section` are listed in it):
    #: the title of this page's own entry inside the section ("All releases").
    heads: str | None = None
    #: The type whose nav section lists this type's pages (each under its own title). A type with
    #: neither `nav` nor `section` is reached by links only (`not_in_nav`).
    section: str | None = None
    #: Guides repeat items whose permanent home is a release page; indexing them would crowd every
    #: search with duplicates and more than quadruple the index each first visit downloads.
    searchable: bool = True
    #: The HTML of its heaviest page as a file (what the browser parses), when budgeted.
    html_budget: int | None = None
    #: The fields of the page the tests visit for this type (a real page of the data).
    sample: tuple[tuple[str, str], ...] = ()

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(re.findall(r"\{(\w+)\}", self.pattern))

    def path(self, **fields: str) -> str:
        """The page's path relative to docs/ (`releases/2.12.md`)."""
        if set(fields) != set(self.fields):
            raise KeyError(f"page type {self.name!r} takes {self.fields}, not {tuple(fields)}")
        return self.pattern.format(**fields)

    @property
    def sample_path(self) -> str:
        return self.path(**dict(self.sample))

    def matches(self, path: str) -> bool:
        """Whether `path` (relative to docs/, `.md`) is one of this type's pages."""
        pattern = re.escape(self.pattern)
        for name in self.fields:
            pattern = pattern.replace(re.escape("{" + name + "}"), "[^/]+")
        return re.fullmatch(pattern, path) is not None


#: In nav order. Adding a page type: one entry here (and, if generated, its pages in render/pages.py).
PAGE_TYPES: tuple[PageType, ...] = (
    PageType("home", "index.md", generated=False, nav="Home"),
    PageType("release-index", "releases/index.md", generated=False, nav="Releases", heads="All releases"),
    # The release page's HTML: 150 KB until the GPU table and the fifth and later items of a
    # release's bug-fix sweep (2.8: 154 KB); 170 KB until every entry of the notes was decided in
    # a ledger and releases grew to 60 to 70 items (2.14: 216 KB).
    PageType(
        "release",
        "releases/{version}.md",
        generated=True,
        section="release-index",
        html_budget=240 * KB,
        sample=(("version", "2.12"),),
    ),
    PageType("compare-index", "compare/index.md", generated=False, nav="Compare", heads="All tables"),
    PageType("compare", "compare/{name}.md", generated=True, section="compare-index", sample=(("name", "platforms"),)),
    PageType("guide-index", "upgrade/index.md", generated=False, nav="Upgrade guides"),
    # Reached from the guide index, not the nav: a nav entry per guide would make every page's
    # HTML grow with the square of the releases.
    PageType(
        "guide",
        "upgrade/{start}-to-{end}.md",
        generated=True,
        searchable=False,
        sample=(("start", "2.8"), ("end", "2.12")),
    ),
    # The tools: one section, each page under its own title. A page keeps its address when it
    # moves into a section (`api.md` stays where wikis link to it).
    PageType("tools-index", "tools/index.md", generated=False, nav="Tools", heads="All tools"),
    PageType("doctor", "tools/doctor.md", generated=False, nav="Newest for your machine", section="tools-index"),
    PageType("scanner", "tools/scanner.md", generated=False, nav="Scan your code", section="tools-index"),
    PageType("stack-tool", "tools/stack.md", generated=False, nav="Check your packages", section="tools-index"),
    PageType("api", "api.md", generated=False, nav="JSON API and feed", section="tools-index"),
    PageType("about", "about.md", generated=False, nav="About the data"),
    PageType("linking", "linking.md", generated=False, nav="Link to us"),
)

_BY_NAME = {page_type.name: page_type for page_type in PAGE_TYPES}
for _type in PAGE_TYPES:  # a registry bug fails at import, with the fix in the message
    if _type.section is not None and (_type.section not in _BY_NAME or _BY_NAME[_type.section].heads is None):
        raise ValueError(f"page type {_type.name!r}: section {_type.section!r} is no page type with `heads`")
    if _type.section is not None and not _type.generated and _type.nav is None:
        raise ValueError(f"page type {_type.name!r}: a hand-written page in a section needs a `nav` title")
    if _type.nav is None and _type.heads is not None:
        raise ValueError(f"page type {_type.name!r}: `heads` needs a `nav` title for the section")


def page_type(name: str) -> PageType:
    if name not in _BY_NAME:
        raise KeyError(f"no page type {name!r}; known: {', '.join(_BY_NAME)} (macros/query/site.py)")
    return _BY_NAME[name]


def type_of(path: str) -> PageType:
    """The type of a page, by its path relative to docs/ (`.md`) or to the site (`.html`)."""
    source = path.removesuffix(".html") + ".md" if path.endswith(".html") else path
    for candidate in PAGE_TYPES:  # one-of-a-kind pages first: `compare/index.md` is no table
        if not candidate.fields and candidate.pattern == source:
            return candidate
    for candidate in PAGE_TYPES:
        if candidate.fields and candidate.matches(source):
            return candidate
    raise KeyError(f"{path}: no page type; add one to PAGE_TYPES in macros/query/site.py")


def html_path(path: str) -> str:
    """The built page of a page source: `releases/2.12.md` -> `releases/2.12.html`."""
    return path.removesuffix(".md") + ".html"


@dataclass(frozen=True)
class Target:
    """Where a link goes: a page (relative to docs/, `.md`) and an anchor on it."""

    path: str
    anchor: str | None = None


def target(type_name: str, anchor: str | None = None, **fields: str) -> Target:
    """`target("release", "install", version="2.12")`: the page of that type with those fields."""
    return Target(page_type(type_name).path(**fields), anchor)


class Links:
    """Links from the page at `page` (relative to docs/) to any other, the one way they are made.

    `md(...)` is a Markdown link target (MkDocs checks it and rewrites it to the built page);
    `html(...)` names the built page, for finished HTML that MkDocs never sees. Both take a
    `Target` or a page type's name, an optional anchor and the type's fields."""

    def __init__(self, page: str) -> None:
        self.page = page
        self._folder = posixpath.dirname(page) or "."

    def md(self, to: Target | str, anchor: str | None = None, **fields: str) -> str:
        return self._link(to, anchor, fields, html=False)

    def html(self, to: Target | str, anchor: str | None = None, **fields: str) -> str:
        return self._link(to, anchor, fields, html=True)

    def _link(self, to: Target | str, anchor: str | None, fields: dict[str, str], *, html: bool) -> str:
        goal = to if isinstance(to, Target) else target(to, anchor, **fields)
        path = html_path(goal.path) if html else goal.path
        relative = _relative(path, self._folder)
        return f"{relative}#{goal.anchor}" if goal.anchor else relative


@cache
def _relative(path: str, folder: str) -> str:
    # posixpath.relpath normalises both paths on each call: 0.1 s of a build's thousands of links.
    return posixpath.relpath(path, folder)


def site_nav(generated: Iterable[tuple[str, str, str]]) -> list[dict[str, object]]:
    """MkDocs' nav from the registry: each type with a nav entry, in order, and in each section
    its index, then the hand-written pages in it (registry order), then the generated pages (type
    name, title, path) that it heads, in their order."""
    pages = list(generated)
    nav: list[dict[str, object]] = []
    for page_type in PAGE_TYPES:
        if page_type.nav is None or page_type.section is not None:
            continue
        if page_type.heads is None:
            nav.append({page_type.nav: page_type.pattern})
            continue
        members = [member for member in PAGE_TYPES if member.section == page_type.name]
        entries: list[dict[str, str]] = [{page_type.heads: page_type.pattern}]
        entries += [{m.nav: m.pattern} for m in members if not m.generated and m.nav is not None]
        generated_members = {m.name for m in members if m.generated}
        entries += [{title: path} for type_name, title, path in pages if type_name in generated_members]
        nav.append({page_type.nav: entries})
    return nav


def not_in_nav() -> str:
    """The `not_in_nav` patterns (gitignore style) of the types the nav does not list."""
    listed = [t for t in PAGE_TYPES if t.nav is None and t.section is None]
    return "".join("/" + re.sub(r"\{\w+\}", "*", t.pattern) + "\n" for t in listed)


def page_url(site_url: str, to: Target | str, anchor: str | None = None, **fields: str) -> str:
    """The absolute URL of a built page (the JSON API and the feed link to the hosted site)."""
    return site_url.rstrip("/") + "/" + Links("index.md").html(to, anchor, **fields)
