"""Loading stage, last step: rules that span records and files (after `load`, before any query).

Rules that span records and files, run after every file has loaded. One rule = one function that
returns its problems, each with the file:line:column of the value at fault. `run_checks` runs them
all; the caller fails once with every problem.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from macros.dataset import wheels
from macros.dataset.load import Loaded
from macros.dataset.model import (
    DriverTable,
    EcosystemSnapshot,
    GpuTable,
    Ledger,
    PypiSnapshot,
    Release,
    SourceRegistry,
    TopicRegistry,
    three_part,
    version_key,
)
from macros.dataset.problems import Path as FieldPath
from macros.dataset.problems import Problem, format_path
from macros.dataset.vocabulary import DEPRECATION, REJECTED, REMOVAL, ROCM, TIERS, TORCH


@dataclass(frozen=True, eq=False)  # known by identity: the query stage keeps a catalog per Dataset
class Dataset:
    sources: Loaded[SourceRegistry]
    releases: list[Loaded[Release]]
    topics: Loaded[TopicRegistry] | None = None
    pypi: Loaded[PypiSnapshot] | None = None
    ledgers: list[Loaded[Ledger]] = field(default_factory=list)
    gpus: Loaded[GpuTable] | None = None  # data/gpus.yaml
    drivers: Loaded[DriverTable] | None = None  # data/drivers.yaml
    ecosystem: Loaded[EcosystemSnapshot] | None = None  # data/ecosystem.json

    def ordered(self) -> list[Loaded[Release]]:
        return sorted(self.releases, key=lambda loaded: loaded.record.key)


def _problem(loaded: Loaded, path: FieldPath, message: str) -> Problem:
    line, column = loaded.positions.of(path)
    return Problem(loaded.file, line, column, format_path(path), message)


def one_file_per_version(data: Dataset) -> Iterator[Problem]:
    """2.08.yaml next to 2.8.yaml: the same release twice, whatever the spelling."""
    seen: dict[tuple[int, ...], Loaded[Release]] = {}
    for loaded in data.releases:
        key = loaded.record.key
        if key in seen:
            first = seen[key]
            message = (
                f"duplicate version {loaded.record.version!r}: {first.file} and {loaded.file} "
                "hold the same release; keep one file"
            )
            yield _problem(loaded, ("version",), message)
        else:
            seen[key] = loaded


def file_name_matches_version(data: Dataset) -> Iterator[Problem]:
    """data/releases/2.12.yaml must hold version "2.12"."""
    for loaded in data.releases:
        stem = Path(loaded.file).stem
        if stem != loaded.record.version:
            message = f"{loaded.record.version!r} does not match the file name {stem}.yaml"
            yield _problem(loaded, ("version",), message)


def ids_are_unique(data: Dataset) -> Iterator[Problem]:
    """Item and dispute ids are permanent anchors: one owner each, across all files."""
    seen: dict[str, str] = {}
    for index, source in enumerate(data.sources.record.sources):
        where = f"{data.sources.file}:{data.sources.positions.of(('sources', index, 'id'))[0]}"
        if source.id in seen:
            yield _problem(data.sources, ("sources", index, "id"), f"duplicate source id {source.id!r}")
        seen.setdefault(source.id, where)
    owners: dict[str, str] = {}
    for loaded in data.ordered():
        for path, ident in _anchored_ids(loaded.record):
            where = f"{loaded.file}:{loaded.positions.of(path)[0]}"
            if ident in owners:
                yield _problem(loaded, path, f"duplicate id {ident!r} (also at {owners[ident]})")
            else:
                owners[ident] = where


#: Anchors the pages that show items (release pages, upgrade guides) use for themselves: section
#: headings, controls, charts. An item, alias or dispute with one of these ids would share the
#: page's own anchor, and links and citations would land on the wrong element.
#: tests/test_reserved_anchors.py checks that this covers every id the templates and renderers write.
RESERVED_ANCHORS = frozenset(
    {
        *("top", "at-a-glance", "quick-links", "sources", "install", "gpu", "gpus", "gpu-hint", "matrix"),
        *("highlights", "breaking-changes", "deprecations", "removals", "platform-changes", "new-features"),
        *("known-regressions", "platform-support", "companions", "unknown-facts", "disputed-claims"),
        *("silent-changes", "before-you-upgrade", "check-first", "checklist", "install-changes", "plan-for"),
        *("platform-delta", "deprecations-completed", "deprecations-as-errors", "scan", "your-setup"),
        *("upgrade-picker", "lc-chart-title", "lc-chart-desc", "cadence-title", "cadence-desc"),
        *("answer", "other-changes", "upgrading", "atlas-env-read", "atlas-facts", "your-packages"),
    }
)
#: Prefixes of the anchors the pages make from data: src-<source>, area-<area>, install-<variant>,
#: todo-<item> (a guide's checkbox).
RESERVED_PREFIXES = ("src-", "area-", "install-", "todo-")


def anchors_are_not_reserved(data: Dataset) -> Iterator[Problem]:
    """Item, alias and dispute ids are anchors on pages that have anchors of their own."""
    for loaded in data.ordered():
        for path, ident in _anchored_ids(loaded.record):
            if ident in RESERVED_ANCHORS:
                message = f"{ident!r} is an anchor the page uses itself (#{ident}); choose a more specific id"
                yield _problem(loaded, path, message)
            elif ident.startswith(RESERVED_PREFIXES):
                prefix = next(p for p in RESERVED_PREFIXES if ident.startswith(p))
                message = f"ids starting with {prefix!r} are the page's own anchors (#{prefix}...); choose another id"
                yield _problem(loaded, path, message)


def _anchored_ids(release: Release) -> Iterator[tuple[FieldPath, str]]:
    for index, item in enumerate(release.items):
        yield ("items", index, "id"), item.id
        for alias_index, alias in enumerate(item.aliases):
            yield ("items", index, "aliases", alias_index), alias
    for index, dispute in enumerate(release.disputes):
        yield ("disputes", index, "id"), dispute.id


def releases_are_contiguous(data: Dataset) -> Iterator[Problem]:
    """No minor release is skipped between the oldest and the newest: a guide from A to B covers
    the releases after A up to B that the data holds, so a missing one would drop its changes from
    every guide across it without a word."""
    ordered = data.ordered()
    for earlier, later in itertools.pairwise(ordered):
        (major, minor), (next_major, next_minor) = earlier.record.key[:2], later.record.key[:2]
        if next_major == major and next_minor > minor + 1:
            gap = next_minor - minor - 1
            missing = (
                ", ".join(f"{major}.{m}" for m in range(minor + 1, next_minor))
                if gap <= 5
                else f"{major}.{minor + 1} to {major}.{next_minor - 1} ({gap} releases)"
            )
            message = (
                f"data/releases has {earlier.record.version} and {later.record.version} but not {missing}: "
                "every guide across the gap would leave its changes out (add the missing release)"
            )
            yield _problem(later, ("version",), message)


def dates_follow_versions(data: Dataset) -> Iterator[Problem]:
    """Later versions are released later; patches belong to their release and come after it."""
    ordered = data.ordered()
    for earlier, later in itertools.pairwise(ordered):
        if later.record.date < earlier.record.date:
            message = (
                f"{later.record.date} is before {earlier.record.version}'s date "
                f"{earlier.record.date}, but {later.record.version} is the later version"
            )
            yield _problem(later, ("date",), message)
    for loaded in ordered:
        release = loaded.record
        for index, patch in enumerate(release.patches):
            if not patch.version.startswith(release.version + "."):
                message = f"patch {patch.version} is not a patch of {release.version}"
                yield _problem(loaded, ("patches", index, "version"), message)
            if patch.date is not None and patch.date < release.date:
                message = f"{patch.date} is before the release date {release.date}"
                yield _problem(loaded, ("patches", index, "date"), message)


def sources_exist(data: Dataset) -> Iterator[Problem]:
    """Every cited source id is in data/sources.yaml."""
    known = {source.id for source in data.sources.record.sources}
    for loaded in data.releases:
        for path, source_id in cited_sources(loaded.record.model_dump(), ()):
            if source_id not in known:
                message = f"unknown source id {source_id!r} (add it to data/sources.yaml)"
                yield _problem(loaded, path, message)


#: Sources the site cites by itself, for facts that are NVIDIA's rather than the data's (which
#: compute capability a GPU has; which machine code runs on it): query/gpu.py.
#: The source of every platform fact read from the package index snapshot.
PYPI_SOURCE = "pypi-index"
GPU_TABLE_SOURCES: tuple[str, ...] = ("nvidia-cuda-gpus", "nvidia-cuda-compatibility")
#: Source id -> what cites it.
SITE_CITED_SOURCES: dict[str, str] = {
    **dict.fromkeys(GPU_TABLE_SOURCES, "the GPU tables"),
    PYPI_SOURCE: "the platform facts read from the wheels",
}


def site_cited_sources_exist(data: Dataset) -> Iterator[Problem]:
    """The sources the pages cite without the data naming them are in data/sources.yaml."""
    known = {source.id for source in data.sources.record.sources}
    for source_id, cited_by in SITE_CITED_SOURCES.items():
        if source_id not in known:
            message = f"{cited_by} cite {source_id!r}, which data/sources.yaml lacks: add it back"
            yield _problem(data.sources, ("sources",), message)


def cited_sources(value: object, path: FieldPath) -> Iterator[tuple[FieldPath, str]]:
    if isinstance(value, dict):
        for key, child in value.items():
            if key in {"sources", "claimed_by"}:
                for index, source_id in enumerate(child):
                    yield (*path, key, index), source_id
            else:
                yield from cited_sources(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from cited_sources(child, (*path, index))


def references_resolve(data: Dataset) -> Iterator[Problem]:
    """Lifecycle links point at earlier items; versions named in the data exist."""
    ordered = data.ordered()
    known_versions = {loaded.record.version for loaded in ordered}
    newest = max((loaded.record.key for loaded in ordered), default=(0, 0))
    item_release = {item.id: (loaded.record, item) for loaded in ordered for item in loaded.record.items}
    for loaded in ordered:
        release = loaded.record
        for index, item in enumerate(release.items):
            at: FieldPath = ("items", index)
            if item.follows is not None:
                yield from _follow_problems(loaded, at, item.follows, item.kind, item_release)
            target = item.planned_removal
            if target is not None and target not in known_versions and version_key(target) <= newest:
                yield _problem(loaded, (*at, "planned_removal"), f"unknown version {target!r}")
            elif target is not None and version_key(target) <= release.key:
                message = f"planned removal in {target} is not after this release ({release.version})"
                yield _problem(loaded, (*at, "planned_removal"), message)
        own = {item.id for item in release.items}
        for index, dispute in enumerate(release.disputes):
            for ref_index, ref in enumerate(dispute.items):
                if ref not in item_release:
                    path = ("disputes", index, "items", ref_index)
                    yield _problem(loaded, path, f"unknown item id {ref!r}")
        anchors = {ident for _, ident in _anchored_ids(release)}
        for index, moved in enumerate(release.moved):
            home = item_release.get(moved.id)
            if home is None:
                yield _problem(loaded, ("moved", index, "id"), f"unknown item id {moved.id!r}")
            elif home[0].version != moved.to:
                message = f"item {moved.id!r} is in {home[0].version}, not in {moved.to}"
                yield _problem(loaded, ("moved", index, "to"), message)
            if moved.id in anchors:
                message = f"{moved.id!r} is also an id on this release's page: a moved item lives elsewhere"
                yield _problem(loaded, ("moved", index, "id"), message)
        for index, drop in enumerate(release.platform.architectures_dropped):
            if drop.item is not None and drop.item not in own:
                path = ("platform", "architectures_dropped", index, "item")
                yield _problem(loaded, path, f"no item {drop.item!r} in this release")


def _follow_problems(
    loaded: Loaded[Release],
    at: FieldPath,
    target: str,
    kind: str,
    item_release: dict,
) -> Iterator[Problem]:
    if target not in item_release:
        yield _problem(loaded, (*at, "follows"), f"unknown item id {target!r}")
        return
    earlier, earlier_item = item_release[target]
    if earlier.key >= loaded.record.key:
        message = f"{target!r} is in {earlier.version}, not in an earlier release"
        yield _problem(loaded, (*at, "follows"), message)
    elif kind == DEPRECATION and earlier_item.kind == REMOVAL:
        message = f"a deprecation cannot follow the removal {target!r}: deprecate before removing"
        yield _problem(loaded, (*at, "follows"), message)


#: Most items one lifecycle may hold (a deprecation, the releases that move it, its removal; the
#: real data has at most 4). Every item of a lifecycle links to every other, so its size squared
#: is what the pages hold: 2,100 items continuing one deprecation made a 234 MB page.
MAX_LIFECYCLE = 12


def lifecycles_are_bounded(data: Dataset) -> Iterator[Problem]:
    """No lifecycle (an item and every item that continues it) holds more than MAX_LIFECYCLE items."""
    follows = {item.id: item.follows for loaded in data.releases for item in loaded.record.items}

    def root(ident: str) -> str:
        seen = {ident}
        while (parent := follows.get(ident)) and parent in follows and parent not in seen:
            ident = parent
            seen.add(ident)
        return ident

    sizes: dict[str, int] = {}
    for loaded in data.ordered():
        for index, item in enumerate(loaded.record.items):
            if item.follows is None or item.follows not in follows:
                continue
            start = root(item.id)
            sizes[start] = sizes.get(start, 1) + 1
            if sizes[start] == MAX_LIFECYCLE + 1:
                message = (
                    f"the lifecycle that starts at {start!r} would hold more than {MAX_LIFECYCLE} items; "
                    "continue the latest step, or start a new item"
                )
                yield _problem(loaded, ("items", index, "follows"), message)


def disputes_favour_better_sources(data: Dataset) -> Iterator[Problem]:
    """A claim shown as false must be rejected by a source at least as trusted as its author.

    ("corrected" claims are partly right, e.g. a planned date or a matrix row that holds for the
    headers only; "unresolved" ones are shown without a verdict.)"""
    tiers = {source.id: source.tier for source in data.sources.record.sources}
    for loaded in data.releases:
        for index, dispute in enumerate(loaded.record.disputes):
            if dispute.verdict != REJECTED:
                continue
            # Unknown source ids are reported by `sources_exist`; here they simply do not count.
            claimed = [TIERS.rank(tiers[s]) for s in dispute.claimed_by if s in tiers]
            settled = [TIERS.rank(tiers[s]) for s in dispute.sources if s in tiers]
            if claimed and settled and min(settled) > min(claimed):
                message = (
                    "the rejected claim comes from a better source than its resolution; "
                    "cite the source that settles it, or mark it corrected or unresolved"
                )
                yield _problem(loaded, ("disputes", index, "verdict"), message)


def platform_is_consistent(data: Dataset) -> Iterator[Problem]:
    """The default wheel's CUDA is one of the CUDA versions built for that release."""
    for loaded in data.releases:
        cuda = loaded.record.platform.cuda
        built = {build.version for build in (*cuda.stable, *cuda.experimental)}
        if cuda.default_wheel is not None and cuda.default_wheel not in built:
            message = f"{cuda.default_wheel} is not among the CUDA builds {sorted(built)}"
            yield _problem(loaded, ("platform", "cuda", "default_wheel"), message)
        names = [companion.name for companion in loaded.record.companions]
        for index, name in enumerate(names):
            if name in names[:index]:
                yield _problem(loaded, ("companions", index, "name"), f"{name} is listed twice")


