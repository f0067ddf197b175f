"""Renderers for the upgrade guides (`upgrade/A-to-B.html`) and their index."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from macros.dataset.model import AREAS, Dispute, Release
from macros.dataset.vocabulary import (
    CPU,
    CUDA,
    DEPRECATION,
    MPS,
    OPERATING_SYSTEMS,
    ROCM,
    SOURCE,
    XPU,
    family,
    variant_rank,
)
from macros.query.catalog import Catalog, Citations
from macros.query.deprecation_filters import Filters, deprecation_filters
from macros.query.env_facts import env_facts_json
from macros.query.gpu import GpuSupport, gpu_sources, gpu_support, known_gpus
from macros.query.guide import (
    ROW_ONLY_ITEM_FIELDS,
    Entry,
    UpgradeGuide,
    all_pairs,
    guide_inputs,
    live_deprecations,
    upgrade_guide,
)
from macros.query.install import InstallVariant, cuda_tag, install_variants, newest_patch
from macros.query.site import Links, page_type
from macros.render.made_from import MadeFrom
from macros.render.markdown import Rendered, View, render, render_markdown, template_module
from macros.render.release import ItemHelpers, cite_html, item_helpers

GUIDE, GUIDE_INDEX = page_type("guide"), page_type("guide-index")

#: Where a guide row's citation numbers go: the row is shared by every guide, the numbers are not.
_CITES_HERE = "\x1fcites\x1f"

#: Where a row goes in a rendered guide: the release, the item and the page's citation numbers
#: for it. The rows go in last (`fill_rows`), so the rest of the guide need not be rendered again
#: when only a row changes.
_ROW_HERE = re.compile("\x1frow ([^ \x1f]+) ([^ \x1f]+)\x1f([^\x1f]*)\x1f")

#: Each guide without its rows, kept with what it was made from (`guide_inputs` less the item
#: fields only rows show) across `mkdocs serve` rebuilds.
_without_rows = MadeFrom()


@dataclass(frozen=True)
class SetupChoices:
    variants: list[tuple[str, str]]  # (value, label) for the Wheel control
    pythons: list[str]
    systems: list[tuple[str, str]] = field(
        default_factory=lambda: [(term.value, term.label) for term in OPERATING_SYSTEMS]
    )  # (value, label) for the OS control


@dataclass(frozen=True)
class GuideView(ItemHelpers):
    TEMPLATE: ClassVar[str] = "upgrade.md.j2"
    links: Links
    guide: UpgradeGuide
    became_removals: list[Entry]  # changes that complete an earlier deprecation
    completes: dict[str, list[str]]  # item id -> the deprecations it ends that anchor at its row
    kept_anchors: list[str]  # anchors with no row of their own, kept for old links
    areas: tuple[str, ...]
    disputes: list[tuple[Release, Dispute]]
    citations: Citations
    installs: list[InstallVariant]  # B's newest patch, per wheel
    gpu: GpuSupport
    gpu_sources: list[str]
    filters: Filters
    b_pythons: list[str]
    b_patch: str
    setup: SetupChoices
    guide_row_html: Callable[[Entry], str]
    facts_json: str  # the facts the page's script reads (#atlas-facts)


@dataclass(frozen=True)
class GuideIndexView(View):
    TEMPLATE: ClassVar[str] = "upgrade_index.md.j2"
    versions: list[str]  # oldest first
    pairs: set[tuple[str, str]]
    latest: str
    setup: SetupChoices
    facts_json: str
    links: Links


def render_upgrade_guide(catalog: Catalog, start: str, end: str) -> Rendered:
    """The guide's page: rendered without its rows, then each row put in."""
    return fill_rows(catalog, render_guide_without_rows(catalog, start, end))


def render_upgrade_guide_kept(catalog: Catalog, start: str, end: str) -> Rendered:
    """The same page, for `mkdocs serve`: the guide without its rows is kept from the last build
    while what it is made from (`guide_inputs` less `ROW_ONLY_ITEM_FIELDS`) is the same; only the
    rows are put in again."""
    skeleton = _without_rows.get(
        GUIDE.path(start=start, end=end),
        guide_inputs(catalog, start, end, ROW_ONLY_ITEM_FIELDS),
        lambda: render_guide_without_rows(catalog, start, end),
    )
    return fill_rows(catalog, skeleton)


def fill_rows(catalog: Catalog, rendered: Rendered) -> Rendered:
    """`rendered` with each row marker replaced by the item's row from this catalog."""
    row = _row_html(catalog)

    def filled(text: str) -> str:
        return _ROW_HERE.sub(lambda found: row(found[1], found[2]).replace(_CITES_HERE, found[3]), text)

    blocks = {marker: filled(html) for marker, html in rendered.finished_html.items()}
    return Rendered(filled(rendered.markdown), blocks)


