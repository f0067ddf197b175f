"""Renderers' registry: every page the site generates from the data, and what else it publishes.

One `GeneratedPage` per page: its path under docs/, title, description, whether search indexes it,
the nav section that lists it, and the renderer that makes its Markdown. The MkDocs hook adds these
pages (`File.generated`) and fills the nav from them; `python -m macros materialize` writes the same
pages as files, for a build without hooks. Nothing here imports MkDocs.

Adding a page type: a renderer module (or function) and one entry in `generated_pages`; a nav
section is one entry in `NAV_SECTIONS`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from macros.query.catalog import Catalog
from macros.query.guide import all_pairs, guide_inputs
from macros.render.about import render_known_gaps, render_sources_table
from macros.render.api import api_files
from macros.render.compare import PAGES as COMPARE_PAGES
from macros.render.compare import compare_page_inputs, render_compare_index, render_compare_page
from macros.render.feed import atom_feed
from macros.render.home import render_latest_release, render_release_list, render_upgrade_teaser
from macros.render.made_from import MadeFrom
from macros.render.markdown import Rendered
from macros.render.release import release_page_inputs, render_release_page
from macros.render.upgrade import render_upgrade_guide, render_upgrade_index

#: Hand-written index page -> the title of its own entry in the nav section it heads. The section
#: lists the generated pages that name it, after that entry.
NAV_SECTIONS: dict[str, str] = {
    "releases/index.md": "All releases",
    "compare/index.md": "All tables",
}

#: What hand-written pages may call (`{{ release_list() }}`): name -> renderer taking the catalog
#: first. The macros plugin gets them through `define_env`; `materialize` renders them itself.
PAGE_MACROS: dict[str, Callable[..., str]] = {
    "latest_release": render_latest_release,
    "upgrade_teaser": render_upgrade_teaser,
    "release_list": render_release_list,
    "sources_table": render_sources_table,
    "known_gaps": render_known_gaps,
    "upgrade_index": render_upgrade_index,
    "compare_index": render_compare_index,
}


@dataclass(frozen=True)
class GeneratedPage:
    path: str  # relative to docs/, e.g. "releases/2.12.md"
    title: str
    description: str
    render: Callable[[Catalog], Rendered]
    # Guides repeat items whose permanent home is a release page; indexing them would crowd every
    # search with duplicates and more than quadruple the index each first visit downloads.
    searchable: bool = True
    section: str | None = None  # a key of NAV_SECTIONS, or None: reached by links only
    hide: tuple[str, ...] = ()  # Material's `hide` (e.g. "toc": wide tables get the table of contents' rail)
    # What the page is made from (see render/made_from.py), when that is less than the whole
    # catalog: under `mkdocs serve`, a page whose inputs did not change is not rendered again.
    inputs: Callable[[Catalog], tuple[object, ...]] | None = None

    def front_matter(self) -> str:
        meta = [f"title: {_yaml_string(self.title)}", f"description: {_yaml_string(self.description)}"]
        if not self.searchable:
            meta += ["search:", "  exclude: true"]
        if self.hide:
            meta += ["hide:", *(f"  - {name}" for name in self.hide)]
        return "---\n" + "\n".join(meta) + "\n---\n\n"

    def build(self, catalog: Catalog) -> Rendered:
        """The whole page source (front matter and Markdown) and its finished HTML."""
        if self.inputs is None:
            return self._with_front_matter(self.render(catalog))
        # A kept page is the very object of the last build, so the hook need not fingerprint it again.
        inputs = (self.front_matter(), *self.inputs(catalog))
        return _made_from.get(self.path, inputs, lambda: self._with_front_matter(self.render(catalog)))

    def _with_front_matter(self, rendered: Rendered) -> Rendered:
        return Rendered(self.front_matter() + rendered.markdown, rendered.finished_html)


#: Pages kept across `mkdocs serve` rebuilds with what they were made from.
_made_from = MadeFrom()


def _yaml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def release_pages(catalog: Catalog) -> list[GeneratedPage]:
    """Newest first, as the nav lists them (sorted by version, not as strings)."""
    return [
        GeneratedPage(
            f"releases/{release.version}.md",
            f"PyTorch {release.version}",
            _description(f"PyTorch {release.version} (released {release.date}): {release.summary}"),
            partial(render_release_page, version=release.version),
            section="releases/index.md",
            inputs=partial(release_page_inputs, version=release.version),
        )
        for release in reversed(catalog.releases)
    ]


def compare_pages() -> list[GeneratedPage]:
    return [
        GeneratedPage(
            f"compare/{spec.name}.md",
            spec.title,
            spec.description,
            partial(render_compare_page, name=spec.name),
            section="compare/index.md",
            inputs=partial(compare_page_inputs, name=spec.name),
            hide=("toc",),
        )
        for spec in COMPARE_PAGES
    ]


def upgrade_pages(catalog: Catalog) -> list[GeneratedPage]:
    pages = []
    for start, end in all_pairs(catalog):
        release = catalog.release(end)
        crossed = catalog.crossed(start, end)
        changes = sum(1 for r in crossed for i in r.items if i.is_change)
        description = (
            f"Moving from PyTorch {start} to {end} ({release.date}): {changes} breaking changes, "
            f"deprecations, removals and platform changes across "
            f"{len(crossed)} release{'s' if len(crossed) > 1 else ''}, grouped by area with "
            "the action for each, the platform delta and deprecations to plan for."
        )
        pages.append(
            GeneratedPage(
                f"upgrade/{start}-to-{end}.md",
                f"Upgrade PyTorch {start} to {end}",
                _description(description),
                partial(render_upgrade_guide, start=start, end=end),
                searchable=False,
                # A guide is read as one long checklist: the rows get the width of the site menu (the
                # header's menu button still opens it).
                hide=("navigation",),
                inputs=partial(guide_inputs, start=start, end=end),
            )
        )
    return pages


def generated_pages(catalog: Catalog) -> list[GeneratedPage]:
    return release_pages(catalog) + compare_pages() + upgrade_pages(catalog)


def nav_sections(pages: list[GeneratedPage]) -> dict[str, list[dict[str, str]]]:
    """Index page -> its nav section: the index itself, then the pages that name it, in order."""
    sections: dict[str, list[dict[str, str]]] = {index: [{title: index}] for index, title in NAV_SECTIONS.items()}
    for page in pages:
        if page.section is not None:
            sections[page.section].append({page.title: page.path})
    return sections


def machine_files(catalog: Catalog, site_url: str, site_name: str) -> dict[str, str]:
    """Everything published besides pages: the JSON API and the feed, path -> text."""
    return {**api_files(catalog, site_url), "feed.xml": atom_feed(catalog, site_url, site_name)}


def footer_facts(catalog: Catalog) -> dict[str, object]:
    """Counts and date for the footer (`config.extra.atlas`, read by overrides/)."""
    return {
        "release_count": len(catalog.releases),
        "item_count": len(catalog.items),
        "source_count": len(catalog.sources),
        "reviewed": catalog.reviewed or catalog.latest.date,
    }


def _description(text: str, limit: int = 300) -> str:
    """A meta description: plain text, cut at a word boundary."""
    flat = " ".join(text.replace("`", "").split())
    if len(flat) <= limit:
        return flat
    return flat[: flat.rfind(" ", 0, limit - 1)].rstrip(",;:") + "…"