def topics_exist(data: Dataset) -> Iterator[Problem]:
    """An item's topic is declared in data/topics.yaml."""
    known = {topic.id for topic in data.topics.record.topics} if data.topics else set()
    for loaded in data.releases:
        for index, item in enumerate(loaded.record.items):
            if item.topic is not None and item.topic not in known:
                message = f"unknown topic {item.topic!r} (add it to data/topics.yaml)"
                yield _problem(loaded, ("items", index, "topic"), message)


def releases_agree_with_pypi(data: Dataset) -> Iterator[Problem]:
    """The data against the package index snapshot (`make index`): torch X.Y.0 and every pinned
    companion exist; the Python range and the free-threaded builds match the wheel tags. A
    disagreement the data explains with a dispute on that field is not a problem."""
    if data.pypi is None:
        return
    snapshot = data.pypi.record
    when = f"PyPI (snapshot of {snapshot.fetched}, data/pypi.json)"
    torch = wheels.wheels(snapshot, TORCH)
    for loaded in data.releases:
        release = loaded.record
        found = wheels.of_version(torch, f"{release.version}.0")
        if not found:
            yield _problem(loaded, ("version",), f"{when} has no torch {release.version}.0 wheel")
            continue
        published = wheels.pythons(found)
        regular = sorted((p for p in published if not p.endswith("t")), key=wheels.key)
        python = release.platform.python
        if regular and not release.dispute_on("platform.python"):
            for field_name, ours, theirs in (("min", python.min, regular[0]), ("max", python.max, regular[-1])):
                if ours != theirs:
                    message = (
                        f"{when} has torch {release.version}.0 wheels for Python {regular[0]} to {regular[-1]}; "
                        f"the data says {field_name} {ours} (fix it, or record a dispute on platform.python)"
                    )
                    yield _problem(loaded, ("platform", "python", field_name), message)
        threaded = sorted((p for p in published if p.endswith("t")), key=wheels.key)
        if threaded != sorted(python.free_threaded, key=wheels.key) and not release.dispute_on("platform.python"):
            message = (
                f"{when} has free-threaded torch {release.version}.0 wheels for {', '.join(threaded) or 'none'}; "
                f"the data says {', '.join(python.free_threaded) or 'none'}"
            )
            yield _problem(loaded, ("platform", "python", "free_threaded"), message)
        for index, companion in enumerate(release.companions):
            versions = [v for v in (companion.version, *companion.with_patches.values()) if v]
            available = {wheel.version for wheel in wheels.wheels(snapshot, companion.name)}
            if release.dispute_on(f"companions.{companion.name}"):
                continue
            for version in versions:
                if version not in available and three_part(version) not in available:
                    message = f"{when} has no {companion.name} {version} wheel"
                    yield _problem(loaded, ("companions", index, "version"), message)


