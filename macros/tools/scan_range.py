"""The scanner's range when `--from/--to` are not given: read from the project being scanned.

From the first scanned path upwards, the first folder with a `pyproject.toml` or a
`requirements*.txt` is the project (the search stops at a `.git` folder). Its torch requirements
(`[project] dependencies`, optional dependencies, `[dependency-groups]`, Poetry's
`[tool.poetry.dependencies]`, every `requirements*.txt` and the files they include with `-r` or
`-c`) are combined; without any, the `Requires-Dist` lines of a source distribution's `PKG-INFO`
(what pip reads when `setup.py` computes the dependencies); without those, the torch version
pinned in `uv.lock` or `poetry.lock`. The range runs from the oldest release the requirement
allows to the newest release the data covers.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from macros.dataset.vocabulary import TORCH
from macros.tools.scan_files import ScanUsageError, printable

_LOCK_FILES = ("uv.lock", "poetry.lock")
#: The most a project file may hold: a pyproject.toml, a requirements file or PKG-INFO is a few
#: kilobytes; lock files of large projects reach a few megabytes.
MAX_PROJECT_FILE = 1024 * 1024
MAX_LOCK_FILE = 32 * 1024 * 1024
#: How many requirements files `-r`/`-c` may chain (pip sets no limit; a loop is cut anyway).
MAX_INCLUDES = 50
#: Patch releases tried per series: a series is allowed when one of its first patches is.
_PATCHES = range(0, 30)


@dataclass(frozen=True)
class ProjectRange:
    start: str  # X.Y, possibly older than the data ("0.0": any release)
    end: str
    requirement: str  # what was read, for the message
    where: str  # the files it came from


def project_range(paths: list[Path], releases: list[str]) -> ProjectRange:
    """The range for a scan of `paths`, or a ScanUsageError saying what is missing."""
    project = _project_folder(paths[0])
    if project is None:
        raise ScanUsageError(
            f"no --from/--to, and no pyproject.toml or requirements*.txt in {printable(paths[0])} or above it: "
            "give --from A --to B"
        )
    specifiers, files = _declared(project)
    if not files:
        specifiers, files = _metadata(project)
    if not files:
        specifiers, files = _locked(project)
    if not files:
        raise ScanUsageError(
            f"no --from/--to, and the project in {printable(project)} does not require torch "
            "(pyproject.toml, requirements*.txt, PKG-INFO, uv.lock, poetry.lock): give --from A --to B"
        )
    start = _oldest_series(specifiers, releases)
    if start is None:
        raise ScanUsageError(f"torch{specifiers} ({', '.join(files)}) allows no release: give --from A --to B")
    return ProjectRange(start, releases[-1], f"torch{specifiers or ''}", ", ".join(files))


def _project_folder(path: Path) -> Path | None:
    folder = path.resolve()
    if not folder.is_dir():
        folder = folder.parent
    for candidate in [folder, *folder.parents]:
        if os.path.lexists(candidate / "pyproject.toml") or any(candidate.glob("requirements*.txt")):
            return candidate
        if (candidate / ".git").exists():
            return None
    return None


def _declared(project: Path) -> tuple[SpecifierSet, list[str]]:
    combined, files = SpecifierSet(), []
    pyproject = project / "pyproject.toml"
    if os.path.lexists(pyproject):
        found = list(_pyproject_specifiers(pyproject))
        if found:
            files.append(pyproject.name)
            for specifier in found:
                combined &= specifier
    seen: set[Path] = set()
    for requirements in sorted(project.glob("requirements*.txt")):
        for path, specifier in _requirements_specifiers(requirements, seen):
            name = path.relative_to(project).as_posix() if path.is_relative_to(project) else str(path)
            if name not in files:
                files.append(name)
            combined &= specifier
    return combined, files


def _metadata(project: Path) -> tuple[SpecifierSet, list[str]]:
    """A source distribution's core metadata: `Requires-Dist:` header lines of `PKG-INFO`."""
    info = project / "PKG-INFO"
    if not os.path.lexists(info):
        return SpecifierSet(), []
    text = read_text(info, MAX_PROJECT_FILE, errors="replace")
    header = text.split("\n\n", 1)[0]  # the description follows the first blank line
    lines = [line.split(":", 1)[1].strip() for line in header.splitlines() if line.startswith("Requires-Dist:")]
    combined = SpecifierSet()
    found = list(_torch_specifiers(lines, printable(info)))
    for specifier in found:
        combined &= specifier
    return combined, [info.name] if found else []


