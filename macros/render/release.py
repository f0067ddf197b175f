"""Renderer for one release page (`releases/X.Y.html`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from macros.catalog import Catalog, Citations
from macros.install import install_variants
from macros.model import Cited, Item, Release, Source
from macros.render.text import TIER_LABELS, inline, plain, template

#: Page sections in reading order: (anchor, heading, kinds shown there).
SECTIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("highlights", "Highlights", ("highlight",)),
    ("breaking-changes", "Breaking changes", ("breaking",)),
    ("deprecations", "Deprecations", ("deprecation",)),
    ("removals", "Removals", ("removal",)),
    ("platform-changes", "Platform changes", ("platform",)),
    ("new-features", "New features and improvements", ("feature", "improvement")),
    ("known-regressions", "Known regressions", ("regression",)),
)


@dataclass(frozen=True)
class PlatformRow:
    label: str
    value: str
    cites: str


def _citations(citations: Citations, source_ids: list[str], link: Callable[[int, Source], str]) -> str:
    """Superscript citation links, in number order, to the numbered source list at the page's end."""
    if not source_ids:
        return ""
    numbered = sorted(citations.cite(source_ids), key=lambda pair: pair[0])
    return '<sup class="atlas-cite">[' + ", ".join(link(number, source) for number, source in numbered) + "]</sup>"


def cite(citations: Citations, source_ids: list[str]) -> str:
    """Citations for Markdown."""
    return _citations(citations, source_ids, lambda n, source: f'[{n}](#src-{source.id} "{inline(source.title)}")')


def cite_html(citations: Citations, source_ids: list[str]) -> str:
    """Citations for finished HTML (guide rows)."""
    return _citations(
        citations, source_ids, lambda n, source: f'<a href="#src-{source.id}" title="{plain(source.title)}">{n}</a>'
    )


def _unknown(block: Cited, field: str, value: str) -> str:
    if field in block.unknown:
        return f"Unknown: {inline(block.unknown[field])}"
    return value


def platform_rows(release: Release, citations: Citations) -> list[PlatformRow]:
    p = release.platform
    python, cuda, cpp = p.python, p.cuda, p.cpp

    def builds(entries) -> str:
        parts = []
        for build in entries:
            extras = [
                f"cuDNN {build.cudnn}" if build.cudnn else "",
                f"NCCL {build.nccl}" if build.nccl else "",
            ]
            extra = ", ".join(e for e in extras if e)
            parts.append(f"{build.version}" + (f" ({extra})" if extra else ""))
        return "<br>".join(parts) or "none"

    rows = [
        ("Python", f"{python.min} to {python.max}", python),
        ("Free-threaded Python", ", ".join(python.free_threaded) or "none", python),
        ("Experimental / preview Python", ", ".join(python.experimental) or "none", python),
        ("CUDA (stable)", builds(cuda.stable), cuda),
        ("CUDA (experimental)", builds(cuda.experimental), cuda),
        ("CUDA of `pip install torch`", _unknown(cuda, "default_wheel", cuda.default_wheel or ""), cuda),
        ("ROCm", ", ".join(p.rocm.stable), p.rocm),
        ("Intel XPU", _xpu(p.xpu), p.xpu),
        ("macOS for MPS", _unknown(p.macos, "mps_min", f"macOS {p.macos.mps_min} or newer"), p.macos),
        ("C++ to include the headers", _unknown(cpp, "headers", cpp.headers or ""), cpp),
        ("C++ to build from source", _unknown(cpp, "source_build", cpp.source_build or ""), cpp),
    ]
    result = [PlatformRow(label, value, cite(citations, block.sources)) for label, value, block in rows]
    for drop in p.architectures_dropped:
        value = f"{inline(drop.architectures)} from {', '.join(drop.wheels)}"
        if drop.instead:
            value += f"; use {inline(drop.instead)}"
        if drop.item:
            value += f" ([details](#{drop.item}))"
        result.append(PlatformRow("GPU architectures dropped", value, cite(citations, drop.sources)))
    if not p.architectures_dropped:
        result.append(PlatformRow("GPU architectures dropped", "none", ""))
    return result