def data_is_not_behind_pypi(data: Dataset) -> Iterator[Problem]:
    """A minor release of torch newer than the newest in data/releases is on PyPI: the site would
    call an old release the latest. Reported at the first wheel of that release in the snapshot."""
    if data.pypi is None or not data.releases:
        return
    newest = max(loaded.record.key for loaded in data.releases)
    torch = wheels.wheels(data.pypi.record, TORCH)
    uploads = wheels.first_uploads(torch)
    missing: dict[tuple[int, int], str] = {}
    for version, day in uploads.items():
        key = wheels.release_key(version)
        if key is None or len(key) < 2 or key[:2] <= newest:
            continue
        missing[key[:2]] = min(day, missing.get(key[:2], day))
    if not missing:
        return
    files = data.pypi.record.packages.get(TORCH, [])  # type: ignore[call-overload]
    for (major, minor), day in sorted(missing.items()):
        index = next(
            (i for i, f in enumerate(files) if f.file.startswith(f"torch-{major}.{minor}.")),
            0,
        )
        first = f"{major}.{minor}.0" if f"{major}.{minor}.0" in uploads else f"{major}.{minor}.x"
        message = f"torch {first} is on PyPI since {day} but data/releases has no {major}.{minor}"
        yield _problem(data.pypi, ("packages", TORCH, index), message)


