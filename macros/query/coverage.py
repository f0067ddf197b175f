"""Catalog-level report for data contributors: how complete each release is.

Per release: items by kind; how many changes users feel (items with an effect) come from outside
the breaking and deprecation sections (improvements, fixes, platform changes and regressions: the
data records an item's kind, not the notes' section it was read from, so the kind stands in for
it); and every platform or companion fact that is still unknown, with the reason the data gives.
Printed by `python -m macros coverage`.
"""

from __future__ import annotations

from collections import Counter
from typing import get_args

from macros.dataset.model import Cited, Kind, Release
from macros.query.catalog import Catalog

KINDS: tuple[str, ...] = get_args(Kind)
#: The kinds the notes' "Backwards Incompatible Changes" and "Deprecations" sections give.
SECTION_KINDS: frozenset[str] = frozenset({"breaking", "deprecation", "removal"})


def unknown_facts(release: Release) -> list[tuple[str, str]]:
    """(field path, reason) for every fact the sources do not give."""
    missing = []
    blocks: list[tuple[str, Cited]] = [("stats", release.stats)]
    blocks += [(f"platform.{name}", block) for name, block in release.platform if isinstance(block, Cited)]
    for prefix, block in blocks:
        missing += [(f"{prefix}.{name}", reason) for name, reason in block.unknown.items()]
    for companion in release.companions:
        if companion.version is None:
            missing.append((f"companions.{companion.name}", companion.note or ""))
    return missing


def coverage_report(catalog: Catalog) -> str:
    header = ["release", *KINDS, "total", "felt elsewhere", "unknown"]
    rows = []
    notes = []
    for release in catalog.releases:
        counts = Counter(item.kind for item in release.items)
        unknown = unknown_facts(release)
        felt_elsewhere = sum(1 for item in release.items if item.effect and item.kind not in SECTION_KINDS)
        cells = [*(str(counts[k]) for k in KINDS), str(len(release.items)), str(felt_elsewhere), str(len(unknown))]
        rows.append([release.version, *cells])
        notes += [f"  {release.version} {path}: {reason}" for path, reason in unknown]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=False)) for row in [header, *rows]]
    lines.append("")
    lines.append("felt elsewhere: changes users feel (an effect) that are not breaking, deprecation or removal items.")
    lines.append("")
    lines.append("Unknown facts (shown on the pages with these reasons):" if notes else "No unknown facts.")
    return "\n".join(lines + notes)
