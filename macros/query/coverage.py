"""Catalog-level report for data contributors: how complete each release is.

Per release: items by kind; how many changes users feel (items with an effect) come from outside
the breaking and deprecation sections (improvements, fixes, platform changes and regressions: the
data records an item's kind, not the notes' section it was read from, so the kind stands in for
it); and every platform or companion fact that is still unknown, with the reason the data gives.
Printed by `python -m macros coverage`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import get_args

from macros.dataset.model import Cited, Kind, Ledger, LedgerEntry, Release
from macros.dataset.vocabulary import CODE_KINDS, FELT_DEFINITION, FELT_DEFINITION_ID, NOT_FELT_REASONS
from macros.query.catalog import Catalog

KINDS: tuple[str, ...] = get_args(Kind)
#: The kinds the notes' "Backwards Incompatible Changes" and "Deprecations" sections give.
SECTION_KINDS: frozenset[str] = CODE_KINDS


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
    return "\n".join([*lines, *notes, "", *ledger_report(catalog)])


def ledger_progress(ledger: Ledger) -> tuple[int, int, dict[str, tuple[int, int]]]:
    """(decided, total, {section: (decided, total)}) in the notes' order of sections."""
    sections: dict[str, tuple[int, int]] = {}
    for entry in ledger.entries:
        done, total = sections.get(entry.section, (0, 0))
        sections[entry.section] = (done + (entry.decision is not None), total + 1)
    decided = sum(done for done, _ in sections.values())
    return decided, len(ledger.entries), sections


@dataclass(frozen=True)
class LedgerTally:
    """What a ledger decided: entries in all, decided, covered by an item, and the not-felt ones
    by reason (in the vocabulary's order, reasons with none left out)."""

    total: int
    decided: int
    covered: int
    not_felt: tuple[tuple[str, int], ...]

    @property
    def not_felt_count(self) -> int:
        return sum(count for _, count in self.not_felt)


def ledger_tally(ledger: Ledger) -> LedgerTally:
    reasons = Counter(entry.not_felt for entry in ledger.entries if entry.not_felt)
    return LedgerTally(
        total=len(ledger.entries),
        decided=sum(1 for entry in ledger.entries if entry.decision is not None),
        covered=sum(1 for entry in ledger.entries if entry.item_id),
        not_felt=tuple((reason, reasons[reason]) for reason in NOT_FELT_REASONS.values if reasons[reason]),
    )


def items_per_section(ledger: Ledger) -> dict[str, int]:
    """Section -> how many distinct items its entries are covered by."""
    found: dict[str, set[str]] = {}
    for entry in ledger.entries:
        if entry.item_id:
            found.setdefault(entry.section, set()).add(entry.item_id)
    return {section: len(ids) for section, ids in found.items()}


def ledger_summary(catalog: Catalog) -> str:
    """One line for `make check`: how much of each ledger is decided."""
    if not catalog.ledgers:
        return "ledgers: none"
    parts = []
    for release in catalog.releases:
        if release.version in catalog.ledgers:
            decided, total, _ = ledger_progress(catalog.ledgers[release.version])
            parts.append(
                f"{release.version} {decided}/{total}" + ("" if decided == total else f" ({total - decided} undecided)")
            )
    return "ledgers (notes entries decided): " + ", ".join(parts)


@dataclass(frozen=True)
class SectionTally:
    """One section of a ledger: entries, decided, felt (covered by an item that says how users feel
    it: an effect), covered by any item (features included), and the distinct items."""

    entries: int
    decided: int
    felt: int
    covered: int
    items: int


def section_tallies(ledger: Ledger, catalog: Catalog) -> dict[str, SectionTally]:
    """Section -> its tally, in the notes' order of sections."""
    grouped: dict[str, list[LedgerEntry]] = {}
    for entry in ledger.entries:
        grouped.setdefault(entry.section, []).append(entry)
    known = catalog.items
    tallies = {}
    for name, entries in grouped.items():
        covering = [entry.item_id for entry in entries if entry.item_id]
        tallies[name] = SectionTally(
            entries=len(entries),
            decided=sum(1 for entry in entries if entry.decision is not None),
            felt=sum(1 for item_id in covering if item_id in known and known[item_id][1].effect),
            covered=len(covering),
            items=len(set(covering)),
        )
    return tallies


def reread_status(ledger: Ledger) -> str:
    """Whether every not-felt decision was read again against the definition of felt, and when."""
    if ledger.reread is None:
        return f"not yet re-read against {FELT_DEFINITION_ID}"
    stale = "" if ledger.reread.definition == FELT_DEFINITION_ID else f" (the current one is {FELT_DEFINITION_ID})"
    return f"re-read against {ledger.reread.definition} on {ledger.reread.date}{stale}"


def ledger_report(catalog: Catalog) -> list[str]:
    """Per release: entries of the notes decided; per section, entries felt and the items covering
    them; what the decisions were; and whether the ledger was re-read against the definition."""
    lines = [
        "Ledgers (data/ledger/X.Y.yaml: every entry of the notes decided; felt = covered by an item with an effect):",
        f"  felt ({FELT_DEFINITION_ID}): {FELT_DEFINITION}",
    ]
    for release in catalog.releases:
        ledger = catalog.ledgers.get(release.version)
        if ledger is None:
            lines.append(f"  {release.version}: no ledger")
            continue
        decided, total, _ = ledger_progress(ledger)
        lines.append(f"  {release.version}: {decided} of {total} entries decided; {reread_status(ledger)}")
        for name, t in section_tallies(ledger, catalog).items():
            lines.append(
                f"      {name} {t.decided}/{t.entries} decided: {t.felt} felt, {t.covered} covered by {t.items} items"
            )
        tally = ledger_tally(ledger)
        not_felt = ", ".join(f"{reason} {count}" for reason, count in tally.not_felt)
        lines.append(
            f"      covered by an item: {tally.covered}; not felt: {tally.not_felt_count}"
            + (f" ({not_felt})" if not_felt else "")
        )
    return lines
