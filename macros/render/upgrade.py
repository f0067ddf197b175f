"""Renderers for the upgrade guides (`upgrade/A-to-B.html`) and their index."""

from __future__ import annotations

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
from macros.query.guide import Entry, UpgradeGuide, all_pairs, live_deprecations, upgrade_guide
from macros.query.install import InstallVariant, cuda_tag, install_variants, newest_patch
from macros.query.site import Links, page_type
from macros.render.markdown import Rendered, View, render, render_markdown, template_module
from macros.render.release import ItemHelpers, cite_html, item_helpers

GUIDE, GUIDE_INDEX = page_type("guide"), page_type("guide-index")

#: Where a guide row's citation numbers go: the row is shared by every guide, the numbers are not.
_CITES_HERE = "\x1fcites\x1f"


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
            guide_row_html=guide_row_writer(catalog, citations),
            facts_json=env_facts_json(catalog),
        )
    )


def guide_row_writer(catalog: Catalog, citations: Citations) -> Callable[[Entry], str]:
    """`guide_row_html(entry)` for one guide: the item's row, written once per catalog (every guide
    links to the same release pages), with this page's citation numbers."""

    def row_module() -> Any:
        # Every guide is in the same folder: one row links the same from all of them.
        helpers = item_helpers(catalog, citations, page=GUIDE_INDEX.pattern)
        helpers["cite_html"] = lambda source_ids: _CITES_HERE
        return template_module(ItemHelpers(**helpers))

    module = catalog.memo(("guide-row-module",), row_module)

    def row(entry: Entry) -> str:
        key = ("guide-row", entry.item.id, entry.release.version)
        html = catalog.memo(key, lambda: str(module.guide_row(entry)))
        return html.replace(_CITES_HERE, cite_html(citations, entry.item.sources))

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
