"""Queries: the content of an upgrade guide from release A to release B.

Range semantics: a guide covers the changes introduced in the releases after A, up to and
including B (`Catalog.crossed`). Lifecycles are folded so each thing appears once:
- a deprecation completed (removed or turned into a break) within the range appears only as the
  completing item, which shows where it was deprecated;
- a deprecation made by B (in the range or earlier) and not completed by B is "to plan for".
Pure: returns records, renders nothing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from macros.dataset.model import Item, PypiSnapshot, Release, version_key
from macros.dataset.vocabulary import DEPRECATION, EFFECTS, FEATURE_KINDS, HEADLINE, INSTALL_EFFECT, REGRESSION
from macros.query.catalog import Catalog, fields_except, items_except
from macros.query.env_facts import env_facts_json
from macros.query.platform import COMPANIONS, DROPS_LABEL, PLATFORM_FACTS, companion_text, drop_text


@dataclass(frozen=True)
class Entry:
    release: Release
    item: Item


@dataclass(frozen=True)
class DeltaRow:
    label: str
    before: str
    after: str

    @property
    def changed(self) -> bool:
        return self.before != self.after


@dataclass
class UpgradeGuide:
    start: Release
    end: Release
    crossed: tuple[Release, ...]
    install: list[Entry] = field(default_factory=list)  # packaging effects: before you upgrade
    # Everything else that changes behaviour, improvements and features with an effect included (a
    # fix that changes numbers, a new check that raises, is felt like a breaking change).
    breaking: list[Entry] = field(default_factory=list)
    plan_for: list[Entry] = field(default_factory=list)  # deprecated by B, not completed by B
    completed_deprecations: list[Entry] = field(default_factory=list)  # deprecations completed in range
    features: list[Entry] = field(default_factory=list)
    regressions: list[Entry] = field(default_factory=list)
    delta: list[DeltaRow] = field(default_factory=list)
    checks_first: list[str] = field(default_factory=list)

    @property
    def slug(self) -> str:
        return f"{self.start.version}-to-{self.end.version}"

    @property
    def changes(self) -> list[Entry]:
        return self.install + self.breaking

    def counts_by_effect(self) -> list[tuple[str, int]]:
        counts = Counter(entry.item.effect for entry in self.changes)
        return [(effect, counts[effect]) for effect in EFFECTS.values]

    def counts_by_area(self) -> list[tuple[str, int]]:
        return sorted(Counter(entry.item.area for entry in self.changes).items())

    def silent(self) -> list[Entry]:
        return [entry for entry in self.breaking if entry.item.effect in EFFECTS.silent]

    def breaking_by_area(self) -> list[tuple[str, list[Entry]]]:
        """Non-silent breaking changes grouped by area (silent ones are listed first, apart)."""
        groups: dict[str, list[Entry]] = {}
        for entry in self.breaking:
            if entry.item.effect not in EFFECTS.silent:
                groups.setdefault(entry.item.area, []).append(entry)
        return sorted(groups.items())

    def actions(self) -> list[Entry]:
        """Every entry whose row has a box to tick: each listed entry that says what to do."""
        listed = [*self.changes, *self.plan_for, *self.regressions, *self.features]
        return [entry for entry in listed if entry.item.action]


def completion(catalog: Catalog, item: Item, end: Release) -> Entry | None:
    """The item that completes a deprecation (its first non-deprecation follower) up to `end`."""
    own = catalog.release_of(item.id).key
    for release, later in catalog.lifecycle(item.id):
        completes = later.kind != DEPRECATION and own < release.key <= end.key
        if later.id != item.id and completes:
            return Entry(release, later)
    return None


def live_deprecations(catalog: Catalog, guide: UpgradeGuide) -> list[Entry]:
    """Deprecations made at or before B and not yet completed at A: calling them warns on A or on
    a release of the range, and their end (a removal or a break) is still ahead. Oldest first."""
    return [
        Entry(release, item)
        for release in catalog.releases
        if release.key <= guide.end.key
        for item in release.items
        if item.kind == DEPRECATION
        and ((done := completion(catalog, item, guide.end)) is None or done.release.key > guide.start.key)
    ]


#: Fields of a release that no guide shows, on its page or in its JSON. Under `mkdocs serve` an
#: edit to one of them (a release's summary, its commit count) re-renders no guide.
#: tests/test_guide.py changes them in every release and requires every guide to stay the same, so
#: a guide that starts reading one fails there until it leaves this list.
GUIDE_IGNORES: frozenset[str] = frozenset({"summary", "stats"})

#: Fields of an item that a guide shows in the item's row only. The rows are finished HTML, each
#: written once per catalog and put into the guide after the rest of it is rendered
#: (render/upgrade.py), and the guide's JSON lists ids: under `mkdocs serve` an edit to one of these
#: (an item's summary) makes the rows again, not the 15 guides into its release. tests/test_guide.py
#: changes them in every item and requires the rest of every guide and its JSON to stay the same.
#: Not `action`: the guide counts the entries that ask the reader to act.
ROW_ONLY_ITEM_FIELDS: frozenset[str] = frozenset({"summary", "before", "after", "code_lang", "replacement", "prs"})


def guide_inputs(
    catalog: Catalog, start: str, end: str, item_ignores: frozenset[str] = frozenset()
) -> tuple[object, ...]:
    """Everything the guide from `start` to `end` (its page and its JSON) is made from: what guides
    read of every release up to `end`, of the later ones only how their items continue lifecycles,
    the source registry, the package index, and the GPU and driver tables (the GPU answer and the
    facts the page's script reads). Under `mkdocs serve`, a guide whose inputs are the same
    records as last time is not made again (render/made_from.py). `item_ignores`: item fields
    left out (`ROW_ONLY_ITEM_FIELDS`: what the guide is made from besides its rows)."""
    key = ("guide-inputs", end, item_ignores)
    upto, later = catalog.memo(key, lambda: _releases_inputs(catalog, end, item_ignores))
    # The facts the page's script reads span every release (the CUDA builds, the releases' range):
    # the finished JSON is compared, so an edit to a later release reaches the guide only when
    # those facts change.
    facts = env_facts_json(catalog)
    return (start, end, *upto, later, *catalog.shared_inputs(), facts)


def _releases_inputs(
    catalog: Catalog, end: str, item_ignores: frozenset[str]
) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """What every guide into `end` reads of the releases up to it, and of the later ones (computed
    once per catalog and `end`: 120 guides share 15 ends)."""
    end_key = version_key(end)
    later = tuple((item.id, item.kind, item.follows) for r in catalog.releases if r.key > end_key for item in r.items)
    upto = tuple(_release_inputs(catalog, r, item_ignores) for r in catalog.releases if r.key <= end_key)
    return upto, later


def _release_inputs(catalog: Catalog, release: Release, item_ignores: frozenset[str]) -> tuple[object, ...]:
    if not item_ignores:
        return fields_except(release, GUIDE_IGNORES)
    return (*fields_except(release, GUIDE_IGNORES | {"items"}), items_except(catalog, release, item_ignores))


def upgrade_guide(catalog: Catalog, start: str, end: str) -> UpgradeGuide:
    """The guide from `start` to `end`, computed once per catalog (its page and its JSON share it)."""
    return catalog.memo(("upgrade_guide", start, end), lambda: _compute_guide(catalog, start, end))


def _compute_guide(catalog: Catalog, start: str, end: str) -> UpgradeGuide:
    if version_key(start) >= version_key(end):
        raise ValueError(f"an upgrade guide goes from an older to a newer release, not {start} to {end}")
    guide = UpgradeGuide(catalog.release(start), catalog.release(end), catalog.crossed(start, end))
    for release in guide.crossed:
        for item in release.items:
            entry = Entry(release, item)
            if item.kind == DEPRECATION:
                if completion(catalog, item, guide.end) is None:
                    guide.plan_for.append(entry)
                else:
                    guide.completed_deprecations.append(entry)
            elif item.kind in FEATURE_KINDS and not (item.kind != HEADLINE and item.effect):
                guide.features.append(entry)
            elif item.kind == REGRESSION:
                guide.regressions.append(entry)
            elif item.effect == INSTALL_EFFECT:
                guide.install.append(entry)
            else:
                guide.breaking.append(entry)
    # Deprecations made at or before A that B still has not completed: keep planning for them.
    earlier = [r for r in catalog.releases if r.key <= guide.start.key]
    guide.plan_for[:0] = [
        Entry(r, i)
        for r in earlier
        for i in r.items
        if i.kind == DEPRECATION and completion(catalog, i, guide.end) is None
    ]
    # Silent changes hurt most: the effect vocabulary lists them first.
    guide.breaking.sort(key=lambda e: (EFFECTS.rank(e.item.effect or INSTALL_EFFECT), e.release.key))
    guide.delta = platform_delta(guide.start, guide.end, guide.crossed, catalog.pypi)
    guide.checks_first = checks_first(guide)
    return guide


def platform_delta(
    start: Release, end: Release, crossed: tuple[Release, ...], pypi: PypiSnapshot | None = None
) -> list[DeltaRow]:
    """Every platform fact before and after, the drops on the way, then the companion libraries."""
    rows = []
    for fact in PLATFORM_FACTS:
        before, after = (fact.read(release, pypi).text for release in (start, end))
        rows.append(
            DeltaRow(fact.label, "unknown" if before is None else before, "unknown" if after is None else after)
        )
    dropped = [f"{drop_text(d)} ({r.version})" for r in crossed for d in r.platform.architectures_dropped]
    rows.append(DeltaRow(f"{DROPS_LABEL} on the way", "", "; ".join(dropped)))
    rows += [DeltaRow(name, companion_text(start, name), companion_text(end, name)) for name in COMPANIONS]
    return rows


def _known(text: str | None) -> str:
    return "unknown" if text is None else text


def checks_first(guide: UpgradeGuide) -> list[str]:
    """Plain-language warnings derived from the platform delta."""
    a, b = guide.start.platform, guide.end.platform
    notes = []
    if version_key(b.python.min.rstrip("t")) > version_key(a.python.min.rstrip("t")):
        notes.append(
            f"Python {a.python.min} is no longer supported: {guide.end.version} needs Python {b.python.min} or newer."
        )
    if a.cuda.default_wheel != b.cuda.default_wheel and b.cuda.default_wheel:
        notes.append(
            f"`pip install torch` now brings CUDA {b.cuda.default_wheel} wheels (was "
            f"{a.cuda.default_wheel}): check that your NVIDIA driver supports it, or pick a "
            "wheel index explicitly."
        )
    gone = sorted(
        {bld.version for bld in a.cuda.stable} - {bld.version for bld in b.cuda.stable + b.cuda.experimental},
        key=version_key,
    )
    if gone:
        notes.append(f"CUDA {', '.join(gone)} wheels are gone by {guide.end.version}: update pinned index URLs.")
    for release in guide.crossed:
        for drop in release.platform.architectures_dropped:
            notes.append(
                f"Older GPUs: {drop.architectures} dropped from {', '.join(drop.wheels)} in "
                f"{release.version}" + (f"; instead: {drop.instead.rstrip('.')}." if drop.instead else ".")
            )
    if a.macos.mps_min and b.macos.mps_min and version_key(b.macos.mps_min) > version_key(a.macos.mps_min):
        notes.append(f"Apple GPUs: MPS needs macOS {b.macos.mps_min} or newer (was {a.macos.mps_min}).")
    cpp_changes, cpp_unknown = [], []
    for name, what in (("headers", "the headers"), ("source_build", "building PyTorch")):
        new, old = getattr(b.cpp, name), getattr(a.cpp, name)
        if new == old:
            continue
        was = f" (was {old})" if old else ""
        if new is None:
            cpp_changes.append(f"the standard for {what} is not known{was}")
            cpp_unknown.append(b.cpp.unknown.get(name, ""))
        else:
            verb = "need" if name == "headers" else "needs"
            cpp_changes.append(f"{what} {verb} {new}{was}")
    if cpp_changes:
        why = " ".join(reason for reason in cpp_unknown if reason)
        notes.append(f"C++ extensions and source builds: {'; '.join(cpp_changes)}." + (f" {why}" if why else ""))
    return notes


def all_pairs(catalog: Catalog) -> list[tuple[str, str]]:
    versions = [release.version for release in catalog.releases]
    return [(a, b) for i, a in enumerate(versions) for b in versions[i + 1 :]]
