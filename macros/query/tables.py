"""Queries: the comparison tables (`compare/<table>.html`).

Each function returns a `Table`: columns and rows of cells that know whether they changed from
the previous release, whether a source disputes them, why they are unknown, and which item or
dispute they link to. Rendering to Markdown happens in `render/compare.py`. A new release adds a
column or row with no code change.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from macros.dataset import wheels
from macros.dataset.model import Item, Release
from macros.dataset.text import text_html
from macros.dataset.vocabulary import CODE_KINDS, DEPRECATION, ENDING_KINDS, KINDS, RETIRING_KINDS, STATUSES, TORCH
from macros.query.catalog import Catalog
from macros.query.platform import (
    COMPANIONS,
    DROPS_FIELD,
    DROPS_LABEL,
    PLATFORM_FACTS,
    companion_text,
    disputed,
    drops_text,
    platform_fact,
)
from macros.query.site import Target, target


@dataclass(frozen=True)
class Cell:
    """One value. `text` and `unknown` are inline HTML: data text in them went through
    `text_html`, so views may put them into Markdown as they are."""

    text: str
    link: Target | None = None  # the page (and anchor) the value opens; views make the link
    changed: bool = False
    disputed: Target | None = None  # the dispute
    unknown: str | None = None  # the reason
    style: str | None = None  # a vocabulary style (status colours); the text still says it


@dataclass
class Row:
    label: str  # inline HTML, like a cell
    cells: list[Cell]
    id: str | None = None
    # Further anchors of the row: a lifecycle row answers to every item of its chain, so a link
    # made before a correction joined two chains keeps landing on it.
    also: tuple[str, ...] = ()


@dataclass
class Table:
    corner: str  # heading of the first column, over the row labels
    columns: list[str]  # headings of the other columns, one per cell of a row
    rows: list[Row]
    facets: tuple[str, ...] = ()


def item_link(release: Release, item: Item) -> Target:
    return target("release", item.id, version=release.version)


def _disputed(release: Release, field_name: str) -> Target | None:
    """Where a dispute about this fact, or about the whole block it belongs to, is."""
    dispute = disputed(release, field_name)
    return target("release", dispute, version=release.version) if dispute else None


def platforms_table(catalog: Catalog) -> Table:
    """Platform facts (rows) by release (columns), from the one list in `platform.py`."""
    releases = catalog.releases
    rows = []
    for fact in PLATFORM_FACTS:
        cells, previous = [], None
        for release in releases:
            value = fact.read(release, catalog.pypi)
            text = value.text if value.text is not None else "unknown"
            cells.append(
                Cell(
                    text,
                    changed=previous is not None and text != previous,
                    disputed=_disputed(release, fact.disputed_field),
                    unknown=text_html(value.unknown) or None,
                )
            )
            previous = text
        rows.append(Row(fact.label, cells))
    drops = []
    for release in releases:
        entries = release.platform.architectures_dropped
        link = target("release", entries[0].item, version=release.version) if entries and entries[0].item else None
        drops.append(
            Cell(drops_text(release), link=link, changed=bool(entries), disputed=_disputed(release, DROPS_FIELD))
        )
    rows.append(Row(DROPS_LABEL, drops))
    return _newest_first(Table("Platform", [r.version for r in releases], rows))


def _newest_first(table: Table) -> Table:
    """Release columns newest first: the release people look up is visible without scrolling
    sideways. (Computed oldest first, since "changed" compares each release with the one before.)"""
    rows = [Row(row.label, row.cells[::-1], row.id) for row in table.rows]
    return Table(table.corner, table.columns[::-1], rows, table.facets)


def companions_table(catalog: Catalog) -> Table:
    """Releases (rows, newest first) by companion library and Python range (columns)."""
    rows = []
    for release in reversed(catalog.releases):
        cells = []
        for name in COMPANIONS:
            text = companion_text(release, name)
            found = next((c for c in release.companions if c.name == name), None)
            if found is None:
                cells.append(Cell(text, unknown="No source gives it."))
                continue
            text += "".join(f"<br>{version} with {patch}" for patch, version in found.with_patches.items())
            cells.append(
                Cell(
                    text,
                    unknown=(text_html(found.note) or None) if found.version is None else None,
                    disputed=_disputed(release, f"companions.{name}"),
                )
            )
        python = platform_fact("python").read(release)
        cells.append(Cell(python.text or "unknown", disputed=_disputed(release, "platform.python")))
        rows.append(Row(release.version, cells, id=f"torch-{release.version.replace('.', '-')}"))
    return Table(TORCH, [*COMPANIONS, "Python"], rows)


def lifecycle_table(catalog: Catalog) -> Table:
    """Every deprecated or removed API or platform: deprecated in, removed in, replacement."""
    rows, seen = [], set()
    for release in catalog.releases:
        for item in release.items:
            if item.kind not in RETIRING_KINDS or item.id in seen:
                continue
            chain = catalog.lifecycle(item.id)
            seen.update(step.id for _, step in chain)
            deprecated = next(((r, i) for r, i in chain if i.kind == DEPRECATION), None)
            removed = next(
                (
                    (r, i)
                    for r, i in chain
                    if i.kind in ENDING_KINDS and (deprecated is None or r.key > deprecated[0].key)
                ),
                None,
            )
            first = chain[0][1]
            replacement = next((i.replacement for _, i in chain if i.replacement), None)
            planned = next((i.planned_removal for _, i in chain if i.planned_removal), None)
            still = "still deprecated" + (f" (removal announced for {planned})" if planned else "")
            cells = [
                Cell(first.area),
                Cell(deprecated[0].version, link=item_link(*deprecated))
                if deprecated
                else Cell("not deprecated first"),
                Cell(removed[0].version, link=item_link(*removed)) if removed else Cell(still),
                Cell(text_html(replacement)),
                Cell("removed" if removed else "deprecated"),
            ]
            anchor = (deprecated or removed or chain[0])[1].id
            also = tuple(f"lc-{step.id}" for _, step in chain if step.id != anchor)
            rows.append(Row(text_html(first.title), cells, id=f"lc-{anchor}", also=also))
    return Table(
        "What", ["Area", "Deprecated in", "Removed in", "Replacement", "Status"], rows, facets=("Area", "Status")
    )


#: Kinds whose verb ("deprecated", "removed", "changed") stands for a missing status.
_LIFECYCLE_KINDS = CODE_KINDS


def feature_status_table(catalog: Catalog) -> Table:
    """Topics that appear in more than one release, with each release's status."""
    releases = catalog.releases
    rows = []
    for topic in catalog.topics.values():
        per_release: dict[str, list[Item]] = {}
        for release in releases:
            per_release[release.version] = [i for i in release.items if i.topic == topic.id]
        if sum(1 for items in per_release.values() if items) < 2:
            continue
        cells = []
        for release in releases:
            items = per_release[release.version]
            if not items:
                cells.append(Cell(""))
                continue
            item = items[0]
            # An item without a status says what happened to the feature: "deprecated", "removed".
            label = item.status or (KINDS[item.kind].verb if item.kind in _LIFECYCLE_KINDS else "not labelled")
            extra = f" (+{len(items) - 1})" if len(items) > 1 else ""
            style = STATUSES[item.status].style if item.status else KINDS[item.kind].style
            cells.append(Cell(f"{label}{extra}", link=item_link(release, item), style=style))
        rows.append(Row(text_html(topic.title), cells, id=f"topic-{topic.id}"))
    return _newest_first(Table("Feature", [r.version for r in releases], rows))


