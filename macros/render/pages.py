"""Renderers' registry: every page the site generates from the data, and what else it publishes.

One `GeneratedPage` per page: its page type (`query/site.py`: its path, whether search indexes
it, the nav section that lists it), title, description, and the renderer that makes its Markdown.
The MkDocs hook adds these pages (`File.generated`) and fills the nav from them; `python -m macros
materialize` writes the same pages as files, for a build without hooks. Nothing here imports MkDocs.

Adding a page type: its `PageType` in `query/site.py`, a renderer module (or function), and, for a
generated type, its pages in `generated_pages`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from macros.query.catalog import Catalog
from macros.query.guide import all_pairs, guide_inputs
from macros.query.site import PAGE_TYPES, PageType, page_type, site_nav
from macros.render.about import render_known_gaps, render_sources_table
from macros.render.api import api_files
from macros.render.compare import PAGES as COMPARE_PAGES
from macros.render.compare import compare_page_inputs, render_compare_index, render_compare_page
from macros.render.doctor import PLAN_ASSET, plan_script
from macros.render.feed import atom_feed
from macros.render.home import render_latest_release, render_release_list, render_upgrade_teaser
from macros.render.made_from import MadeFrom
from macros.render.markdown import Rendered
from macros.render.release import release_page_inputs, render_release_page
from macros.render.upgrade import render_upgrade_guide_kept, render_upgrade_index

RELEASE, COMPARE, GUIDE = page_type("release"), page_type("compare"), page_type("guide")

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
    type: PageType
    path: str  # relative to docs/, e.g. "releases/2.12.md"
    title: str
    description: str
    render: Callable[[Catalog], Rendered]
    hide: tuple[str, ...] = ()  # Material's `hide` (e.g. "toc": wide tables get the table of contents' rail)
    # What the page is made from (see render/made_from.py), when that is less than the whole
    # catalog: under `mkdocs serve`, a page whose inputs did not change is not rendered again.
    inputs: Callable[[Catalog], tuple[object, ...]] | None = None

    def __post_init__(self) -> None:
        if not self.type.generated or not self.type.matches(self.path):
            raise ValueError(f"{self.path}: not a generated page of type {self.type.name!r} (a registry bug)")

    def front_matter(self) -> str:
        meta = [f"title: {_yaml_string(self.title)}", f"description: {_yaml_string(self.description)}"]
        if not self.type.searchable:
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
            RELEASE,
            RELEASE.path(version=release.version),
            f"PyTorch {release.version}",
            _description(f"PyTorch {release.version} (released {release.date}): {release.summary}"),
            partial(render_release_page, version=release.version),
            inputs=partial(release_page_inputs, version=release.version),
        )
        for release in reversed(catalog.releases)
    ]


def compare_pages() -> list[GeneratedPage]:
    return [
        GeneratedPage(
            COMPARE,
            COMPARE.path(name=spec.name),
            spec.title,
            spec.description,
            partial(render_compare_page, name=spec.name),
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
                GUIDE,
                GUIDE.path(start=start, end=end),
                f"Upgrade PyTorch {start} to {end}",
                _description(description),
                partial(render_upgrade_guide_kept, start=start, end=end),
                # A guide is read as one long checklist: the rows get the width of the site menu (the
                # header's menu button still opens it).
                hide=("navigation",),
                inputs=partial(guide_inputs, start=start, end=end),
            )
        )
    return pages


def generated_pages(catalog: Catalog) -> list[GeneratedPage]:
    return release_pages(catalog) + compare_pages() + upgrade_pages(catalog)


def nav(pages: list[GeneratedPage]) -> list[dict[str, object]]:
    """The site's nav (MkDocs' `nav`), from the page-type registry and these pages."""
    return site_nav((page.type.name, page.title, page.path) for page in pages)


def site_pages(catalog: Catalog) -> list[str]:
    """Every page of the site, relative to docs/: the hand-written ones, then the generated."""
    hand_written = [page_type.pattern for page_type in PAGE_TYPES if not page_type.generated]
    return hand_written + [page.path for page in generated_pages(catalog)]


def machine_files(catalog: Catalog, site_url: str, site_name: str) -> dict[str, str]:
    """Everything published besides pages: the JSON API and the feed, path -> text."""
    return {
        **api_files(catalog, site_url),
        "feed.xml": atom_feed(catalog, site_url, site_name),
        PLAN_ASSET: plan_script(catalog),
    }


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
