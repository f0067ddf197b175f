"""Render the whole site through the render layer, without MkDocs: every generated page, every
machine file (JSON API, feed) and every macro a hand-written page may call.

Fast enough to run per Hypothesis example (a full `mkdocs build` is not); what it cannot see is
MkDocs' own Markdown conversion, which the site-build tests cover.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from macros.dataset.model import Item, Release
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


def with_item_fields_changed(
    catalog: Catalog, changes: dict[str, Callable[[Item], object]], keep: Release | None = None
) -> Catalog:
    """The catalog with `changes` (field -> new value from the item) made in every item of every
    release but `keep`, and nothing computed from the old one kept."""
    releases = tuple(
        release
        if release is keep
        else release.model_copy(
            update={
                "items": [
                    item.model_copy(update={n: new(item) for n, new in changes.items()}) for item in release.items
                ]
            }
        )
        for release in catalog.releases
    )
    return dataclasses.replace(catalog, releases=releases, _memo={})


#: A new value for each text field of an item ("edited": given one where it had none).
_EDITED: dict[str, Callable[[Item], object]] = {
    "title": lambda item: item.title + " Changed",
    "summary": lambda item: item.summary + " Changed.",
    "action": lambda item: (item.action or "Do this") + " Changed.",
    "before": lambda item: (item.before or "x = 1") + "\n# changed",
    "after": lambda item: (item.after or "x = 2") + "\n# changed",
    "code_lang": lambda item: "text" if item.code_lang == "python" else "python",
    "replacement": lambda item: (item.replacement or "Something else") + " Changed.",
    "prs": lambda item: [*item.prs, 999999],
}
#: The same fields emptied: optional ones taken away, required ones made short.
_EMPTIED: dict[str, object] = {"title": "Changed", "summary": "Changed.", "code_lang": "python", "prs": []}


def item_field_changes(variant: str, fields: frozenset[str]) -> dict[str, Callable[[Item], object]]:
    """A change for each of `fields` (a set a page declares it ignores): "edited" gives every item a
    new value (one where it had none), "emptied" takes every optional value away. A field this
    helper does not know fails here, so a test is given a change for every ignored field."""
    unknown = fields - _EDITED.keys()
    if unknown:
        raise KeyError(f"no test change for the item field(s) {sorted(unknown)}: add one to renderkit")
    if variant == "edited":
        return {name: _EDITED[name] for name in fields}
    return {name: (lambda item, name=name: _EMPTIED.get(name)) for name in fields}