def ledgers_agree_with_data(data: Dataset) -> Iterator[Problem]:
    """data/ledger/X.Y.yaml: named after a release in the data, citing a known notes source; each
    entry once; every decision names an existing item; every PR of a release's items is an entry of
    its ledger (an item with a PR the notes do not list is either misfiled or its PR is wrong)."""
    versions = {loaded.record.version: loaded for loaded in data.releases}
    known_sources = {source.id for source in data.sources.record.sources}
    item_ids = {item.id for loaded in data.releases for item in loaded.record.items}
    for ledger in data.ledgers:
        record = ledger.record
        if Path(ledger.file).stem != record.release:
            yield _problem(
                ledger, ("release",), f"{record.release!r} does not match the file name {Path(ledger.file).stem}.yaml"
            )
        if record.release not in versions:
            yield _problem(ledger, ("release",), f"no data/releases/{record.release}.yaml for this ledger")
        if record.notes not in known_sources:
            yield _problem(ledger, ("notes",), f"unknown source {record.notes!r} (add it to data/sources.yaml)")
        seen: set[tuple[str, str, int]] = set()
        for index, entry in enumerate(record.entries):
            place = (entry.section, entry.area, entry.n)
            if place in seen:
                where = f"{entry.section} / {entry.area or '(no area)'} #{entry.n}"
                yield _problem(ledger, ("entries", index, "n"), f"{where} is listed twice")
            seen.add(place)
            if entry.item_id is not None and entry.item_id not in item_ids:
                yield _problem(ledger, ("entries", index, "decision"), f"no item has the id {entry.item_id!r}")
        loaded = versions.get(record.release)
        if loaded is None:
            continue
        listed = {pr for entry in record.entries for pr in entry.prs}
        for item_index, item in enumerate(loaded.record.items):
            for pr_index, pr in enumerate(item.prs):
                if pr not in listed:
                    message = f"#{pr} is not an entry of {ledger.file} (cite the notes' PR, or move the item)"
                    yield _problem(loaded, ("items", item_index, "prs", pr_index), message)


