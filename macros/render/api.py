"""Renderer for machines: the static JSON API (`api/v1/...`).

Built from the same catalog and guide queries as the pages (a guide is computed once for both);
never hand-written. `api_files` returns `{path: text}`; the edge adds them to the site. The schemas
of these files depend on the code only, so they are written once by `make schema` into docs/.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from macros.dataset import wheels as wheel_facts
from macros.dataset.checks import cited_sources
from macros.dataset.model import AppliesTo, Item, Platform, Release, Source
from macros.query.catalog import Catalog
from macros.query.ecosystem import REFERENCE_LABEL, Ecosystem, counted
from macros.query.guide import ROW_ONLY_ITEM_FIELDS, all_pairs, guide_inputs, upgrade_guide
from macros.query.site import page_url
from macros.render.made_from import MadeFrom

API = "api/v1"


class ItemRecord(BaseModel):
    """One item in items.json: the item plus where it lives and its lifecycle."""

    model_config = ConfigDict(extra="forbid")
    release: str
    url: str
    item: Item
    lifecycle: list[str]  # ids, oldest first


class ReleaseSummary(BaseModel):
    # The published key is `json`; the Python name differs because `json` shadows a BaseModel method.
    model_config = ConfigDict(extra="forbid", serialize_by_alias=True, validate_by_name=True)
    version: str
    date: str
    summary: str
    url: str
    json_url: str = Field(alias="json")
    commits: int | None
    contributors: int | None
    platform: Platform
    item_counts: dict[str, int]


class GuideRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")
    start: str
    end: str
    url: str
    crossed: list[str]
    counts_by_effect: dict[str, int]
    platform_delta: list[dict[str, Any]]
    checks_first: list[str]
    install: list[str]
    breaking: list[str]
    plan_for: list[str]
    features: list[str]
    regressions: list[str]
    applies_to: dict[str, AppliesTo] = Field(
        description="Item id -> the environments it concerns, for the listed items that concern only some."
    )


class ReleaseDocument(BaseModel):
    model_config = ConfigDict(extra="forbid")
    url: str
    release: Release
    sources: list[Source]


class WheelRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")
    file: str
    package: str
    version: str
    build: str = Field(description="Build tag of a file uploaded again to replace the first one; empty if none.")
    python: list[str] = Field(description="Python versions, '3.13t' for free-threaded.")
    platform: list[str]
    uploaded: str
    size: int
    yanked: bool


class WheelsDocument(BaseModel):
    """api/v1/wheels.json: the package index snapshot behind compare/wheels.html."""

    model_config = ConfigDict(extra="forbid")
    fetched: str | None = Field(description="Day of the snapshot (`make index`); null when there is none.")
    source: str | None
    wheels: list[WheelRecord]


def wheels_document(catalog: Catalog) -> WheelsDocument:
    if catalog.pypi is None:
        return WheelsDocument(fetched=None, source=None, wheels=[])
    records = [
        WheelRecord(
            file=w.file.file,
            package=w.package,
            version=w.version,
            build=w.build,
            python=sorted(w.pythons, key=wheel_facts.key),
            platform=sorted(w.platforms),
            uploaded=w.file.uploaded,
            size=w.file.size,
            yanked=w.file.yanked,
        )
        for package in catalog.pypi.packages
        for w in wheel_facts.wheels(catalog.pypi, package)
    ]
    return WheelsDocument(fetched=catalog.pypi.fetched, source=catalog.pypi.source, wheels=records)


class EcosystemReleaseRecord(BaseModel):
    """One release of a package built on torch, with what the site reads from it."""

    model_config = ConfigDict(extra="forbid")
    version: str
    uploaded: str = Field(description="Day the first file of the release was uploaded (YYYY-MM-DD).")
    yanked: bool
    requires_python: str | None
    requires: list[str] = Field(description="Requires-Dist on torch or a first-party package, markers kept.")
    source: str | None = Field(description="metadata (PEP 658 file), wheel (its METADATA) or sdist (PKG-INFO).")
    unknown: str | None = Field(description="Why the metadata could not be read; then nothing is known.")
    torch_requirement: str | None = Field(
        description="The torch requirement that counts: the unconditional one, else the one under an extra."
    )
    allows: list[str] | None = Field(
        description="The torch releases (X.Y) that requirement admits; null when the metadata is unknown."
    )


class EcosystemDocument(BaseModel):
    """api/v1/ecosystem.json: the ecosystem snapshot behind compare/ecosystem.html, the guides'
    "Your packages" box and `python -m macros stack`."""

    model_config = ConfigDict(extra="forbid")
    source: str | None = Field(description="The package index read (`make index`); null when there is no snapshot.")
    since: str | None
    reference_environment: str = Field(description="The environment markers other than `extra` are read for.")
    minors: list[str] = Field(description="The torch releases the answers are about, oldest first.")
    packages: dict[str, list[EcosystemReleaseRecord]] = Field(description="PEP 503 name -> releases, oldest first.")


def ecosystem_document(catalog: Catalog) -> EcosystemDocument:
    ecosystem = Ecosystem.of(catalog)
    snapshot = catalog.ecosystem
    packages = {
        name: [
            EcosystemReleaseRecord(
                **entry.release.model_dump(),
                torch_requirement=(
                    requirement.text
                    if entry.release.unknown is None and (requirement := counted(entry.release))
                    else None
                ),
                allows=ecosystem.allowed_minors(entry.release),
            )
            for entry in entries
        ]
        for name, entries in ecosystem.packages.items()
    }
    return EcosystemDocument(
        source=snapshot.source if snapshot else None,
        since=snapshot.since if snapshot else None,
        reference_environment=REFERENCE_LABEL,
        minors=ecosystem.minors,
        packages=packages,
    )


def api_schemas() -> dict[str, TypeAdapter]:
    """The published JSON Schemas (`api/v1/schema/`), one per kind of file. They are committed
    under docs/ by `make schema` (macros/tools/schema.py) rather than generated on each build,
    and built only when asked for: a site build does not need them."""
    return {
        "releases.schema.json": TypeAdapter(list[ReleaseSummary]),
        "release.schema.json": TypeAdapter(ReleaseDocument),
        "items.schema.json": TypeAdapter(list[ItemRecord]),
        "upgrade.schema.json": TypeAdapter(GuideRecord),
        "wheels.schema.json": TypeAdapter(WheelsDocument),
        "ecosystem.schema.json": TypeAdapter(EcosystemDocument),
    }


def _dump(value: Any) -> str:
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


#: JSON files kept across `mkdocs serve` rebuilds: pretty-printed JSON is the slowest part of the API.
_made_from = MadeFrom()


def _page_url(site_url: str, path: str) -> str:
    return site_url.rstrip("/") + "/" + path


def api_files(catalog: Catalog, site_url: str) -> dict[str, str]:
    files: dict[str, str] = {}
    summaries = []
    for release in catalog.releases:
        counts: dict[str, int] = {}
        for item in release.items:
            counts[item.kind] = counts.get(item.kind, 0) + 1
        summaries.append(
            ReleaseSummary(
                version=release.version,
                date=release.date,
                summary=release.summary,
                url=page_url(site_url, "release", version=release.version),
                json_url=_page_url(site_url, f"{API}/releases/{release.version}.json"),
                commits=release.stats.commits,
                contributors=release.stats.contributors,
                platform=release.platform,
                item_counts=counts,
            ).model_dump(mode="json")
        )
        path = f"{API}/releases/{release.version}.json"
        # Its sources are looked up only when the release changed; the registry is an input too.
        files[path] = _made_from.get(
            path,
            (release, site_url, *catalog.sources.values()),
            lambda release=release: _release_document(catalog, release, site_url),
        )
    files[f"{API}/releases.json"] = _dump(summaries)

    def items_document() -> str:
        items = [
            ItemRecord(
                release=release.version,
                url=page_url(site_url, "release", item.id, version=release.version),
                item=item,
                lifecycle=[step.id for _, step in catalog.lifecycle(item.id)],
            ).model_dump(mode="json")
            for release in catalog.releases
            for item in release.items
        ]
        return _dump(items)

    # Made from each release's version and items only: a release's summary or counts leave it be.
    items_inputs = tuple((release.version, release.items) for release in catalog.releases)
    files[f"{API}/items.json"] = _made_from.get(f"{API}/items.json", (items_inputs, site_url), items_document)
    files[f"{API}/wheels.json"] = _made_from.get(
        f"{API}/wheels.json", (catalog.pypi,), lambda: _dump(wheels_document(catalog).model_dump(mode="json"))
    )
    files[f"{API}/ecosystem.json"] = _made_from.get(
        f"{API}/ecosystem.json",
        (catalog.ecosystem, catalog.pypi, tuple(r.version for r in catalog.releases)),
        lambda: _dump(ecosystem_document(catalog).model_dump(mode="json")),
    )
    for start, end in all_pairs(catalog):
        path = f"{API}/upgrade/{start}-to-{end}.json"
        files[path] = _made_from.get(
            path,
            # The JSON lists ids, never the text only rows show (tests/test_guide.py proves it).
            (*guide_inputs(catalog, start, end, ROW_ONLY_ITEM_FIELDS), site_url),
            lambda start=start, end=end: _dump(guide_record(catalog, start, end, site_url)),
        )
    return files


def _release_document(catalog: Catalog, release: Release, site_url: str) -> str:
    cited = sorted({source_id for _, source_id in cited_sources(release.model_dump(), ())})
    document = ReleaseDocument(
        url=page_url(site_url, "release", version=release.version),
        release=release,
        sources=[catalog.sources[s] for s in cited],
    )
    return _dump(document.model_dump(mode="json"))


def guide_record(catalog: Catalog, start: str, end: str, site_url: str) -> dict[str, Any]:
    guide = upgrade_guide(catalog, start, end)

    def ids(entries) -> list[str]:
        return [entry.item.id for entry in entries]

    return GuideRecord(
        start=start,
        end=end,
        url=page_url(site_url, "guide", start=start, end=end),
        crossed=[r.version for r in guide.crossed],
        counts_by_effect=dict(guide.counts_by_effect()),
        platform_delta=[
            {"label": r.label, "before": r.before, "after": r.after, "changed": r.changed} for r in guide.delta
        ],
        checks_first=guide.checks_first,
        install=ids(guide.install),
        breaking=ids(guide.breaking),
        plan_for=ids(guide.plan_for),
        features=ids(guide.features),
        regressions=ids(guide.regressions),
        applies_to={
            entry.item.id: entry.item.applies_to
            for entries in (guide.install, guide.breaking, guide.plan_for, guide.features, guide.regressions)
            for entry in entries
            if entry.item.applies_to is not None
        },
    ).model_dump(mode="json")