def _pyproject_specifiers(path: Path) -> Iterator[SpecifierSet]:
    document = read_toml(path, MAX_PROJECT_FILE)
    project = _table(document, "project", path)
    lines = _strings(project.get("dependencies", []), path, "[project] dependencies")
    for table_name, group in (
        ("[project.optional-dependencies]", _table(project, "optional-dependencies", path)),
        ("[dependency-groups]", _table(document, "dependency-groups", path)),
    ):
        for name, entries in group.items():
            if not isinstance(entries, list):
                raise ScanUsageError(f"{printable(path)}: {table_name} {printable(name)} is not a list")
            # a dependency group may include another: {include-group = "test"}
            lines += [entry for entry in entries if isinstance(entry, str)]
    yield from _torch_specifiers(lines, printable(path))
    poetry = _table(_table(_table(document, "tool", path), "poetry", path), "dependencies", path)
    value = poetry.get(TORCH)
    if isinstance(value, dict):
        value = value.get("version")
    if isinstance(value, str) and (specifier := _poetry_specifier(value)) is not None:
        yield specifier


def _table(document: dict, key: str, path: Path) -> dict:
    value = document.get(key, {})
    if not isinstance(value, dict):
        raise ScanUsageError(f"{printable(path)}: {key} is not a table ({type(value).__name__})")
    return value


def _strings(value: object, path: Path, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(entry, str) for entry in value):
        raise ScanUsageError(f"{printable(path)}: {what} is not a list of strings")
    return list(value)