def hardware_sources_exist(data: Dataset) -> Iterator[Problem]:
    """Every source data/gpus.yaml and data/drivers.yaml cite is in data/sources.yaml."""
    known = {source.id for source in data.sources.record.sources}
    for loaded in (data.gpus, data.drivers):
        if loaded is None:
            continue
        for path, source_id in cited_sources(loaded.record.model_dump(), ()):
            if source_id not in known:
                yield _problem(loaded, path, f"unknown source id {source_id!r} (add it to data/sources.yaml)")


def gpu_models_are_unambiguous(data: Dataset) -> Iterator[Problem]:
    """A GPU name (or alias) is listed once, and a compute capability has one family."""
    if data.gpus is None:
        return
    names: dict[str, int] = {}
    families: dict[str, str] = {}
    for index, model in enumerate(data.gpus.record.models):
        for offset, name in enumerate([model.name, *model.aliases]):
            key = " ".join(name.lower().split())
            path: FieldPath = ("models", index, "name") if offset == 0 else ("models", index, "aliases", offset - 1)
            if key in names:
                yield _problem(data.gpus, path, f"{name!r} is already listed (models[{names[key]}])")
            names.setdefault(key, index)
        family = families.setdefault(model.capability, model.family)
        if family != model.family:
            message = f"compute capability {model.capability} is {family!r} elsewhere in the file"
            yield _problem(data.gpus, ("models", index, "family"), message)


