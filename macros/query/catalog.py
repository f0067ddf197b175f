"""Queries: the catalog, the entry point to the validated data.

Queries over the validated data: releases in version order, items by id, the releases a guide
crosses, lifecycle chains, and the numbered citations of a page. `open_catalog` is the one entry
point used by the edges: it takes the records `macros/dataset/read.py` loads and checks from
`data/` (this stage never touches a file) and makes one catalog of each version of the data, so
the hook and every macro share one parsed model per build.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

from pydantic import BaseModel

from macros.dataset.checks import Dataset
from macros.dataset.model import (
    Dispute,
    DriverTable,
    EcosystemSnapshot,
    GpuTable,
    Item,
    Ledger,
    PypiSnapshot,
    Release,
    Source,
    Topic,
    version_key,
)
from macros.dataset.read import read_dataset

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
    ecosystem: EcosystemSnapshot | None = None  # data/ecosystem.json, when `make index` has written it
    # Answers computed from this catalog, kept as long as it lives (one build, or until the data
    # changes under `mkdocs serve`): an upgrade guide is computed once for its page and its JSON.
    _memo: dict[Hashable, Any] = field(default_factory=dict, repr=False, compare=False)

    def shared_inputs(self) -> tuple[object, ...]:
        """What every page that cites and shows platforms reads besides the releases: the source
        registry, the package index and the GPU and driver tables (an input list for
        render/made_from.py: records, compared by identity)."""
        return (*self.sources.values(), self.pypi, self.gpus, self.drivers, self.ecosystem)

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


# --- the catalog of data/, shared by the hook and the macros --------------------------------------

#: The catalog of each Dataset `read_dataset` returned, kept as long as that Dataset lives: it
#: returns the same one while the data is unchanged, so the hook and every macro share one catalog.
_catalogs: WeakKeyDictionary[Dataset, Catalog] = WeakKeyDictionary()


def open_catalog(data_dir: Path, *, with_pypi: bool = True) -> Catalog:
    """The catalog of `data_dir`, read and checked by `macros.dataset.read.read_dataset` (which
    raises DataError listing every problem); made once per version of the data.

    `with_pypi=False` leaves the package index snapshot out, and with it every check against it:
    `make index` must be able to refresh a snapshot that the data has moved past (a new release,
    or a companion version the old snapshot does not list)."""
    dataset = read_dataset(data_dir, with_pypi=with_pypi)
    if not with_pypi:
        return catalog_of(dataset)
    catalog = _catalogs.get(dataset)
    if catalog is None:
        catalog = _catalogs[dataset] = catalog_of(dataset)
    return catalog


def catalog_of(dataset: Dataset) -> Catalog:
    """The catalog of loaded, checked records: releases in version order, registries by id."""
    registry = dataset.sources.record
    ordered = tuple(sorted((loaded.record for loaded in dataset.releases), key=lambda r: r.key))
    return Catalog(
        ordered,
        {source.id: source for source in registry.sources},
        registry.reviewed,
        {topic.id: topic for topic in dataset.topics.record.topics} if dataset.topics else {},
        dataset.pypi.record if dataset.pypi else None,
        {loaded.record.release: loaded.record for loaded in dataset.ledgers},
        dataset.gpus.record if dataset.gpus else None,
        dataset.drivers.record if dataset.drivers else None,
        dataset.ecosystem.record if dataset.ecosystem else None,
    )
