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

import re
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
        if (candidate / "pyproject.toml").is_file() or any(candidate.glob("requirements*.txt")):
            return candidate
        if (candidate / ".git").exists():
            return None
    return None


def _declared(project: Path) -> tuple[SpecifierSet, list[str]]:
    combined, files = SpecifierSet(), []
    pyproject = project / "pyproject.toml"
    if pyproject.is_file():
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
    if not info.is_file():
        return SpecifierSet(), []
    try:
        text = info.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise ScanUsageError(f"{printable(info)}: cannot be read ({error.strerror})") from None
    header = text.split("\n\n", 1)[0]  # the description follows the first blank line
    lines = [line.split(":", 1)[1].strip() for line in header.splitlines() if line.startswith("Requires-Dist:")]
    combined = SpecifierSet()
    found = list(_torch_specifiers(lines))
    for specifier in found:
        combined &= specifier
    return combined, [info.name] if found else []


def _pyproject_specifiers(path: Path) -> Iterator[SpecifierSet]:
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ScanUsageError(f"{printable(path)}: cannot be read as TOML ({error})") from None
    project = document.get("project", {})
    lines = list(project.get("dependencies", []))
    for group in (project.get("optional-dependencies", {}), document.get("dependency-groups", {})):
        for entries in group.values() if isinstance(group, dict) else ():
            lines += [entry for entry in entries if isinstance(entry, str)]
    yield from _torch_specifiers(lines)
    poetry = document.get("tool", {}).get("poetry", {}).get("dependencies", {})
    value = poetry.get(TORCH) if isinstance(poetry, dict) else None
    if isinstance(value, dict):
        value = value.get("version")
    if isinstance(value, str) and (specifier := _poetry_specifier(value)) is not None:
        yield specifier


#: pip's include lines: `-r other.txt`, `--requirement=other.txt`, constraints `-c`.
_INCLUDE = re.compile(r"^(?:-r|--requirement|-c|--constraint)(?:\s*=\s*|\s+)(?P<path>\S+)")


def _requirements_specifiers(path: Path, seen: set[Path]) -> Iterator[tuple[Path, SpecifierSet]]:
    """(file, specifier) for each torch requirement in `path` and the files it includes, each
    file read once (an include loop ends); an included file that does not exist is left out."""
    resolved = path.resolve()
    if resolved in seen or not path.is_file():
        return
    seen.add(resolved)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise ScanUsageError(f"{printable(path)}: cannot be read ({error.strerror})") from None
    lines = [line.split(" #")[0].strip() for line in text.splitlines()]
    for line in lines:
        if include := _INCLUDE.match(line):
            yield from _requirements_specifiers(path.parent / include["path"], seen)
    for specifier in _torch_specifiers([line for line in lines if line and not line.startswith(("#", "-"))]):
        yield path, specifier


def _torch_specifiers(lines: list[str]) -> Iterator[SpecifierSet]:
    for line in lines:
        try:
            requirement = Requirement(line)
        except InvalidRequirement:
            continue  # not a requirement this reader understands (a URL, an option): not torch's
        if canonicalize_name(requirement.name) == TORCH:
            yield requirement.specifier


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
        if not lock.is_file():
            continue
        try:
            packages = tomllib.loads(lock.read_text(encoding="utf-8")).get("package", [])
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
            raise ScanUsageError(f"{printable(lock)}: cannot be read as TOML ({error})") from None
        for package in packages:
            if isinstance(package, dict) and canonicalize_name(str(package.get("name", ""))) == TORCH:
                try:
                    return SpecifierSet(f"=={Version(str(package.get('version')))}"), [name]
                except InvalidVersion:
                    continue
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