def cuda_builds_have_a_driver(data: Dataset) -> Iterator[Problem]:
    """Every CUDA build a release lists has its minimum driver in data/drivers.yaml, once."""
    if data.drivers is None:
        return
    rows: dict[str, int] = {}
    for index, build in enumerate(data.drivers.record.builds):
        if build.cuda in rows:
            yield _problem(data.drivers, ("builds", index, "cuda"), f"CUDA {build.cuda} is already listed")
        rows.setdefault(build.cuda, index)
    for loaded in data.releases:
        cuda = loaded.record.platform.cuda
        for block in ("stable", "experimental"):
            for index, build in enumerate(getattr(cuda, block)):
                minor = ".".join(build.version.split(".")[:2])
                if minor not in rows:
                    path: FieldPath = ("platform", "cuda", block, index, "version")
                    message = f"CUDA {minor} has no minimum NVIDIA driver in data/drivers.yaml (add its row)"
                    yield _problem(loaded, path, message)


def companions_agree_with_ecosystem(data: Dataset) -> Iterator[Problem]:
    """The first-party pins of the ecosystem snapshot (`make index`) against the `companions` of
    the releases: a companion version the data pairs with torch X.Y that pins torch exactly must pin
    an X.Y release, and one paired with a patch release (`with_patches`) must pin that patch. A
    disagreement the data explains with a dispute on that companion is not a problem."""
    if data.ecosystem is None:
        return
    snapshot = data.ecosystem.record
    for loaded in data.releases:
        release = loaded.record
        for index, companion in enumerate(release.companions):
            if release.dispute_on(f"companions.{companion.name}"):
                continue
            listed = snapshot.packages.get(companion.name, [])  # type: ignore[call-overload]
            pairs = [(companion.version, None, ("companions", index, "version"))]
            pairs += [
                (version, torch, ("companions", index, "with_patches", torch))
                for torch, version in companion.with_patches.items()
            ]
            for version, torch, path in pairs:
                if not version:
                    continue
                position, found = next(
                    ((n, r) for n, r in enumerate(listed) if r.version in {version, three_part(version)}), (-1, None)
                )
                if found is None:
                    continue
                pins = [_exact_pin(requirement) for requirement in found.requires]
                pins = [pin for pin in pins if pin is not None]
                if not pins:
                    continue
                agrees = (
                    any(pin == torch for pin in pins)
                    if torch
                    else any(pin.startswith(release.version + ".") for pin in pins)
                )
                if not agrees:
                    line, _ = data.ecosystem.positions.of(("packages", companion.name, position))
                    wanted = f"torch {torch}" if torch else f"a torch {release.version} release"
                    message = (
                        f"{companion.name} {found.version} requires torch=={' or '.join(pins)} "
                        f"({data.ecosystem.file}:{line}), not {wanted} (fix the companion, or record a dispute)"
                    )
                    yield _problem(loaded, path, message)


