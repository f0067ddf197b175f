"""Render the whole site through the render layer, without MkDocs: every generated page, every
machine file (JSON API, feed) and every macro a hand-written page may call.

Fast enough to run per Hypothesis example (a full `mkdocs build` is not); what it cannot see is
MkDocs' own Markdown conversion, which the site-build tests cover.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from macros.dataset.model import Release
from macros.query.catalog import Catalog
from macros.render.pages import PAGE_MACROS, generated_pages, machine_files

SITE_URL = "https://example.org/atlas/"


def render_everything(catalog: Catalog) -> dict[str, str]:
    """Path (or `macro:name`) -> the text the site would publish there (pages: their Markdown with
    the finished HTML blocks appended)."""
    out: dict[str, str] = {}
    for page in generated_pages(catalog):
        rendered = page.build(catalog)
        out[page.path] = rendered.markdown + "".join(rendered.finished_html.values())
    out.update(machine_files(catalog, SITE_URL, "Atlas"))
    for name, render in PAGE_MACROS.items():
        out[f"macro:{name}"] = render(catalog)
    return out


def with_fields_changed(
    catalog: Catalog, changes: dict[str, Callable[[Release], object]], keep: Release | None = None
) -> Catalog:
    """The catalog with `changes` (field -> new value from the release) made in every release but
    `keep`, and nothing computed from the old one kept (the `_memo`)."""
    releases = tuple(
        release if release is keep else release.model_copy(update={name: new(release) for name, new in changes.items()})
        for release in catalog.releases
    )
    return dataclasses.replace(catalog, releases=releases, _memo={})
