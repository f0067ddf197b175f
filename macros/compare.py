"""Catalog-level queries for the comparison tables (`compare/<table>.html`).

Each function returns a `Table`: columns and rows of cells that know whether they changed from
the previous release, whether a source disputes them, why they are unknown, and which item or
dispute they link to. Rendering to Markdown happens in `render/compare.py`. A new release adds a
column or row with no code change.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from macros.catalog import Catalog
from macros.model import Cited, Item, Release


@dataclass(frozen=True)
class Cell:
    text: str
    link: str | None = None  # relative to the compare/ folder
    changed: bool = False
    disputed: str | None = None  # link to the dispute
    unknown: str | None = None  # the reason


@dataclass
class Row:
    label: str
    cells: list[Cell]
    id: str | None = None


@dataclass
class Table:
    columns: list[str]
    rows: list[Row]
    facets: tuple[str, ...] = ()


def item_link(release: Release, item: Item) -> str:
    return f"../releases/{release.version}.md#{item.id}"


def _disputed(release: Release, field_name: str) -> str | None:
    """Link to a dispute about this fact, or about the whole block it belongs to."""
    for dispute in release.disputes:
        if any(field_name == f or field_name.startswith(f + ".") for f in dispute.fields):
            return f"../releases/{release.version}.md#{dispute.id}"
    return None


def _value(block: Cited, name: str, text: str) -> tuple[str, str | None]:
    if name in block.unknown:
        return "unknown", block.unknown[name]
    return text, None


def _builds(builds) -> str:
    parts = []
    for b in builds:
        extras = ", ".join(x for x in (f"cuDNN {b.cudnn}" if b.cudnn else "", f"NCCL {b.nccl}" if b.nccl else "") if x)
        parts.append(f"{b.version} ({extras})" if extras else b.version)
    return "<br>".join(parts) or "none"


#: (row label, disputed-field key, function release -> (text, unknown reason))
PLATFORM_ROWS = (
    ("Python", "platform.python", lambda r: (f"{r.platform.python.min} to {r.platform.python.max}", None)),
    (
        "Free-threaded builds",
        "platform.python",
        lambda r: (", ".join(r.platform.python.free_threaded) or "none", None),
    ),
    (
        "Experimental Python",
        "platform.python",
        lambda r: (", ".join(r.platform.python.experimental) or "none", None),
    ),
    ("CUDA (stable)", "platform.cuda.stable", lambda r: (_builds(r.platform.cuda.stable), None)),
    (
        "CUDA (experimental)",
        "platform.cuda.experimental",
        lambda r: (_builds(r.platform.cuda.experimental), None),
    ),
    (
        "CUDA of `pip install torch`",
        "platform.cuda.default_wheel",
        lambda r: _value(r.platform.cuda, "default_wheel", r.platform.cuda.default_wheel or ""),
    ),
    ("ROCm", "platform.rocm", lambda r: (", ".join(r.platform.rocm.stable), None)),
    (
        "Intel XPU support package",
        "platform.xpu",
        lambda r: _value(r.platform.xpu, "support_package", r.platform.xpu.support_package or "no wheels"),
    ),
    (
        "macOS for MPS",
        "platform.macos",
        lambda r: _value(r.platform.macos, "mps_min", f"{r.platform.macos.mps_min}+"),
    ),
    (
        "C++ for the headers",
        "platform.cpp",
        lambda r: _value(r.platform.cpp, "headers", r.platform.cpp.headers or ""),
    ),
    (
        "C++ to build from source",
        "platform.cpp",
        lambda r: _value(r.platform.cpp, "source_build", r.platform.cpp.source_build or ""),
    ),
)


def platforms_table(catalog: Catalog) -> Table:
    releases = catalog.releases
    rows = []
    for label, disputed_field, read in PLATFORM_ROWS:
        cells, previous = [], None
        for release in releases:
            text, unknown = read(release)
            cells.append(
                Cell(
                    text,
                    changed=previous is not None and text != previous,
                    disputed=_disputed(release, disputed_field),
                    unknown=unknown,
                )
            )
            previous = text
        rows.append(Row(label, cells))
    drops = []
    for release in releases:
        entries = release.platform.architectures_dropped
        text = "; ".join(f"{d.architectures} from {', '.join(d.wheels)}" for d in entries) or "none"
        link = f"../releases/{release.version}.md#{entries[0].item}" if entries and entries[0].item else None
        drops.append(
            Cell(
                text,
                link=link,
                changed=bool(entries),
                disputed=_disputed(release, "platform.architectures_dropped"),
            )
        )
    rows.append(Row("GPU architectures dropped", drops))
    return Table([r.version for r in releases], rows)


COMPANIONS = ("torchvision", "torchaudio", "torchao", "torchcodec")


def companions_table(catalog: Catalog) -> Table:
    rows = []
    for release in reversed(catalog.releases):
        cells = []
        for name in COMPANIONS:
            found = next((c for c in release.companions if c.name == name), None)
            if found is None:
                cells.append(Cell("not recorded", unknown="No source gives it."))
                continue
            text = found.version or "no release"
            text += "".join(f"<br>{version} with {patch}" for patch, version in found.with_patches.items())
            cells.append(
                Cell(
                    text,
                    unknown=found.note if found.version is None else None,
                    disputed=_disputed(release, f"companions.{name}"),
                )
            )
        python = release.platform.python
        cells.append(Cell(f"{python.min} to {python.max}", disputed=_disputed(release, "platform.python")))
        rows.append(Row(release.version, cells, id=f"torch-{release.version.replace('.', '-')}"))
    return Table(["torch", *COMPANIONS, "Python"], rows)


def lifecycle_table(catalog: Catalog) -> Table:
    """Every deprecated or removed API or platform: deprecated in, removed in, replacement."""
    rows, seen = [], set()
    for release in catalog.releases:
        for item in release.items:
            if item.kind not in {"deprecation", "removal"} or item.id in seen:
                continue
            chain = catalog.lifecycle(item.id)
            seen.update(step.id for _, step in chain)
            deprecated = next(((r, i) for r, i in chain if i.kind == "deprecation"), None)
            removed = next(
                (
                    (r, i)
                    for r, i in chain
                    if i.kind in {"removal", "breaking", "platform"}
                    and (deprecated is None or r.key > deprecated[0].key)
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
                Cell(replacement or ""),
                Cell("removed" if removed else "deprecated"),
            ]
            anchor = (deprecated or removed or chain[0])[1].id
            rows.append(Row(first.title, cells, id=f"lc-{anchor}"))
    return Table(["Area", "Deprecated in", "Removed in", "Replacement", "Status"], rows, facets=("Area", "Status"))


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
            label = item.status or (
                "deprecated"
                if item.kind == "deprecation"
                else "removed"
                if item.kind == "removal"
                else "changed"
                if item.kind == "breaking"
                else "not labelled"
            )
            extra = f" (+{len(items) - 1})" if len(items) > 1 else ""
            cells.append(Cell(f"{label}{extra}", link=item_link(release, item)))
        rows.append(Row(topic.title, cells, id=f"topic-{topic.id}"))
    return Table([r.version for r in releases], rows)


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
                        link=f"../releases/{release.version}.md",
                        disputed=_disputed(release, "date"),
                    ),
                    Cell(days),
                    Cell(
                        f"{stats.commits:,}" if stats.commits else "unknown",
                        unknown=stats.unknown.get("commits"),
                        disputed=_disputed(release, "stats"),
                    ),
                    Cell(
                        f"{stats.contributors:,}" if stats.contributors else "unknown",
                        unknown=stats.unknown.get("contributors"),
                    ),
                    Cell(patches or "none"),
                ],
                id=f"release-{release.version.replace('.', '-')}",
            )
        )
        previous = release
    return Table(["Released", "Days since previous", "Commits", "Contributors", "Patch releases"], rows)
