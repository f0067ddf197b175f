"""Renderer for one release page (`releases/X.Y.html`): facts, platform, install, items, sources."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from macros.dataset.model import Dispute, Item, Ledger, Release, Source
from macros.dataset.text import plain_text, text_html
from macros.dataset.vocabulary import KIND_SECTIONS, KINDS, NOT_FELT_REASONS, TIERS
from macros.query.catalog import Catalog, Citations, fields_except, items_except
from macros.query.coverage import ledger_tally
from macros.query.gpu import GpuSupport, gpu_sources, gpu_support, known_gpus
from macros.query.install import InstallVariant, install_variants
from macros.query.platform import DROPS_LABEL, PLATFORM_FACTS, drop_text
from macros.query.site import Links, page_type
from macros.render.markdown import Rendered, View, render

#: Page sections in reading order: (anchor, heading, kinds shown there), from the vocabulary.
SECTIONS = KIND_SECTIONS


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
    # In a Markdown link title a backslash escapes the next character: written as a reference.
    return _citations(citations, source_ids, lambda n, source: f'[{n}](#src-{source.id} "{_markdown_title(source)}")')


@lru_cache(maxsize=4096)
def _markdown_title(source: Source) -> str:
    return plain_text(source.title).replace("\\", "&#92;")


@lru_cache(maxsize=4096)
def _title(source: Source) -> str:
    """A source's title as an attribute value (cited thousands of times per build)."""
    return plain_text(source.title)


def cite_html(citations: Citations, source_ids: list[str]) -> str:
    """Citations for finished HTML (guide rows)."""

    def link(number: int, source: Source) -> str:
        return f'<a href="#src-{source.id}" title="{_title(source)}">{number}</a>'

    return _citations(citations, source_ids, link)


def platform_rows(release: Release, citations: Citations) -> list[PlatformRow]:
    """The release's platform facts (the list every view shares), then its dropped architectures."""
    rows = []
    for fact in PLATFORM_FACTS:
        value = fact.read(release, citations.catalog.pypi)
        text = value.text or ""
        if value.unknown is not None:
            text += ("; " if text else "") + f"Unknown: {text_html(value.unknown)}"
        rows.append(PlatformRow(fact.label, text, cite(citations, list(value.sources))))
    for drop in release.platform.architectures_dropped:
        value = drop_text(drop)
        if drop.instead:
            value += f"; instead: {text_html(drop.instead.rstrip('.'))}"
        if drop.item:
            value += f" ([details](#{drop.item}))"
        rows.append(PlatformRow(DROPS_LABEL, value, cite(citations, drop.sources)))
    if not release.platform.architectures_dropped:
        rows.append(PlatformRow(DROPS_LABEL, "none", ""))
    return rows


def lifecycle_links(catalog: Catalog, item: Item, link: Callable[[str, str], str]) -> list[tuple[str, str, str]]:
    """(verb, version, link) for each step of the item's lifecycle, when it has more than one."""
    chain = catalog.lifecycle(item.id)
    if len(chain) < 2:
        return []
    return [(KINDS[step.kind].verb, release.version, link(release.version, step.id)) for release, step in chain]


@dataclass(frozen=True)
class ItemHelpers(View):
    """What `item.j2` needs on a page: a view that shows items extends this one."""

    TEMPLATE: ClassVar[str] = "item.j2"
    catalog: Catalog
    cite_html: Callable[[list[str]], str]  # source ids -> the citation marks, in finished HTML
    lifecycle: Callable[[Item], list[tuple[str, str, str]]]
    item_link: Callable[..., str]  # (item, anchor=None) -> the .html link to it on its release page
    previous_of: Callable[[Item], str | None]  # the version before the item's release


def item_helpers(catalog: Catalog, citations: Citations, *, page: str) -> dict[str, Any]:
    """The `ItemHelpers` fields for the page at `page` (relative to docs/). Items are written in
    finished HTML, which skips MkDocs, so their links name the built .html pages."""
    links = Links(page)

    def link(version: str, anchor: str) -> str:
        return links.html("release", anchor, version=version)

    def previous_of(item: Item) -> str | None:
        before = catalog.previous(catalog.release_of(item.id))
        return before.version if before else None

    return {
        "catalog": catalog,
        "cite_html": lambda ids: cite_html(citations, ids),
        "lifecycle": lambda item: lifecycle_links(catalog, item, link),
        "item_link": lambda item, anchor=None: link(catalog.release_of(item.id).version, anchor or item.id),
        "previous_of": previous_of,
    }