def release_facts_table(catalog: Catalog) -> Table:
    rows = []
    previous = None
    for release in catalog.releases:
        days = ""
        if previous is not None:
            delta = dt.date.fromisoformat(release.date) - dt.date.fromisoformat(previous.date)
            days = str(delta.days)
        stats = release.stats
        patches = ", ".join(f"{p.version} ({p.date})" if p.date else p.version for p in release.patches)
        rows.append(
            Row(
                release.version,
                [
                    Cell(
                        release.date,
                        link=target("release", version=release.version),
                        disputed=_disputed(release, "date"),
                    ),
                    Cell(days),
                    Cell(
                        f"{stats.commits:,}" if stats.commits else "unknown",
                        unknown=text_html(stats.unknown.get("commits")) or None,
                        disputed=_disputed(release, "stats"),
                    ),
                    Cell(
                        f"{stats.contributors:,}" if stats.contributors else "unknown",
                        unknown=text_html(stats.unknown.get("contributors")) or None,
                    ),
                    Cell(patches or "none"),
                ],
                id=f"release-{release.version.replace('.', '-')}",
            )
        )
        previous = release
    columns = ["Released", "Days since previous", "Commits", "Contributors", "Patch releases"]
    return Table("Release", columns, rows[::-1])  # newest first, as on the companions table


WHEEL_COLUMNS = [label for label, _, _ in wheels.PLATFORMS]


def wheels_table(catalog: Catalog) -> Table:
    """Per torch release (X.Y.0) and Python, whether PyPI has a wheel for each platform and when it
    appeared; re-uploads (build tags) say so. From the committed snapshot (`make index`)."""
    rows: list[Row] = []
    if catalog.pypi is None:
        return Table("torch, Python", [*WHEEL_COLUMNS, "First upload"], rows)
    torch = wheels.wheels(catalog.pypi, TORCH)
    for release in reversed(catalog.releases):
        found = wheels.of_version(torch, f"{release.version}.0")
        for python in sorted(wheels.pythons(found), key=wheels.key):
            matching = [w for w in found if python in w.pythons and not w.file.yanked]
            cells = []
            for label in WHEEL_COLUMNS:
                here = sorted((w for w in matching if label in w.platforms), key=lambda w: w.file.uploaded)
                if not here:
                    cells.append(Cell("no"))
                    continue
                later = [w for w in here if w.build]
                text = "yes" + (f" (re-uploaded {later[-1].file.uploaded[:10]})" if later else "")
                cells.append(Cell(text, style="atlas-wheel-yes"))
            first = min(w.file.uploaded for w in matching)[:10]
            anchor = f"wheels-{release.version.replace('.', '-')}-{python.replace('.', '')}"
            rows.append(Row(f"{release.version}.0, Python {python}", [*cells, Cell(first)], id=anchor))
    return Table("torch, Python", [*WHEEL_COLUMNS, "First upload"], rows, facets=())
