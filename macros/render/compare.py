"""Renderers for the comparison pages (`compare/<name>.html`): tables, plus inline SVG pictures."""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from macros.query import tables as compare
from macros.query.catalog import Catalog, fields_except
from macros.query.ecosystem import EXACT_PIN, NO_UPPER_BOUND, REFERENCE_LABEL, Ecosystem, ecosystem_table
from macros.query.site import Links, page_type
from macros.query.tables import Cell, Row, Table
from macros.render.charts import cadence_chart, lifecycle_chart
from macros.render.markdown import Rendered, View, render, render_markdown


@dataclass(frozen=True)
class ComparePage:
    name: str  # URL: compare/<name>.html
    title: str
    description: str
    build: Callable[[Catalog], Table]
    chart: Callable[[Catalog, Table], str] | None = None
    legend: str = ""  # HTML after the chart's caption: what its marks mean
    note: Callable[[Catalog, Table], str] | None = None  # HTML before the table: where the data comes from
    #: Where the values come from, after the description.
    derived: str = "Derived from the release data; follow a link to the item or release page for details and sources."


def wheels_note(catalog: Catalog, table: Table) -> str:
    """What the wheels table is read from, and what it cannot say (finished HTML)."""
    if catalog.pypi is None:
        return '<p class="atlas-wheels-note">No package index snapshot yet: run <code>make index</code>.</p>'
    yanked = sorted(
        file.file
        for files in catalog.pypi.packages.values()
        for file in files
        if file.yanked  # type: ignore[attr-defined]
    )
    yanked_text = ", ".join(f"<code>{html.escape(name)}</code>" for name in yanked) or "none"
    return (
        '<div class="atlas-wheels-note">'
        f"<p>From a snapshot of PyPI's file lists taken on <strong>{catalog.pypi.fetched}</strong> "
        "(<code>make index</code>, committed as <code>data/pypi.json</code>; the same data is at "
        '<a href="../api/v1/wheels.json">api/v1/wheels.json</a>). A re-upload is a file with a build tag, '
        "published after the release to replace the first wheels. Yanked files: "
        f"{yanked_text}.</p>"
        "<p>Only PyPI is covered. The CUDA, ROCm and XPU variant indexes on download.pytorch.org cannot "
        "be reached from the machines that build this site, so the variants on the release pages stay "
        "cited from the release notes and the release matrix.</p></div>"
    )


def ecosystem_note(catalog: Catalog, table: Table) -> str:
    """What the ecosystem table is read from and what "declared" means (finished HTML)."""
    snapshot = catalog.ecosystem
    if snapshot is None:
        return '<p class="atlas-eco-note">No ecosystem snapshot yet: run <code>make index</code>.</p>'
    packages = Ecosystem.of(catalog).packages
    releases = sum(len(entries) for entries in packages.values())
    unknown = sum(1 for entries in packages.values() for entry in entries if entry.release.unknown is not None)
    return (
        '<div class="atlas-eco-note">'
        f"<p>From each package's own metadata on PyPI ({len(packages)} packages, {releases} releases first "
        f"uploaded on or after {snapshot.since}; <code>make index</code>, committed as "
        '<code>data/ecosystem.json</code>, also at <a href="../api/v1/ecosystem.json">api/v1/ecosystem.json</a>). '
        "A cell names the first and the newest release (final, not yanked) whose torch requirement admits a "
        "release of that minor: what the package <em>declares</em>, not what anyone tested. "
        f"<strong>{NO_UPPER_BOUND}</strong>: its requirement has no upper bound, so it admits any newer torch. "
        f"<strong>{EXACT_PIN}</strong>: it requires one torch release (binary packages built against it). "
        "The requirement that counts is the unconditional one, else the one under an extra (<code>torch</code> "
        f"first); other markers are read for {REFERENCE_LABEL}. The metadata of {unknown} releases could not be "
        "read (sdists without Requires-Dist); they count for nothing. Your own packages: the upgrade guides' "
        '"Your packages" box, or <a href="../tools/stack.html"><code>python -m macros stack</code></a> on a '
        "requirements file or a lock.</p></div>"
    )


