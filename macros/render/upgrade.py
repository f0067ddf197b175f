"""Renderers for the upgrade guides (`upgrade/A-to-B.html`) and their index."""

from __future__ import annotations

from macros.catalog import Catalog, Citations
from macros.guide import all_pairs, upgrade_guide
from macros.render.html_blocks import set_aside
from macros.render.release import item_helpers
from macros.render.text import template


def render_upgrade_guide(catalog: Catalog, start: str, end: str) -> str:
    guide = upgrade_guide(catalog, start, end)
    citations = Citations(catalog)
    became_removals = [
        entry
        for entry in guide.changes
        if any(step.kind == "deprecation" for _, step in catalog.lifecycle(entry.item.id) if step.id != entry.item.id)
    ]
    disputes = [(release, dispute) for release in guide.crossed for dispute in release.disputes]
    helpers = item_helpers(catalog, citations, prefix="../releases/")
    rows = template("_guide_rows.html.j2")

    def change_table(entries: list) -> str:
        # Rendered here, in page order, so that citations keep their numbers; set aside so that
        # Markdown never parses it (see html_blocks).
        return set_aside(rows.render(entries=entries, catalog=catalog, **helpers))

    return template("upgrade.md.j2").render(
        guide=guide,
        catalog=catalog,
        became_removals=became_removals,
        disputes=disputes,
        citations=citations,
        change_table=change_table,
        **helpers,
    )


def render_upgrade_index(catalog: Catalog) -> str:
    versions = [release.version for release in catalog.releases]
    return template("upgrade_index.md.j2").render(
        versions=versions,
        pairs=set(all_pairs(catalog)),
        latest=versions[-1],
    )
