"""Between render and the edges: which pages the site generates from the data, and their stubs.

Kept free of MkDocs so the same list could also be written out as files (the exit plan if the
site ever moves off MkDocs' hook system). Each stub is front matter plus one macro call; the
macro renders the page from the catalog at build time.
"""

from __future__ import annotations

from dataclasses import dataclass

from macros.catalog import Catalog
from macros.guide import all_pairs
from macros.render.compare import PAGES as COMPARE_PAGES


@dataclass(frozen=True)
class GeneratedPage:
    path: str  # relative to docs/, e.g. "releases/2.12.md"
    title: str
    description: str
    call: str  # the macro call that renders the body
    # Guides repeat items whose permanent home is a release page; indexing them would crowd every
    # search with duplicates and more than quadruple the index each first visit downloads.
    searchable: bool = True

    def source(self) -> str:
        meta = [
            f"title: {_yaml_string(self.title)}",
            f"description: {_yaml_string(self.description)}",
            "render_macros: true",
        ]
        if not self.searchable:
            meta += ["search:", "  exclude: true"]
        return "---\n" + "\n".join(meta) + f"\n---\n\n{{{{ {self.call} }}}}\n"


def _yaml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def release_pages(catalog: Catalog) -> list[GeneratedPage]:
    return [
        GeneratedPage(
            f"releases/{release.version}.md",
            f"PyTorch {release.version}",
            _description(f"PyTorch {release.version} (released {release.date}): {release.summary}"),
            f'release_page("{release.version}")',
        )
        for release in reversed(catalog.releases)
    ]


def upgrade_pages(catalog: Catalog) -> list[GeneratedPage]:
    pages = []
    for start, end in all_pairs(catalog):
        release = catalog.release(end)
        crossed = catalog.crossed(start, end)
        changes = sum(1 for r in crossed for i in r.items if i.is_change)
        pages.append(
            GeneratedPage(
                f"upgrade/{start}-to-{end}.md",
                f"Upgrade PyTorch {start} to {end}",
                _description(
                    f"Moving from PyTorch {start} to {end} ({release.date}): {changes} breaking changes, "
                    f"deprecations, removals and platform changes across "
                    f"{len(crossed)} release{'s' if len(crossed) > 1 else ''}, grouped by area with "
                    "the action for each, the platform delta and deprecations to plan for."
                ),
                f'upgrade_guide("{start}", "{end}")',
                searchable=False,
            )
        )
    return pages


def compare_pages() -> list[GeneratedPage]:
    return [
        GeneratedPage(f"compare/{spec.name}.md", spec.title, spec.description, f'compare_table("{spec.name}")')
        for spec in COMPARE_PAGES
    ]


def generated_pages(catalog: Catalog) -> list[GeneratedPage]:
    return release_pages(catalog) + compare_pages() + upgrade_pages(catalog)


def compare_nav() -> list[dict[str, str]]:
    return [{page.title: page.path} for page in compare_pages()]


def _description(text: str, limit: int = 300) -> str:
    """A meta description: plain text, cut at a word boundary."""
    flat = " ".join(text.replace("`", "").split())
    if len(flat) <= limit:
        return flat
    return flat[: flat.rfind(" ", 0, limit - 1)].rstrip(",;:") + "…"


def release_nav(catalog: Catalog) -> list[dict[str, str]]:
    """Nav entries for the release pages, newest first (sorted by version, not as strings)."""
    return [{page.title: page.path} for page in release_pages(catalog)]
