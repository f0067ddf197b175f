"""Queries: the catalog, the entry point to the validated data.

Queries over the validated data: releases in version order, items by id, the releases a guide
crosses, lifecycle chains, and the numbered citations of a page. `open_catalog` is the one entry
point used by the edges: it loads and checks `data/` once and caches the result until a file's
size or modification time changes, so the hook and every macro share one parsed model per build.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from macros.dataset.checks import Dataset, run_checks
from macros.dataset.load import Loaded, Model, Positions, content_stamp, display_name, load_file
from macros.dataset.model import (
    Dispute,
    DriverTable,
    GpuTable,
    Item,
    Ledger,
    PypiSnapshot,
    Release,
    Source,
    SourceRegistry,
    Topic,
    TopicRegistry,
    version_key,
)
from macros.dataset.problems import DataError, Problem

T = TypeVar("T")


def fields_except(record: BaseModel, ignored: frozenset[str]) -> tuple[object, ...]:
    """What a page reads of a record (a release, an item) when it shows none of the `ignored`
    fields: the other field values, for `mkdocs serve` to compare by equality (an unchanged
    release's are the same objects)."""
    return tuple(getattr(record, name) for name in type(record).model_fields if name not in ignored)


def items_except(catalog: Catalog, release: Release, ignored: frozenset[str]) -> tuple[tuple[object, ...], ...]:
    """`fields_except` of each item of `release`, computed once per catalog (every guide into a
    release, every other release's page, reads the same)."""
    key = ("items-except", release.version, ignored)
    return catalog.memo(key, lambda: tuple(fields_except(item, ignored) for item in release.items))  # type: ignore[no-any-return]


@dataclass(frozen=True, repr=False)
class Catalog:
    releases: tuple[Release, ...]  # oldest first
    sources: dict[str, Source]
    reviewed: str | None = None
    topics: dict[str, Topic] = field(default_factory=dict)
    pypi: PypiSnapshot | None = None  # data/pypi.json, when `make index` has written it
    ledgers: dict[str, Ledger] = field(default_factory=dict)  # release -> data/ledger/X.Y.yaml
    gpus: GpuTable | None = None  # data/gpus.yaml: GPU models -> compute capability
    drivers: DriverTable | None = None  # data/drivers.yaml: CUDA build -> minimum NVIDIA driver
    # Answers computed from this catalog, kept as long as it lives (one build, or until the data
    # changes under `mkdocs serve`): an upgrade guide is computed once for its page and its JSON.
    _memo: dict[Hashable, Any] = field(default_factory=dict, repr=False, compare=False)

    def shared_inputs(self) -> tuple[object, ...]:
        """What every page that cites and shows platforms reads besides the releases: the source
        registry, the package index and the GPU and driver tables (an input list for
        render/made_from.py: records, compared by identity)."""
        return (*self.sources.values(), self.pypi, self.gpus, self.drivers)

    def __repr__(self) -> str:
        # Short: mkdocs-macros writes its variables (the catalog among them) to a debug payload on
        # every build, and the records' full repr took a quarter of a second of each rebuild.
        versions = f"{self.releases[0].version}…{self.releases[-1].version}" if self.releases else "none"
        return f"<Catalog of {len(self.releases)} releases ({versions}), {len(self.sources)} sources>"

    def memo(self, key: Hashable, compute: Callable[[], T]) -> T:
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    @cached_property
    def by_version(self) -> dict[str, Release]:
        return {release.version: release for release in self.releases}

    @cached_property
    def items(self) -> dict[str, tuple[Release, Item]]:
        return {item.id: (release, item) for release in self.releases for item in release.items}

    @cached_property
    def followers(self) -> dict[str, list[str]]:
        """Item id -> ids of later items that continue its lifecycle."""
        chain: dict[str, list[str]] = {}
        for release in self.releases:
            for item in release.items:
                if item.follows:
                    chain.setdefault(item.follows, []).append(item.id)
        return chain

    @property
    def latest(self) -> Release:
        return self.releases[-1]

    def release(self, version: str) -> Release:
        try:
            return self.by_version[version]
        except KeyError:
            known = ", ".join(self.by_version)
            raise KeyError(f"no release {version!r} in data/releases (known: {known})") from None

    def previous(self, release: Release) -> Release | None:
        index = self.releases.index(release)
        return self.releases[index - 1] if index else None

    def crossed(self, start: str, end: str) -> tuple[Release, ...]:
        """Releases a guide from `start` to `end` covers: after start, up to and including end."""
        low, high = version_key(start), version_key(end)
        return tuple(r for r in self.releases if low < r.key <= high)

    def release_of(self, item_id: str) -> Release:
        return self.items[item_id][0]

    def lifecycle(self, item_id: str) -> list[tuple[Release, Item]]:
        """The whole chain an item belongs to, oldest first (deprecation -> removal ...)."""
        root = item_id
        while (item := self.items[root][1]).follows:
            root = item.follows
        chain, queue = [], [root]
        while queue:
            current = queue.pop(0)
            chain.append(self.items[current])
            queue.extend(self.followers.get(current, []))
        return sorted(chain, key=lambda pair: pair[0].key)

    def disputes_of(self, item_id: str) -> list[Dispute]:
        release = self.release_of(item_id)
        return [dispute for dispute in release.disputes if item_id in dispute.items]


@dataclass
class Citations:
    """Numbers sources in order of first use on one page: [1], [2], ..."""

    catalog: Catalog
    numbers: dict[str, int] = field(default_factory=dict)  # source id -> its number, in order of first use

    def cite(self, source_ids: Iterable[str]) -> list[tuple[int, Source]]:
        numbered = []
        for source_id in source_ids:
            number = self.numbers.setdefault(source_id, len(self.numbers) + 1)
            numbered.append((number, self.catalog.sources[source_id]))
        return numbered

    def listing(self) -> list[tuple[int, Source]]:
        return [(number, self.catalog.sources[s]) for s, number in self.numbers.items()]


# --- loading, with a cache shared by the hook and the macros -------------------------------------

_cache: dict[Path, tuple[tuple, Catalog]] = {}
#: Each file's load result by its stamp: under `mkdocs serve`, saving one release file reparses
#: that file only (the checks across files still run on every load).
_file_cache: dict[tuple[Path, type], tuple[tuple, tuple]] = {}


def _load(path: Path, model: type[Model]) -> tuple[Model | None, Positions, list[Problem]]:
    stamp = content_stamp(path)
    if stamp[0] == "unreadable":
        return load_file(path, model)  # it reports the missing or unreadable file
    cached = _file_cache.get((path, model))
    if cached and cached[0] == stamp:
        return cached[1]  # type: ignore[return-value]
    result = load_file(path, model)
    _file_cache[(path, model)] = (stamp, result)
    return result


#: The package index snapshot, relative to data/ (written by `make index`, optional).
PYPI_SNAPSHOT = "pypi.json"
#: GPU models and NVIDIA drivers, relative to data/ (optional: a made-up test dataset may omit them).
GPUS_FILE = "gpus.yaml"
DRIVERS_FILE = "drivers.yaml"


#: Folders of data/ whose every file the loader reads: a file it would not read (a `2.14.yml`) is
#: an error, so that no release or ledger vanishes from the site in silence.
RELEASES_DIR = "releases"
LEDGER_DIR = "ledger"


def _is_editor_file(name: str) -> bool:
    """Editors' swap and backup files (`.2.14.yaml.swp`, `2.14.yaml~`, `#2.14.yaml#`) come and go
    while a contributor types under `make serve`; they are not data."""
    return name.startswith((".", "#")) or name.endswith("~")


def folder_files(folder: Path) -> list[Path]:
    """Every entry of a data folder but editors' files, sorted; [] when the folder is absent."""
    try:
        return sorted(p for p in folder.iterdir() if not _is_editor_file(p.name))
    except OSError:  # absent, not a folder, a link loop: reported where the folder is loaded
        return []


def data_files(data_dir: Path) -> list[Path]:
    registries = [data_dir / "sources.yaml", data_dir / "topics.yaml", data_dir / PYPI_SNAPSHOT]
    registries += [data_dir / GPUS_FILE, data_dir / DRIVERS_FILE]
    return [*registries, *folder_files(data_dir / RELEASES_DIR), *folder_files(data_dir / LEDGER_DIR)]


def _unread(paths: list[Path], folder: str) -> tuple[list[Path], list[Problem]]:
    """The YAML files of a folder, and a problem for every other entry in it."""
    read, problems = [], []
    for path in paths:
        if path.suffix == ".yaml":
            read.append(path)
            continue
        hint = f"rename it to {path.stem}.yaml" if path.suffix in {".yml", ".YAML"} else "move it out"
        message = f"is not read: {folder}/ holds only X.Y.yaml files ({hint})"
        problems.append(Problem(display_name(path), 1, 1, "(file)", message))
    return read, problems


def open_catalog(data_dir: Path, *, with_pypi: bool = True) -> Catalog:
    """Load, validate and check `data_dir` once; raise DataError listing every problem.

    `with_pypi=False` leaves the package index snapshot out, and with it every check against it:
    `make index` must be able to refresh a snapshot that the data has moved past (a new release,
    or a companion version the old snapshot does not list)."""
    if not with_pypi:
        return _load_catalog(data_dir.resolve(), with_pypi=False)
    data_dir = data_dir.resolve()
    files = data_files(data_dir)
    stamp = tuple((str(p), content_stamp(p)) for p in files if p.exists() or p.is_symlink())
    cached = _cache.get(data_dir)
    if cached and cached[0] == stamp:
        return cached[1]
    catalog = _load_catalog(data_dir)
    _cache[data_dir] = (stamp, catalog)
    return catalog


def _link_outside(path: Path, data_dir: Path) -> str | None:
    """A data file or folder that is (or sits in) a symbolic link to something outside data/ would
    let a pull request publish whatever that file holds on the builder's machine: refuse it.
    Every path the build reads goes through here: the registries, the folders, their files."""
    try:
        target = path.resolve()
    except (OSError, RuntimeError):  # a link loop
        return "is a symbolic link that never ends (a loop); replace it with the file"
    if target.is_relative_to(data_dir):
        return None
    return f"is a symbolic link to {target}, outside {display_name(data_dir)}; copy the file in instead"


def _registry(data_dir: Path, name: str, problems: list[Problem]) -> Path | None:
    """data/NAME when it exists and stays inside data/; else None (and a problem for a link out)."""
    path = data_dir / name
    if not path.exists() and not path.is_symlink():
        return None
    outside = _link_outside(path, data_dir)
    if outside:
        problems.append(Problem(display_name(path), 1, 1, "(file)", outside))
        return None
    return path


def _load_folder(
    data_dir: Path, folder: str, model: type[Model]
) -> tuple[list[Path], list[Loaded[Model]], list[Problem]]:
    """Every X.Y.yaml of a data folder loaded as `model`; a problem for any other file in it and
    for a link out of data/."""
    outside = _link_outside(data_dir / folder, data_dir)
    if outside:
        return [], [], [Problem(display_name(data_dir / folder), 1, 1, "(file)", outside)]
    paths, problems = _unread(folder_files(data_dir / folder), folder)
    records: list[Loaded[Model]] = []
    for path in paths:
        outside = _link_outside(path, data_dir)
        if outside:
            problems.append(Problem(display_name(path), 1, 1, "(file)", outside))
            continue
        record, positions, found = _load(path, model)
        problems += found
        if record is not None:
            records.append(Loaded(display_name(path), record, positions))
    return paths, records, problems


def _load_catalog(data_dir: Path, with_pypi: bool = True) -> Catalog:
    problems: list[Problem] = []
    sources_path = data_dir / "sources.yaml"
    if _registry(data_dir, "sources.yaml", problems) is None:
        missing = [Problem(str(sources_path), 1, 1, "(file)", "the sources registry is missing")]
        raise DataError(problems or missing)
    registry, positions, found = _load(sources_path, SourceRegistry)
    problems += found
    topics_path = data_dir / "topics.yaml"
    topics: TopicRegistry | None = TopicRegistry()
    topic_positions = None
    if _registry(data_dir, "topics.yaml", problems):
        topics, topic_positions, found = _load(topics_path, TopicRegistry)
        problems += found
    release_paths, releases, found = _load_folder(data_dir, RELEASES_DIR, Release)
    problems += found
    if not release_paths and not found:
        where = display_name(data_dir / "releases")
        problems.append(Problem(where, 1, 1, "(file)", "holds no release files (X.Y.yaml); add at least one"))
    _, ledgers, found = _load_folder(data_dir, LEDGER_DIR, Ledger)
    problems += found
    pypi_path = data_dir / PYPI_SNAPSHOT
    pypi: Loaded[PypiSnapshot] | None = None
    if with_pypi and _registry(data_dir, PYPI_SNAPSHOT, problems):
        snapshot, pypi_positions, found = _load(pypi_path, PypiSnapshot)
        problems += found
        if snapshot is not None:
            pypi = Loaded(display_name(pypi_path), snapshot, pypi_positions)
    gpus, found = _load_optional(data_dir / GPUS_FILE, GpuTable)
    problems += found
    drivers, found = _load_optional(data_dir / DRIVERS_FILE, DriverTable)
    problems += found
    if registry is not None and topics is not None:
        topic_file = Loaded(display_name(topics_path), topics, topic_positions) if topic_positions else None
        sources_file = Loaded(display_name(sources_path), registry, positions)
        dataset = Dataset(sources_file, releases, topic_file, pypi, ledgers, gpus, drivers)
        problems += run_checks(dataset)
    if problems:
        raise DataError(problems)
    assert registry is not None and topics is not None
    ordered = tuple(sorted((loaded.record for loaded in releases), key=lambda r: r.key))
    return Catalog(
        ordered,
        {source.id: source for source in registry.sources},
        registry.reviewed,
        {topic.id: topic for topic in topics.topics},
        pypi.record if pypi else None,
        {loaded.record.release: loaded.record for loaded in ledgers},
        gpus.record if gpus else None,
        drivers.record if drivers else None,
    )


def _load_optional(path: Path, model: type[Model]) -> tuple[Loaded[Model] | None, list[Problem]]:
    """A registry file that a dataset may leave out (a test's made-up data): None when absent."""
    if not path.exists():
        return None, []
    record, positions, found = _load(path, model)
    return (Loaded(display_name(path), record, positions) if record is not None else None), found
