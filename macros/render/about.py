"""Renderer for the "About the data" page: the source registry and what is known to be missing."""

from __future__ import annotations

from macros.dataset.vocabulary import TIERS
from macros.query.catalog import Catalog
from macros.query.coverage import unknown_facts
from macros.query.site import Links, page_type
from macros.render.markdown import render_markdown


def render_sources_table(catalog: Catalog) -> str:
    sources = sorted(catalog.sources.values(), key=lambda s: (TIERS.rank(s.tier), s.id))
    return render_markdown("sources_table.md.j2", sources=sources)


def render_known_gaps(catalog: Catalog) -> str:
    gaps = [(release, path, reason) for release in catalog.releases for path, reason in unknown_facts(release)]
    disputes = [(release, dispute) for release in catalog.releases for dispute in release.disputes]
    return render_markdown(
        "known_gaps.md.j2",
        gaps=gaps,
        disputes=disputes,
        reviewed=catalog.reviewed,
        links=Links(page_type("about").pattern),
    )
