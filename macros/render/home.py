"""Renderers for the home page (the newest release, the way to the upgrade guides) and the release list."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from macros.dataset import wheels
from macros.dataset.model import Release
from macros.dataset.vocabulary import HOME_KINDS, TORCH
from macros.query.catalog import Catalog
from macros.query.site import Links, page_type
from macros.render.markdown import View, render_markdown


@dataclass(frozen=True)
class LatestView(View):
    TEMPLATE: ClassVar[str] = "latest.md.j2"
    release: Release  # the newest
    first: Release  # the oldest
    pypi_newest: str | None  # the newest torch on PyPI at the snapshot's date
    pypi_fetched: str | None
    links: Links


@dataclass(frozen=True)
class ReleaseListView(View):
    TEMPLATE: ClassVar[str] = "release_list.md.j2"
    rows: list[tuple[Release, dict[str, int]]]  # newest first, with item counts by kind
    links: Links


@dataclass(frozen=True)
class UpgradeTeaserView(View):
    TEMPLATE: ClassVar[str] = "upgrade_teaser.md.j2"
    latest: str
    older: list[str]  # newest first
    links: Links


def render_latest_release(catalog: Catalog) -> str:
    newest = wheels.newest(wheels.wheels(catalog.pypi, TORCH)) if catalog.pypi else None
    return render_markdown(
        LatestView(
            release=catalog.latest,
            first=catalog.releases[0],
            pypi_newest=newest[0] if newest else None,
            pypi_fetched=catalog.pypi.fetched if catalog.pypi else None,
            links=Links(page_type("home").pattern),
        )
    )


def render_release_list(catalog: Catalog, page: str = "index.md") -> str:
    """Every release, newest first, for the page at `page` (relative to docs/)."""
    rows = []
    for release in reversed(catalog.releases):
        counts = {kind: sum(1 for i in release.items if i.kind == kind) for kind in HOME_KINDS}
        rows.append((release, counts))
    return render_markdown(ReleaseListView(rows, Links(page)))


def render_upgrade_teaser(catalog: Catalog) -> str:
    """The home page's way into the guides: from each older release to the newest, in one line."""
    return render_markdown(
        UpgradeTeaserView(
            latest=catalog.latest.version,
            older=[release.version for release in reversed(catalog.releases[:-1])],
            links=Links(page_type("home").pattern),
        )
    )
