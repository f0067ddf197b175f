"""Reading stage: every file-system step on data/, and the one entry point that returns it loaded.

`read_dataset(data_dir)` finds the files (the registries, every X.Y.yaml of releases/ and
ledger/), skips editors' swap and backup files, refuses links that lead out of data/ and files a
folder would not read, loads the optional files when present (`load.py` parses and validates each),
runs the checks across files (`checks.py`) and returns the loaded records, or raises DataError
listing every problem. Later stages receive records and never touch a path.

Results are cached by each file's content (`load.content_stamp`): under `mkdocs serve`, saving
one release file reparses that file only (the checks across files still run on every read), and
an unchanged data/ gives back the same Dataset object.
"""

from __future__ import annotations

from pathlib import Path

from macros.dataset.checks import Dataset, run_checks
from macros.dataset.load import Loaded, Model, Positions, content_stamp, display_name, load_file
from macros.dataset.model import (
    DriverTable,
    EcosystemSnapshot,
    GpuTable,
    Ledger,
    PypiSnapshot,
    Release,
    SourceRegistry,
    TopicRegistry,
)
from macros.dataset.problems import DataError, Problem

#: The sources registry, relative to data/ (required).
SOURCES_FILE = "sources.yaml"
#: The topics registry, relative to data/ (optional).
TOPICS_FILE = "topics.yaml"
#: The package index snapshot, relative to data/ (written by `make index`, optional).
PYPI_SNAPSHOT = "pypi.json"
#: The ecosystem snapshot, relative to data/ (written by `make index`, optional): packages built on
#: torch, their releases and what each declares about torch.
ECOSYSTEM_SNAPSHOT = "ecosystem.json"
#: GPU models and NVIDIA drivers, relative to data/ (optional: a made-up test dataset may omit them).
GPUS_FILE = "gpus.yaml"
DRIVERS_FILE = "drivers.yaml"
#: Folders of data/ whose every file the loader reads: a file it would not read (a `2.14.yml`) is
#: an error, so that no release or ledger vanishes from the site in silence.
RELEASES_DIR = "releases"
LEDGER_DIR = "ledger"

_cache: dict[Path, tuple[tuple, Dataset]] = {}
#: Each file's load result by its stamp: under `mkdocs serve`, saving one release file reparses
#: that file only (the checks across files still run on every read).
_file_cache: dict[tuple[Path, type], tuple[tuple, tuple]] = {}


def read_dataset(data_dir: Path, *, with_pypi: bool = True) -> Dataset:
    """Every record of `data_dir`, loaded and checked; raise DataError listing every problem.

    `with_pypi=False` leaves the package index snapshot out, and with it every check against it:
    `make index` must be able to refresh a snapshot that the data has moved past (a new release,
    or a companion version the old snapshot does not list)."""
    data_dir = data_dir.resolve()
    if not with_pypi:
        return _read(data_dir, with_pypi=False)
    files = data_files(data_dir)
    stamp = tuple((str(p), content_stamp(p)) for p in files if p.exists() or p.is_symlink())
    cached = _cache.get(data_dir)
    if cached and cached[0] == stamp:
        return cached[1]
    dataset = _read(data_dir)
    _cache[data_dir] = (stamp, dataset)
    return dataset


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
    """Every file `read_dataset` may read (those present or not): its cache's key."""
    registries = [data_dir / SOURCES_FILE, data_dir / TOPICS_FILE, data_dir / PYPI_SNAPSHOT]
    registries.append(data_dir / ECOSYSTEM_SNAPSHOT)
    registries += [data_dir / GPUS_FILE, data_dir / DRIVERS_FILE]
    return [*registries, *folder_files(data_dir / RELEASES_DIR), *folder_files(data_dir / LEDGER_DIR)]


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


def _load_optional(path: Path, model: type[Model]) -> tuple[Loaded[Model] | None, list[Problem]]:
    """A registry file that a dataset may leave out (a test's made-up data): None when absent."""
    if not path.exists():
        return None, []
    record, positions, found = _load(path, model)
    return (Loaded(display_name(path), record, positions) if record is not None else None), found


def _read(data_dir: Path, with_pypi: bool = True) -> Dataset:
    problems: list[Problem] = []
    sources_path = data_dir / SOURCES_FILE
    if _registry(data_dir, SOURCES_FILE, problems) is None:
        missing = [Problem(str(sources_path), 1, 1, "(file)", "the sources registry is missing")]
        raise DataError(problems or missing)
    registry, positions, found = _load(sources_path, SourceRegistry)
    problems += found
    topics_path = data_dir / TOPICS_FILE
    topics: TopicRegistry | None = TopicRegistry()
    topic_positions = None
    if _registry(data_dir, TOPICS_FILE, problems):
        topics, topic_positions, found = _load(topics_path, TopicRegistry)
        problems += found
    release_paths, releases, found = _load_folder(data_dir, RELEASES_DIR, Release)
    problems += found
    if not release_paths and not found:
        where = display_name(data_dir / RELEASES_DIR)
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
    ecosystem: Loaded[EcosystemSnapshot] | None = None
    if with_pypi and _registry(data_dir, ECOSYSTEM_SNAPSHOT, problems):
        ecosystem, found = _load_optional(data_dir / ECOSYSTEM_SNAPSHOT, EcosystemSnapshot)
        problems += found
    gpus, found = _load_optional(data_dir / GPUS_FILE, GpuTable)
    problems += found
    drivers, found = _load_optional(data_dir / DRIVERS_FILE, DriverTable)
    problems += found
    dataset = None
    if registry is not None and topics is not None:
        topic_file = Loaded(display_name(topics_path), topics, topic_positions) if topic_positions else None
        sources_file = Loaded(display_name(sources_path), registry, positions)
        dataset = Dataset(sources_file, releases, topic_file, pypi, ledgers, gpus, drivers, ecosystem)
        problems += run_checks(dataset)
    if problems:
        raise DataError(problems)
    assert dataset is not None
    return dataset
