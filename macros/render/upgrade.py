"""Renderers for the upgrade guides (`upgrade/A-to-B.html`) and their index."""

from __future__ import annotations

from macros.query.catalog import Catalog, Citations
from macros.query.guide import all_pairs, upgrade_guide
from macros.query.install import install_variants
from macros.render.markdown import Rendered, render, render_markdown
from macros.render.release import item_helpers


def render_upgrade_guide(catalog: Catalog, start: str, end: str) -> Rendered:
    guide = upgrade_guide(catalog, start, end)
    citations = Citations(catalog)
    became_removals = [
        entry
        for entry in guide.changes
        if any(step.kind == "deprecation" for _, step in catalog.lifecycle(entry.item.id) if step.id != entry.item.id)
    ]
    disputes = [(release, dispute) for release in guide.crossed for dispute in release.disputes]
    return render(
        "upgrade.md.j2",
        guide=guide,
        catalog=catalog,
        became_removals=became_removals,
        disputes=disputes,
        citations=citations,
        installs=install_variants(guide.end),
        **item_helpers(catalog, citations, finished_html=True, prefix="../releases/"),
    )


def render_upgrade_index(catalog: Catalog) -> str:
    versions = [release.version for release in catalog.releases]
    return render_markdown(
        "upgrade_index.md.j2",
        versions=versions,
        pairs=set(all_pairs(catalog)),
        latest=versions[-1],
    )