def render_guide_without_rows(catalog: Catalog, start: str, end: str) -> Rendered:
    """The guide with a marker where each row goes (`fill_rows` puts them in)."""
    guide = upgrade_guide(catalog, start, end)
    citations = Citations(catalog)
    became_removals = [
        entry
        for entry in guide.changes
        if any(step.kind == DEPRECATION for _, step in catalog.lifecycle(entry.item.id) if step.id != entry.item.id)
    ]
    disputes = [(release, dispute) for release in guide.crossed for dispute in release.disputes]
    # Anchors the guide once had must keep landing (wiki links): a deprecation the range now
    # completes anchors at its completion, any other item of the range without a row of its own
    # (a correction made it a non-change) at the line that leads to its release.
    rows = {e.item.id for e in [*guide.install, *guide.breaking, *guide.plan_for, *guide.regressions]}
    # The deprecations each completion ends, A's own included (a guide from A once planned for
    # them); each anchored once, at the first completion that names it.
    completes: dict[str, list[str]] = {}
    anchored = set(rows)
    for entry in became_removals:
        ended = [step.id for _, step in catalog.lifecycle(entry.item.id) if step.kind == DEPRECATION]
        completes[entry.item.id] = [step for step in ended if step not in anchored]
        anchored.update(ended)
    kept_anchors = [
        name
        for release in guide.crossed
        for item in release.items
        if item.id not in anchored
        for name in (item.id, *item.aliases)
    ]
    # An item the notes listed under a crossed release but that shipped later keeps its anchor
    # here when its real release is outside the range (inside it, its row carries the anchor).
    kept_anchors += [
        moved.id
        for release in guide.crossed
        for moved in release.moved
        if catalog.release_of(moved.id) not in guide.crossed and moved.id not in anchored
    ]
    return render(
        GuideView(
            **item_helpers(catalog, citations, page=GUIDE.path(start=start, end=end)),
            links=Links(GUIDE.path(start=start, end=end)),
            guide=guide,
            became_removals=became_removals,
            completes=completes,
            kept_anchors=kept_anchors,
            areas=AREAS,
            disputes=disputes,
            citations=citations,
            installs=install_variants(guide.end, latest_patch=True),
            gpu=gpu_support(guide.end, known_gpus(catalog.gpus)),
            gpu_sources=gpu_sources(guide.end),
            filters=deprecation_filters(live_deprecations(catalog, guide)),
            b_pythons=python_versions(guide.end),
            b_patch=newest_patch(guide.end),
            setup=setup_choices(guide.start, guide.end),
            guide_row_html=guide_row_writer(citations),
            facts_json=env_facts_json(catalog),
        )
    )


def guide_row_writer(citations: Citations) -> Callable[[Entry], str]:
    """`guide_row_html(entry)` for one guide: a marker where the item's row goes, with this page's
    citation numbers for it (numbered in the order the page cites them)."""

    def row(entry: Entry) -> str:
        return f"\x1frow {entry.release.version} {entry.item.id}\x1f{cite_html(citations, entry.item.sources)}\x1f"

    return row


def _row_html(catalog: Catalog) -> Callable[[str, str], str]:
    """The row of the item `item_id` of release `version`, written once per catalog (every guide
    is in the same folder, so a row links the same from all of them)."""

    def row_module() -> Any:
        helpers = item_helpers(catalog, Citations(catalog), page=GUIDE_INDEX.pattern)
        helpers["cite_html"] = lambda source_ids: _CITES_HERE
        return template_module(ItemHelpers(**helpers))

    module = catalog.memo(("guide-row-module",), row_module)

    def row(version: str, item_id: str) -> str:
        def make() -> str:
            release, item = catalog.items[item_id]
            if release.version != version:
                raise LookupError(f"a guide row for {item_id} of {version}, which is in {release.version} (a bug)")
            return str(module.guide_row(Entry(release, item)))

        return catalog.memo(("guide-row", item_id, version), make)  # type: ignore[no-any-return]

    return row


def setup_choices(*releases: Release) -> SetupChoices:
    """What the "Your setup" controls offer: the wheels and Pythons of these releases (a guide's
    two ends; every release on the guide index)."""
    variants: dict[str, str] = {CPU: family(CPU).label}
    pythons: set[str] = set()
    for release in releases:
        platform = release.platform
        for build in platform.cuda.stable + platform.cuda.experimental:
            variants[cuda_tag(build.version)] = f"{family(CUDA).label} {build.version} ({cuda_tag(build.version)})"
        for version in platform.rocm.stable or []:
            variants[f"{ROCM}{version}"] = f"{family(ROCM).label} {version}"
        if platform.xpu.wheels:
            variants[XPU] = family(XPU).label
        pythons |= set(python_versions(release))
    variants |= {name: family(name).label for name in (MPS, SOURCE)}
    ordered = sorted(pythons, key=lambda p: (int(p.rstrip("t").split(".")[1]), p.endswith("t")))
    return SetupChoices(sorted(variants.items(), key=lambda kv: (variant_rank(kv[0]), kv[0])), ordered)


def python_versions(release: Release) -> list[str]:
    """Every Python a release has wheels for: 3.10 … 3.14, then the free-threaded builds."""
    python = release.platform.python
    low, high = (int(v.split(".")[1]) for v in (python.min, python.max))
    return [f"3.{minor}" for minor in range(low, high + 1)] + list(python.free_threaded)


def render_upgrade_index(catalog: Catalog) -> str:
    versions = [release.version for release in catalog.releases]
    return render_markdown(
        GuideIndexView(
            versions=versions,
            pairs=set(all_pairs(catalog)),
            latest=versions[-1],
            setup=setup_choices(*catalog.releases),
            facts_json=env_facts_json(catalog),
            links=Links(GUIDE_INDEX.pattern),
        )
    )