def _xpu(xpu) -> str:
    if not xpu.wheels:
        return "no wheels"
    package = _unknown(xpu, "support_package", f"support package {xpu.support_package}")
    return f"wheels available; {package}"


def lifecycle_links(catalog: Catalog, item: Item, prefix: str = "") -> list[tuple[str, str, str]]:
    """(label, version, link) for each step of the item's lifecycle, when it has more than one.
    Links name the built .html pages: item bodies are converted ahead (`finished_markdown`)."""
    chain = catalog.lifecycle(item.id)
    if len(chain) < 2:
        return []
    return [
        (KIND_VERBS.get(step.kind, step.kind), release.version, f"{prefix}{release.version}.html#{step.id}")
        for release, step in chain
    ]


KIND_VERBS = {
    "deprecation": "deprecated",
    "removal": "removed",
    "breaking": "changed",
    "platform": "changed",
    "feature": "introduced",
    "highlight": "introduced",
    "improvement": "improved",
    "regression": "regressed",
}


def item_helpers(catalog: Catalog, citations: Citations, prefix: str) -> dict:
    """What `_item.md.j2` and `_guide_rows.html.j2` need; `prefix` is the path from the page to releases/.

    Both templates produce HTML that MkDocs does not rewrite (finished_markdown, set_aside), so
    `release_href` and the lifecycle links name the built .html pages.
    """

    def previous_of(item: Item) -> str | None:
        before = catalog.previous(catalog.release_of(item.id))
        return before.version if before else None

    return {
        "cite": lambda ids: cite(citations, ids),
        "cite_html": lambda ids: cite_html(citations, ids),
        "lifecycle": lambda item: lifecycle_links(catalog, item, prefix),
        "release_href": lambda item: f"{prefix}{catalog.release_of(item.id).version}.html",
        "previous_of": previous_of,
    }


def upgrade_links(catalog: Catalog, release: Release) -> str:
    """Links to the guides into this release from the previous one, and from it to the latest."""
    links = []
    previous = catalog.previous(release)
    if previous:
        links.append(f"[from {previous.version}](../upgrade/{previous.version}-to-{release.version}.md)")
    if release != catalog.latest:
        latest = catalog.latest.version
        links.append(f"[to the latest, {latest}](../upgrade/{release.version}-to-{latest}.md)")
    links.append("[all guides](../upgrade/index.md)")
    return " · ".join(links)


def size_text(release: Release, previous: Release | None) -> str:
    stats = release.stats
    if stats.commits is None and stats.contributors is None:
        return "Unknown"
    parts = [
        f"{stats.commits:,} commits" if stats.commits else "commits unknown",
        f"{stats.contributors:,} contributors" if stats.contributors else "contributors unknown",
    ]
    since = f" since {previous.version}" if previous else ""
    return " from ".join(parts) + since


def render_release_page(catalog: Catalog, version: str) -> str:
    release = catalog.release(version)
    citations = Citations(catalog)
    previous = catalog.previous(release)
    header_cites = cite(citations, release.sources)
    sections = [
        (anchor, title, [item for item in release.items if item.kind in kinds]) for anchor, title, kinds in SECTIONS
    ]
    return template("release.md.j2").render(
        release=release,
        size=size_text(release, previous),
        upgrade_links=upgrade_links(catalog, release),
        header_cites=header_cites,
        stats_cites=cite(citations, release.stats.sources),
        sections=sections,
        platform=platform_rows(release, citations),
        installs=install_variants(release),
        catalog=catalog,
        **item_helpers(catalog, citations, prefix=""),
        claimants=lambda dispute: ", ".join(
            f"{inline(catalog.sources[s].publisher)} ({TIER_LABELS[catalog.sources[s].tier]})" + cite(citations, [s])
            for s in dispute.claimed_by
        ),
        citations=citations,
    )