def read_text(path: Path, limit: int, errors: str = "strict") -> str:
    """A project file's text, read with a bound and without blocking: a FIFO, a device or a
    folder in its place, a file over `limit` or text that is not UTF-8 is a usage error naming
    the file (and the line, where known)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as error:
        raise ScanUsageError(f"{printable(path)}: cannot be read ({error.strerror})") from None
    mode = os.fstat(descriptor).st_mode
    if not stat.S_ISREG(mode):
        os.close(descriptor)
        kind = "a FIFO" if stat.S_ISFIFO(mode) else "a folder" if stat.S_ISDIR(mode) else "a device or socket"
        raise ScanUsageError(f"{printable(path)}: not a regular file ({kind})")
    with os.fdopen(descriptor, "rb") as file:
        try:
            data = file.read(limit + 1)
        except OSError as error:
            raise ScanUsageError(f"{printable(path)}: cannot be read ({error.strerror})") from None
    if len(data) > limit:
        raise ScanUsageError(f"{printable(path)}: larger than {limit // (1024 * 1024)} MiB")
    try:
        return data.decode("utf-8", errors=errors).removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ScanUsageError(f"{printable(path)}:{line}: not UTF-8 (byte 0x{data[error.start]:02x})") from None


_TOML_PLACE = re.compile(r"\(at line (\d+), column (\d+)\)")


def read_toml(path: Path, limit: int) -> dict:
    text = read_text(path, limit)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        place = _TOML_PLACE.search(message)
        where = f"{printable(path)}:{place[1]}:{place[2]}" if place else printable(path)
        raise ScanUsageError(f"{where}: not valid TOML ({_TOML_PLACE.sub('', message).strip()})") from None
    except (RecursionError, MemoryError):
        raise ScanUsageError(f"{printable(path)}: nested too deeply to read as TOML") from None


#: pip's include lines: `-r other.txt`, `--requirement=other.txt`, constraints `-c`.
_INCLUDE = re.compile(r"^(?:-r|--requirement|-c|--constraint)(?:\s*=\s*|\s+)(?P<path>\S+)")


def _requirements_specifiers(
    path: Path, seen: set[Path], included_from: str | None = None
) -> Iterator[tuple[Path, SpecifierSet]]:
    """(file, specifier) for each torch requirement in `path` and the files it includes, each
    file read once (an include loop ends); an included file that does not exist is left out,
    one that is not a regular file is an error naming the line that includes it."""
    if not os.path.lexists(path):
        return
    resolved = path.resolve()
    if resolved in seen:
        return
    if len(seen) >= MAX_INCLUDES:
        raise ScanUsageError(f"{included_from}: more than {MAX_INCLUDES} requirements files included")
    seen.add(resolved)
    try:
        text = read_text(path, MAX_PROJECT_FILE, errors="replace")
    except ScanUsageError as error:
        raise ScanUsageError(f"{included_from}: includes {error}" if included_from else str(error)) from None
    lines = [line.split(" #")[0].strip() for line in text.splitlines()]
    for number, line in enumerate(lines, 1):
        if include := _INCLUDE.match(line):
            yield from _requirements_specifiers(path.parent / include["path"], seen, f"{printable(path)}:{number}")
    where = printable(path)
    for number, line in enumerate(lines, 1):
        if line and not line.startswith(("#", "-")):
            for specifier in _torch_specifiers([line], f"{where}:{number}"):
                yield path, specifier


def _torch_specifiers(lines: list[str], where: str = "") -> Iterator[SpecifierSet]:
    for line in lines:
        try:
            requirement = Requirement(line)
        except InvalidRequirement as error:
            if _names_torch(line):  # torch's own requirement, unreadable: the range would be wrong
                reason = str(error).splitlines()[0]
                raise ScanUsageError(
                    f"{where}: torch requirement {printable(line)!r} cannot be read ({reason})"
                ) from None
            continue  # not a requirement this reader understands (a URL, an option): not torch's
        if canonicalize_name(requirement.name) == TORCH:
            yield requirement.specifier


def _names_torch(line: str) -> bool:
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", line)
    return match is not None and canonicalize_name(match[1]) == TORCH and not line.strip().startswith(("http", "git+"))


def _poetry_specifier(value: str) -> SpecifierSet | None:
    # Poetry's ^2.1 and ~2.1 allow 2.1 and later patches or minors: the lower bound is what counts.
    text = re.sub(r"^[\^~](?=\d)", ">=", value.strip())
    try:
        return SpecifierSet(text if text != "*" else "")
    except InvalidSpecifier:
        return None


def _locked(project: Path) -> tuple[SpecifierSet, list[str]]:
    for name in _LOCK_FILES:
        lock = project / name
        if not os.path.lexists(lock):
            continue
        packages = read_toml(lock, MAX_LOCK_FILE).get("package", [])
        if not isinstance(packages, list):
            raise ScanUsageError(f"{printable(lock)}: package is not an array of tables")
        for package in packages:
            if isinstance(package, dict) and canonicalize_name(str(package.get("name", ""))) == TORCH:
                try:
                    return SpecifierSet(f"=={Version(str(package.get('version')))}"), [name]
                except InvalidVersion:
                    version = printable(str(package.get("version")))
                    raise ScanUsageError(f"{printable(lock)}: torch's version {version!r} is not a version") from None
    return SpecifierSet(), []


def _oldest_series(specifiers: SpecifierSet, releases: list[str]) -> str | None:
    """The oldest X.Y series with a release the specifiers allow; "0.0" when they set no lower
    bound; a series older than the data's first when the bound is older."""
    lower = [
        Version(s.version.removesuffix(".*"))
        for s in specifiers
        if s.operator in {">=", ">", "==", "~=", "==="} and _is_version(s.version.removesuffix(".*"))
    ]
    if not lower:
        return "0.0"
    bound = max(lower)
    series = [f"{bound.major}.{bound.minor}"] + [
        release for release in releases if Version(release) > Version(f"{bound.major}.{bound.minor}")
    ]
    if specifiers.contains(bound, prereleases=True):
        return series[0]  # an exact pin (==2.5.1+cu121) allows its own series
    for candidate in series:
        if any(specifiers.contains(f"{candidate}.{patch}") for patch in _PATCHES):
            return candidate
    return None


def _is_version(text: str) -> bool:
    try:
        Version(text)
    except InvalidVersion:
        return False
    return True
