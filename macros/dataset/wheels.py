"""The package index snapshot read as facts: which wheels exist for a version, for which Python and
platform, when they were uploaded. Wheel names are parsed by `packaging` (the library pip uses).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

from packaging.utils import InvalidWheelFilename, parse_wheel_filename

from macros.dataset.model import PypiSnapshot, WheelFile

#: Platforms the wheels table shows, in this order, and how to recognise their platform tags.
PLATFORMS: tuple[tuple[str, str, str], ...] = (  # label, a word of the tag, its ending
    ("Linux x86_64", "linux", "x86_64"),
    ("Linux aarch64", "linux", "aarch64"),
    ("macOS arm64", "macosx", "arm64"),
    ("macOS x86_64", "macosx", "x86_64"),
    ("Windows amd64", "win", "amd64"),
)


def cuda_tag(version: str) -> str:
    """'12.6' -> 'cu126', '13.0' -> 'cu130' (the download index naming)."""
    major, minor = version.split(".")[:2]
    return f"cu{major}{minor}"


def variant_anchor(variant: str) -> str:
    """The stable anchor suffix of a wheel variant (`#install-rocm71`): the variant without dots.
    Not one to one ('rocm7.2' and 'rocm72'): `make check` refuses a release whose variants meet."""
    return variant.replace(".", "")


@dataclass(frozen=True)
class Wheel:
    file: WheelFile
    package: str
    version: str
    build: str  # "" or the build tag of a re-upload ("2", "3")
    pythons: frozenset[str]  # "3.13", "3.13t"
    platforms: frozenset[str]  # labels of PLATFORMS
    platform_tags: frozenset[str] = frozenset()  # as written: manylinux_2_28_x86_64, macosx_11_0_arm64


def python_of(interpreter: str, abi: str) -> str | None:
    """cp313 + cp313t -> '3.13t'; cp313 + cp313/abi3/none -> '3.13'."""
    digits = interpreter[2:]
    # cp3 or cp31000 name no Python a range could hold (3.MINOR, two digits): not a Python we show.
    if not interpreter.startswith("cp") or not digits.isascii() or not digits.isdigit() or not 2 <= len(digits) <= 3:
        return None
    version = f"{digits[0]}.{digits[1:]}"
    return version + "t" if abi.endswith("t") else version


def platform_of(tag: str) -> str | None:
    for label, word, ending in PLATFORMS:
        if word in tag and tag.endswith(ending):
            return label
    return None


@cache
def _parse(file: WheelFile) -> Wheel | None:
    try:
        name, version, build, tags = parse_wheel_filename(file.file)
    except InvalidWheelFilename:
        return None
    pythons = {python_of(tag.interpreter, tag.abi) for tag in tags}
    platforms = {platform_of(tag.platform) for tag in tags}
    return Wheel(
        file,
        str(name),
        str(version),
        "".join(str(part) for part in build),
        frozenset(p for p in pythons if p),
        frozenset(p for p in platforms if p),
        frozenset(tag.platform for tag in tags),
    )


#: The last snapshot read and its wheels per package. A page asks for the same package's wheels
#: over and over (178 times in a build); hashing each file for `_parse`'s cache took 0.1 s a build.
#: One snapshot is alive at a time, so the cache holds one.
_parsed: tuple[PypiSnapshot, dict[str, list[Wheel]]] | None = None


def wheels(snapshot: PypiSnapshot, package: str) -> list[Wheel]:
    """The package's wheels in the snapshot (a new list each call: callers may change it)."""
    global _parsed
    if _parsed is None or _parsed[0] is not snapshot:
        _parsed = (snapshot, {})
    by_package = _parsed[1]
    if package not in by_package:
        files = snapshot.packages.get(package, [])  # type: ignore[call-overload]
        by_package[package] = [wheel for file in files if (wheel := _parse(file)) is not None]
    return list(by_package[package])


def of_version(all_wheels: Iterable[Wheel], version: str) -> list[Wheel]:
    return [wheel for wheel in all_wheels if wheel.version == version]


def pythons(found: Iterable[Wheel]) -> set[str]:
    return {python for wheel in found if not wheel.file.yanked for python in wheel.pythons}


def key(python: str) -> tuple[int, int, int]:
    """Sort '3.9' < '3.10' < '3.13' < '3.13t'."""
    major, minor = python.rstrip("t").split(".")
    return (int(major), int(minor), python.endswith("t"))


def first_uploads(all_wheels: Iterable[Wheel]) -> dict[str, str]:
    """Version -> the day its first wheel was uploaded (YYYY-MM-DD), for every version listed."""
    first: dict[str, str] = {}
    for wheel in all_wheels:
        day = wheel.file.uploaded[:10]
        if wheel.version not in first or day < first[wheel.version]:
            first[wheel.version] = day
    return first


def release_key(version: str) -> tuple[int, ...] | None:
    """'2.15.0' -> (2, 15, 0); None for a version that is not plain numbers (a pre-release)."""
    parts = version.split(".")
    return tuple(int(part) for part in parts) if all(part.isdigit() for part in parts) else None


def newest(all_wheels: Iterable[Wheel]) -> tuple[str, str] | None:
    """(version, first upload day) of the newest final release in the snapshot."""
    uploads = {v: day for v, day in first_uploads(all_wheels).items() if release_key(v) is not None}
    if not uploads:
        return None
    version = max(uploads, key=lambda v: release_key(v) or ())
    return version, uploads[version]


#: The legacy manylinux names and the glibc they stand for (PEP 513, 571, 599).
_LEGACY_MANYLINUX = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}


def glibc_of(tag: str) -> tuple[int, int] | None:
    """manylinux_2_28_x86_64 -> (2, 28); manylinux2014_x86_64 -> (2, 17); not Linux -> None."""
    for legacy, glibc in _LEGACY_MANYLINUX.items():
        if tag.startswith(legacy + "_"):
            return glibc
    parts = tag.split("_")
    if tag.startswith("manylinux_") and len(parts) > 3 and parts[1].isdigit() and parts[2].isdigit():
        return int(parts[1]), int(parts[2])
    return None


def macos_of(tag: str) -> tuple[int, int] | None:
    """macosx_11_0_arm64 -> (11, 0)."""
    parts = tag.split("_")
    if tag.startswith("macosx_") and len(parts) > 3 and parts[1].isdigit() and parts[2].isdigit():
        return int(parts[1]), int(parts[2])
    return None


def floors(found: Iterable[Wheel], label: str, read: Callable[[str], tuple[int, int] | None]) -> list[tuple[int, int]]:
    """For one platform, what each wheel needs at least (the lowest version `read` finds in its
    platform tags: a wheel tagged for glibc 2.17 installs on 2.17 and newer), distinct, lowest first.
    One value when every wheel of the release agrees."""
    needs = set()
    for wheel in found:
        if label not in wheel.platforms or wheel.file.yanked:
            continue
        versions = [version for tag in wheel.platform_tags if (version := read(tag)) is not None]
        if versions:
            needs.add(min(versions))
    return sorted(needs)