PAGES: tuple[ComparePage, ...] = (
    ComparePage(
        "platforms",
        "Platforms by release",
        "Python, CUDA with cuDNN and NCCL, the default pip wheel, ROCm, XPU, macOS for MPS, C++ "
        "standard and dropped GPU architectures for every PyTorch release, side by side.",
        compare.platforms_table,
    ),
    ComparePage(
        "companions",
        "Companion library versions",
        "Which torchvision, torchaudio, torchao and torchcodec go with each PyTorch release, and the Python range.",
        compare.companions_table,
    ),
    ComparePage(
        "lifecycle",
        "Deprecations and removals timeline",
        "Every deprecated or removed PyTorch API and platform: when it was deprecated, when it "
        "was removed, and what replaces it.",
        compare.lifecycle_table,
        lambda catalog, table: lifecycle_chart(catalog, table),
        '<span class="atlas-legend"><span class="atlas-swatch atlas-swatch-bar"></span> deprecated, then '
        'removed <span class="atlas-swatch atlas-swatch-open"></span> dashed: still deprecated. Each bar '
        "opens its item.</span>",
    ),
    ComparePage(
        "feature-status",
        "Feature status over time",
        "Features that appear in several PyTorch releases and their status in each: stable, "
        "beta, prototype or API-unstable.",
        compare.feature_status_table,
    ),
    ComparePage(
        "wheels",
        "Wheels on PyPI",
        "For every PyTorch release, which Python versions and platforms have a wheel on PyPI "
        "(free-threaded builds included), when they appeared and which were uploaded again later.",
        compare.wheels_table,
        note=wheels_note,
    ),
    ComparePage(
        "ecosystem",
        "Packages built on torch",
        "For 36 packages built on PyTorch (vLLM, xformers, transformers, Lightning and more): per PyTorch "
        "release, the first and the newest of their releases that declare support for it, read from their "
        "metadata on PyPI.",
        ecosystem_table,
        note=ecosystem_note,
        derived="Hover a version for the requirement it declares.",
    ),
    ComparePage(
        "release-facts",
        "Release facts",
        "PyTorch release dates, days between releases, commits, contributors and patch releases.",
        compare.release_facts_table,
        lambda catalog, table: cadence_chart(catalog),
    ),
)


def page(name: str) -> ComparePage:
    for candidate in PAGES:
        if candidate.name == name:
            return candidate
    raise KeyError(f"no comparison table {name!r}; known: {', '.join(p.name for p in PAGES)}")


#: Every comparison page is in one folder: a cell links the same from all of them.
_LINKS = Links(page_type("compare-index").pattern)


def cell_markdown(cell: Cell) -> str:
    text = f"[{cell.text}]({_LINKS.md(cell.link)})" if cell.link and cell.text else cell.text
    if cell.style and cell.text:
        text = f'<span class="atlas-cell {cell.style}">{text}</span>'
    if cell.changed:
        text += ' <span class="atlas-changed" title="Changed from the previous release">changed</span>'
    if cell.unknown:
        text += f'<br><small class="atlas-unknown">{" ".join(cell.unknown.split())}</small>'
    if cell.disputed:
        text += f" [disputed]({_LINKS.md(cell.disputed)}){{ .atlas-badge .atlas-disputed }}"
    return text.replace("|", "\\|")


#: Fields of a release that no comparison table shows. Under `mkdocs serve` an edit to one of them
#: re-renders no table; tests/test_compare.py changes them and requires every table to stay the same.
COMPARE_IGNORES: frozenset[str] = frozenset({"summary"})


def compare_page_inputs(catalog: Catalog, name: str) -> tuple[object, ...]:
    """What a comparison page is made from (render/made_from.py)."""
    releases = tuple(fields_except(release, COMPARE_IGNORES) for release in catalog.releases)
    return (name, *releases, *catalog.shared_inputs(), catalog.topics)


@dataclass(frozen=True)
class CompareView(View):
    TEMPLATE: ClassVar[str] = "compare.md.j2"
    spec: ComparePage
    table: Table
    chart: str | None  # inline SVG
    note: str | None  # finished HTML before the table
    cell: Callable[[Cell], str]  # a cell as Markdown
    row_label: Callable[[Row], str]  # a row's heading cell, with its anchors


@dataclass(frozen=True)
class CompareIndexView(View):
    TEMPLATE: ClassVar[str] = "compare_index.md.j2"
    pages: tuple[ComparePage, ...]
    links: Links


def render_compare_page(catalog: Catalog, name: str) -> Rendered:
    spec = page(name)
    table = spec.build(catalog)
    chart = spec.chart(catalog, table) if spec.chart else None
    note = spec.note(catalog, table) if spec.note else None
    return render(CompareView(spec, table, chart, note, cell_markdown, _row_label))


def _row_label(row: Row) -> str:
    anchor = "".join(f'<span id="{name}"></span>' for name in ((row.id,) if row.id else ()) + row.also)
    return anchor + row.label.replace("|", "\\|")


def render_compare_index(catalog: Catalog) -> str:
    return render_markdown(CompareIndexView(PAGES, _LINKS))