@dataclass(frozen=True)
class ReleasePageView(ItemHelpers):
    TEMPLATE: ClassVar[str] = "release.md.j2"
    links: Links
    release: Release
    size: str  # commits and contributors, in words
    upgrade_links: str  # Markdown links to the guides into and out of the release
    header_cites: str
    stats_cites: str
    sections: list[tuple[str, str, list[Item]]]  # (anchor, title, items), in page order
    platform: list[PlatformRow]
    installs: list[InstallVariant]
    gpu: GpuSupport
    gpu_sources: list[str]
    cite: Callable[[list[str]], str]  # source ids -> citation marks, in Markdown
    claimants: Callable[[Dispute], str]  # who claims a disputed value, with their tiers
    citations: Citations
    notes_read: str  # how much of the official notes was decided entry by entry (the ledger)


def notes_read(ledger: Ledger | None, cite_ids: Callable[[list[str]], str]) -> str:
    """What the ledger says of the release's notes, for a reader: every entry decided (or how
    many so far), how many are covered by items, and why the others are not."""
    if ledger is None:
        return (
            "Not decided entry by entry: no full text of the official notes was found, so this page "
            "may miss changes the sources above do not name."
        )
    tally = ledger_tally(ledger)
    reasons = " · ".join(f"{count:,} {NOT_FELT_REASONS.label(reason)}" for reason, count in tally.not_felt)
    decided = (
        # "read": where only part of the notes could be found (2.4), the ledger holds that part.
        f"All {tally.total:,} entries read from the official notes decided"
        if tally.decided == tally.total
        else f"{tally.decided:,} of the {tally.total:,} entries read from the official notes decided so far"
    )
    return (
        f"{decided}{cite_ids([ledger.notes])}: {tally.covered:,} covered by the changes listed on this site, "
        f"{tally.not_felt_count:,} judged not felt by someone upgrading" + (f" ({reasons})" if reasons else "") + "."
    )


def upgrade_links(catalog: Catalog, release: Release, links: Links) -> str:
    """Links to the guides into this release from the previous one, and from it to the latest."""
    found = []
    previous = catalog.previous(release)
    if previous:
        found.append(f"[from {previous.version}]({links.md('guide', start=previous.version, end=release.version)})")
    if release != catalog.latest:
        latest = catalog.latest.version
        found.append(f"[to the latest, {latest}]({links.md('guide', start=release.version, end=latest)})")
    found.append(f"[all guides]({links.md('guide-index')})")
    return " · ".join(found)


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


#: Fields of the other releases that a release page does not show. Under `mkdocs serve` an edit to
#: one of them (2.15's summary) re-renders only that release's own page. tests/test_render.py
#: changes them in every other release and requires each page to stay the same.
OTHER_RELEASES_IGNORED: frozenset[str] = frozenset({"summary"})

#: Fields of the other releases' items that a release page does not show: an edit to 2.15's item
#: summary re-renders 2.15's page only. tests/test_render.py proves it like the set above.
OTHER_RELEASES_ITEM_IGNORED: frozenset[str] = frozenset(
    {"title", "summary", "action", "before", "after", "code_lang", "replacement", "prs"}
)


def release_page_inputs(catalog: Catalog, version: str) -> tuple[object, ...]:
    """What the page of `version` is made from (render/made_from.py): its release, what it reads
    of the others, the source registry, the package index and the GPU and driver tables."""
    others = tuple(
        release
        if release.version == version
        else (
            *fields_except(release, OTHER_RELEASES_IGNORED | {"items"}),
            items_except(catalog, release, OTHER_RELEASES_ITEM_IGNORED),
        )
        for release in catalog.releases
    )
    return (version, *others, *catalog.shared_inputs(), catalog.ledgers.get(version))


def render_release_page(catalog: Catalog, version: str) -> Rendered:
    release = catalog.release(version)
    page = page_type("release").path(version=version)
    citations = Citations(catalog)
    previous = catalog.previous(release)
    header_cites = cite(citations, release.sources)
    sections = [
        (anchor, title, [item for item in release.items if item.kind in kinds]) for anchor, title, kinds in SECTIONS
    ]
    return render(
        ReleasePageView(
            **item_helpers(catalog, citations, page=page),
            links=Links(page),
            release=release,
            size=size_text(release, previous),
            upgrade_links=upgrade_links(catalog, release, Links(page)),
            header_cites=header_cites,
            stats_cites=cite(citations, release.stats.sources),
            sections=sections,
            platform=platform_rows(release, citations),
            installs=install_variants(release),
            gpu=gpu_support(release, known_gpus(catalog.gpus)),
            gpu_sources=gpu_sources(release),
            cite=lambda ids: cite(citations, ids),
            claimants=lambda dispute: ", ".join(
                f"{text_html(catalog.sources[s].publisher)} ({TIERS.label(catalog.sources[s].tier)})"
                + cite(citations, [s])
                for s in dispute.claimed_by
            ),
            citations=citations,
            notes_read=notes_read(catalog.ledgers.get(version), lambda ids: cite(citations, ids)),
        )
    )
