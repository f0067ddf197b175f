"""Renderer for the "About the data" page: the source registry and what is known to be missing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from macros.dataset.model import Dispute, Release, Source
from macros.dataset.vocabulary import TIERS
from macros.query.catalog import Catalog
from macros.query.coverage import unknown_facts
from macros.query.site import Links, page_type
from macros.render.markdown import View, render_markdown


@dataclass(frozen=True)
class SourcesTableView(View):
    TEMPLATE: ClassVar[str] = "sources_table.md.j2"
    sources: list[Source]  # best tier first


@dataclass(frozen=True)
class KnownGapsView(View):
    TEMPLATE: ClassVar[str] = "known_gaps.md.j2"
    gaps: list[tuple[Release, str, str]]  # (release, field path, why the sources do not give it)
    disputes: list[tuple[Release, Dispute]]
    reviewed: str | None
    links: Links


def render_sources_table(catalog: Catalog) -> str:
    sources = sorted(catalog.sources.values(), key=lambda s: (TIERS.rank(s.tier), s.id))
    return render_markdown(SourcesTableView(sources))


def render_known_gaps(catalog: Catalog) -> str:
    gaps = [(release, path, reason) for release in catalog.releases for path, reason in unknown_facts(release)]
    disputes = [(release, dispute) for release in catalog.releases for dispute in release.disputes]
    return render_markdown(KnownGapsView(gaps, disputes, catalog.reviewed, Links(page_type("about").pattern)))
