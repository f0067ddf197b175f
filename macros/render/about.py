"""Renderer for the "About the data" page: the source registry and what is known to be missing."""

from __future__ import annotations

from macros.catalog import Catalog
from macros.coverage import unknown_facts
from macros.model import TIER_RANK
from macros.render.text import template


def render_sources_table(catalog: Catalog) -> str:
    sources = sorted(catalog.sources.values(), key=lambda s: (-TIER_RANK[s.tier], s.id))
    return template("sources_table.md.j2").render(sources=sources)


def render_known_gaps(catalog: Catalog) -> str:
    gaps = [(release, path, reason) for release in catalog.releases for path, reason in unknown_facts(release)]
    disputes = [(release, dispute) for release in catalog.releases for dispute in release.disputes]
    return template("known_gaps.md.j2").render(gaps=gaps, disputes=disputes, reviewed=catalog.reviewed)