def _exact_pin(text: str) -> str | None:
    """'2.8.0' for an unconditional `torch==2.8.0`; None for anything else."""
    requirement = Requirement(text)
    if canonicalize_name(requirement.name) != TORCH or requirement.marker is not None:
        return None
    specifiers = list(requirement.specifier)
    if len(specifiers) == 1 and specifiers[0].operator == "==" and "*" not in specifiers[0].version:
        return str(Version(specifiers[0].version).public)
    return None


def install_anchors_are_distinct(data: Dataset) -> Iterator[Problem]:
    """Each wheel variant of a release has its own install anchor (`#install-rocm72`, the variant
    without dots): ROCm '7.2' and '72', or '6.2.4' and '6.24', would make one anchor for two rows."""
    for loaded in data.releases:
        platform = loaded.record.platform
        variants: list[tuple[FieldPath, str]] = [
            (("platform", "cuda", kind, index, "version"), wheels.cuda_tag(build.version))
            for kind in ("stable", "experimental")
            for index, build in enumerate(getattr(platform.cuda, kind))
        ]
        variants += [
            (("platform", "rocm", "stable", index), f"{ROCM}{version}")
            for index, version in enumerate(platform.rocm.stable or [])
        ]
        seen: dict[str, str] = {}
        for path, variant in variants:
            anchor = wheels.variant_anchor(variant)
            if anchor in seen and seen[anchor] != variant:
                message = (
                    f"{variant!r} and {seen[anchor]!r} would share the install anchor #install-{anchor}; "
                    "write the version as the download index names it"
                )
                yield _problem(loaded, path, message)
            seen.setdefault(anchor, variant)


RULES: tuple[Callable[[Dataset], Iterator[Problem]], ...] = (
    one_file_per_version,
    file_name_matches_version,
    ids_are_unique,
    anchors_are_not_reserved,
    releases_are_contiguous,
    dates_follow_versions,
    sources_exist,
    site_cited_sources_exist,
    references_resolve,
    lifecycles_are_bounded,
    disputes_favour_better_sources,
    platform_is_consistent,
    topics_exist,
    releases_agree_with_pypi,
    data_is_not_behind_pypi,
    companions_agree_with_ecosystem,
    ledgers_agree_with_data,
    hardware_sources_exist,
    gpu_models_are_unambiguous,
    cuda_builds_have_a_driver,
    install_anchors_are_distinct,
)


def run_checks(data: Dataset) -> list[Problem]:
    return [problem for rule in RULES for problem in rule(data)]
