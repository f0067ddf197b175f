"""Queries: the packages built on torch, from the ecosystem snapshot (data/ecosystem.json).

The one place that decides what a release of a package says about torch, for the comparison page
(`compare/ecosystem.html`), the guides' "Your packages" box (through the table the build writes for
its script), the `stack` command and the API:

- the torch requirement that counts: the release's unconditional one; if it has none, the one
  under the extras asked for; else the one under an extra (`torch` first, else the first by name).
  Markers other than `extra` are read for one reference environment (`REFERENCE_ENVIRONMENT`);
- whether it allows a torch minor B: one of B's releases (from the wheel snapshot; B.0 when it
  lists none) satisfies it;
- the release a range stands for, beside torch B: the newest final, not yanked release in it
  whose requirement allows B (what pip resolves to), else the newest in it;
- the first release newer than a version whose requirement allows B.

A release whose metadata could not be read says nothing (`None`), never "allows".
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from macros.dataset import wheels
from macros.dataset.model import EcosystemRelease
from macros.dataset.vocabulary import COMPANIONS, TORCH
from macros.query.catalog import Catalog
from macros.query.tables import Cell, Row, Table

#: Markers other than `extra` are evaluated for this environment: Linux x86_64, CPython 3.12 (the
#: one most installs run on). A requirement only for another platform does not count.
REFERENCE_ENVIRONMENT: dict[str, str] = {
    "implementation_name": "cpython",
    "implementation_version": "3.12.0",
    "os_name": "posix",
    "platform_machine": "x86_64",
    "platform_python_implementation": "CPython",
    "platform_release": "",
    "platform_system": "Linux",
    "platform_version": "",
    "python_full_version": "3.12.0",
    "python_version": "3.12",
    "sys_platform": "linux",
}
REFERENCE_LABEL = "Linux x86_64, CPython 3.12"

_EXTRA = re.compile(r"""extra\s*==\s*['"]([^'"]+)['"]""")


@dataclass(frozen=True)
class Counted:
    """The torch requirement that counts for a release: its text (`torch>=2.1,<2.9`), the
    specifier, and the extra it sits under ('' for an unconditional one)."""

    text: str
    specifier: SpecifierSet
    extra: str

    @property
    def exact(self) -> bool:
        """An exact pin (`==2.8.0`): what binary packages built against one torch declare."""
        return any(s.operator in {"==", "==="} and "*" not in s.version for s in self.specifier)

    @property
    def bounded(self) -> bool:
        """Has an upper bound (`<`, `<=`, `==`, `~=`): a release declared not to work past it."""
        return any(s.operator in {"<", "<=", "==", "===", "~="} for s in self.specifier)


def _applies(requirement: Requirement, extra: str) -> bool:
    if requirement.marker is None:
        return True
    return requirement.marker.evaluate({**REFERENCE_ENVIRONMENT, "extra": extra})


def _extras_of(marker: Marker | None) -> list[str]:
    return [canonicalize_name(name) for name in _EXTRA.findall(str(marker))] if marker else []


def torch_requirements(release: EcosystemRelease) -> list[Requirement]:
    return [r for requirement in release.requires if canonicalize_name((r := Requirement(requirement)).name) == TORCH]


def counted(release: EcosystemRelease, extras: Iterable[str] = ()) -> Counted | None:
    """The torch requirement that counts (see the module's docstring); None when there is none."""
    requirements = torch_requirements(release)
    plain = [r for r in requirements if not _extras_of(r.marker) and _applies(r, "")]
    if plain:
        return _combine(plain, "")
    wanted = sorted({canonicalize_name(extra) for extra in extras})
    by_extra: dict[str, list[Requirement]] = {}
    for requirement in requirements:
        for extra in _extras_of(requirement.marker):
            if _applies(requirement, extra):
                by_extra.setdefault(extra, []).append(requirement)
    for extra in wanted:
        if extra in by_extra:
            return _combine(by_extra[extra], extra)
    if not by_extra:
        return None
    extra = TORCH if TORCH in by_extra else sorted(by_extra)[0]
    return _combine(by_extra[extra], extra)


def _combine(requirements: list[Requirement], extra: str) -> Counted:
    # A pin with a local label (torchvision 0.15.0: torch==2.0.0+cu117) names a build of that
    # release; the index's release is what the pin stands for.
    parts = [re.sub(r"\+[A-Za-z0-9.]+", "", str(r.specifier)) for r in requirements if str(r.specifier)]
    specifier = SpecifierSet(",".join(parts))
    text = TORCH + (",".join(sorted(str(s) for s in specifier)) if str(specifier) else "")
    return Counted(text, specifier, extra)


def _version(text: str) -> Version | None:
    try:
        return Version(text)
    except InvalidVersion:
        return None


@dataclass(frozen=True)
class PackageRelease:
    name: str
    release: EcosystemRelease
    version: Version

    @property
    def final(self) -> bool:
        return not (self.version.is_prerelease or self.version.is_devrelease)

    @property
    def usable(self) -> bool:
        """A release `version` and `first_allowing` may name: final, not yanked, metadata read."""
        return self.final and not self.release.yanked and self.release.unknown is None


class Ecosystem:
    """The snapshot read with the torch releases the data knows; one per catalog (`of`)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.snapshot = catalog.ecosystem
        self.minors: list[str] = [release.version for release in catalog.releases]

    @classmethod
    def of(cls, catalog: Catalog) -> Ecosystem:
        return catalog.memo("ecosystem", lambda: cls(catalog))

    @cached_property
    def torch_versions(self) -> dict[str, list[Version]]:
        """Minor -> its final releases: from the wheel snapshot, X.Y.0 when it lists none."""
        found: dict[str, list[Version]] = {minor: [] for minor in self.minors}
        if self.catalog.pypi is not None:
            for wheel in wheels.wheels(self.catalog.pypi, TORCH):
                version = _version(wheel.version)
                if version is None or version.is_prerelease or version.is_devrelease or version.local:
                    continue
                minor = f"{version.major}.{version.minor}"
                if minor in found and version not in found[minor]:
                    found[minor].append(version)
        for minor, versions in found.items():
            if not versions:
                versions.append(Version(minor + ".0"))
            versions.sort()
        return found

    @cached_property
    def packages(self) -> dict[str, list[PackageRelease]]:
        """Package -> its releases, oldest first."""
        if self.snapshot is None:
            return {}
        result = {}
        for name, releases in self.snapshot.packages.items():  # type: ignore[attr-defined]
            entries = [PackageRelease(name, r, v) for r in releases if (v := _version(r.version)) is not None]
            result[name] = sorted(entries, key=lambda entry: entry.version)
        return result

    def allows(self, requirement: Counted | None, minor: str) -> bool:
        """Whether a requirement admits one of the minor's releases (no requirement: it does)."""
        if requirement is None:
            return True
        return any(requirement.specifier.contains(v) for v in self.torch_versions.get(minor, []))

    def allowed_minors(self, release: EcosystemRelease, extras: Iterable[str] = ()) -> list[str] | None:
        """The minors a release allows; None when its metadata is unknown."""
        if release.unknown is not None:
            return None
        requirement = counted(release, extras)
        return [minor for minor in self.minors if self.allows(requirement, minor)]

    def allows_torch(self, release: EcosystemRelease, torch: str) -> bool | None:
        """Whether a release's requirement admits one torch version (a companion's pin)."""
        if release.unknown is not None:
            return None
        requirement = counted(release)
        version = _version(torch)
        if requirement is None or version is None:
            return None if version is None else True
        return requirement.specifier.contains(Version(version.base_version))

    def find(self, name: str, version: str) -> PackageRelease | None:
        wanted = _version(version)
        if wanted is None:
            return None
        wanted = Version(wanted.public)  # a local label (+cu121) names a build of the same release
        return next((entry for entry in self.packages.get(name, []) if entry.version == wanted), None)

    def newest_allowed_by(
        self, name: str, specifier: SpecifierSet, minor: str = "", extras: Iterable[str] = ()
    ) -> PackageRelease | None:
        """The newest usable release a range of the package allows (pre-releases when it names one);
        with `minor`, the newest of those whose torch requirement allows that minor."""
        entries = [e for e in self.packages.get(name, []) if not e.release.yanked and e.release.unknown is None]
        if minor:
            entries = [e for e in entries if self.allows(counted(e.release, extras), minor)]
        chosen = [e for e in entries if specifier.contains(e.version, prereleases=None if not e.final else False)]
        finals = [e for e in chosen if e.final]
        return (finals or chosen)[-1] if (finals or chosen) else None

    def unread_after(self, name: str, specifier: SpecifierSet, version: Version) -> str:
        """The final, not yanked releases in the range newer than `version` whose metadata could not
        be read, as "first to last" ("" when there is none)."""
        unread = [
            str(e.version)
            for e in self.packages.get(name, [])
            if e.version > version
            and e.final
            and not e.release.yanked
            and e.release.unknown is not None
            and specifier.contains(e.version)
        ]
        return "" if not unread else unread[0] if len(unread) == 1 else f"{unread[0]} to {unread[-1]}"

    def first_allowing(self, name: str, after: Version | None, minor: str, extras: Iterable[str] = ()) -> str | None:
        """The first usable release newer than `after` whose requirement allows the minor."""
        for entry in self.packages.get(name, []):
            if after is not None and entry.version <= after:
                continue
            if entry.usable and self.allows(counted(entry.release, extras), minor):
                return entry.release.version
        return None


# --- the comparison page ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Declared:
    """A release that declares support, and how: an exact pin, a range with no upper bound."""

    version: str
    requirement: str
    exact: bool
    unbounded: bool

    @property
    def how(self) -> str:
        return EXACT_PIN if self.exact else NO_UPPER_BOUND if self.unbounded else ""


@dataclass(frozen=True)
class Support:
    """For one package and torch minor: the first and the newest release that declares support."""

    first: Declared | None
    newest: Declared | None
    unknown: int = 0  # releases whose metadata could not be read


def support(ecosystem: Ecosystem, name: str, minor: str) -> Support:
    """Releases that declare support: usable, with a torch requirement (counted) that allows it."""
    entries = ecosystem.packages.get(name, [])
    declaring = [
        Declared(entry.release.version, requirement.text, requirement.exact, not requirement.bounded)
        for entry in entries
        if entry.usable and (requirement := counted(entry.release)) is not None and ecosystem.allows(requirement, minor)
    ]
    unknown = sum(1 for entry in entries if entry.release.unknown is not None)
    if not declaring:
        return Support(None, None, unknown)
    return Support(declaring[0], declaring[-1], unknown)


# --- the table the guides' script looks up -----------------------------------------------------------


def script_table(catalog: Catalog) -> dict[str, object]:
    """What atlas-stack.js looks up, computed here: per package, its releases oldest first as
    [version, requirement or null, allowed minors as a bit mask or null when unknown, flags]
    (flags: 1 pre-release, 2 yanked, 4 metadata unknown, 8 no torch requirement); per companion
    release, the torch versions its requirement admits."""
    ecosystem = Ecosystem.of(catalog)
    packages: dict[str, list[list[object]]] = {}
    for name, entries in ecosystem.packages.items():
        rows: list[list[object]] = []
        for entry in entries:
            requirement = counted(entry.release) if entry.release.unknown is None else None
            minors = ecosystem.allowed_minors(entry.release)
            mask = None if minors is None else sum(1 << ecosystem.minors.index(m) for m in minors)
            flags = (
                (0 if entry.final else 1)
                | (2 if entry.release.yanked else 0)
                | (4 if entry.release.unknown is not None else 0)
                | (8 if entry.release.unknown is None and requirement is None else 0)
            )
            rows.append([entry.release.version, requirement.text if requirement else None, mask, flags])
        packages[name] = rows
    torch = [str(v) for minor in ecosystem.minors for v in ecosystem.torch_versions[minor]]
    companions: dict[str, dict[str, list[str]]] = {}
    for name in COMPANIONS.values:
        companions[name] = {}
        for entry in ecosystem.packages.get(name, []):
            if entry.release.unknown is None and counted(entry.release) is not None:
                companions[name][entry.release.version] = [t for t in torch if ecosystem.allows_torch(entry.release, t)]
    return {"minors": ecosystem.minors, "packages": packages, "companions": companions}


# --- answers for a project's packages (the `stack` command; the guides' box looks the same up) ------


@dataclass(frozen=True)
class Answer:
    """One package of a project against torch `target`."""

    name: str  # PEP 503
    version: str | None  # the pinned release, or the newest a range allows
    requires: str | None  # the torch requirement that counts
    allows_target: bool | None  # None: nothing known (metadata unreadable, release not in the snapshot)
    first_allowing: str | None  # the first release newer than `version` whose requirement allows the target
    note: str = ""  # why nothing is known, for people (not in the JSON)
    unread: str = ""  # newer releases in the range whose metadata could not be read (pip tries them first)
    url: bool = False  # installed from a URL: no release of the index stands for it


def _pinned(specifier: SpecifierSet) -> Version | None:
    # A pin written twice (an extra and `-r other.txt` both say `==2.8.3`) is one pin: `&` keeps both.
    specs = {(spec.operator, spec.version) for spec in specifier}
    if len(specs) == 1:
        ((operator, version),) = specs
        if operator in {"==", "==="} and "*" not in version:
            return _version(version)
    return None


def answer(
    ecosystem: Ecosystem, name: str, specifier: SpecifierSet, extras: Iterable[str], target: str, url: bool = False
) -> Answer:
    extras = sorted(extras)
    if url:  # a git checkout or a file elsewhere: no release of the index to look up
        return Answer(name, None, None, None, None, "installed from a URL, not from the package index", url=True)
    pinned = _pinned(specifier)
    if pinned is not None:
        entry = ecosystem.find(name, str(pinned))
        version: Version | None = Version(pinned.public)
    else:
        # A range resolves as pip resolves it beside torch B: to the newest release in it that
        # allows B, when one does (an older target is not blocked by the range's newest release).
        entry = ecosystem.newest_allowed_by(name, specifier, target, extras) or ecosystem.newest_allowed_by(
            name, specifier
        )
        version = entry.version if entry else None
    shown = str(version) if version is not None else None
    first = ecosystem.first_allowing(name, version, target, extras)
    if entry is None:
        note = (
            f"{name} {shown} is not in the snapshot (released before it starts, or not on the index)"
            if shown
            else f"no release of {name} in the snapshot matches {specifier or 'the file'}"
        )
        return Answer(name, shown, None, None, first, note)
    if entry.release.unknown is not None:
        return Answer(name, shown, None, None, first, f"metadata unreadable: {entry.release.unknown}")
    requirement = counted(entry.release, extras)
    allows = ecosystem.allows(requirement, target)
    note = "" if requirement else "declares no torch requirement"
    # pip takes the newest release in the range first: what the unread ones say of torch is not known.
    unread = ecosystem.unread_after(name, specifier, entry.version) if pinned is None else ""
    return Answer(name, shown, requirement.text if requirement else None, allows, first, note, unread)


def torch_admits(ecosystem: Ecosystem, specifier: SpecifierSet, target: str) -> bool:
    """Whether a project's own torch requirement admits one of the target's releases (a local
    label, `==2.7.0+cu126`, names a build of that release)."""
    public = SpecifierSet(",".join(str(spec).split("+")[0] for spec in specifier))
    return any(public.contains(version) for version in ecosystem.torch_versions.get(target, []))


def stack_answers(
    ecosystem: Ecosystem, wanted: Iterable[tuple[str, SpecifierSet, Iterable[str], bool]], target: str
) -> list[Answer]:
    """The packages of a project the snapshot covers, by name."""
    return sorted(
        (
            answer(ecosystem, name, specifier, extras, target, url)
            for name, specifier, extras, url in wanted
            if name in ecosystem.packages
        ),
        key=lambda a: a.name,
    )


# --- the comparison table ----------------------------------------------------------------------------

NO_UPPER_BOUND = "declared, no upper bound"
EXACT_PIN = "exact pin"
NONE_DECLARED = "none"


def ecosystem_table(catalog: Catalog) -> Table:
    """Packages (rows) by torch minor (columns, newest first): the first and the newest release
    that declares support, and how the newest declares it."""
    ecosystem = Ecosystem.of(catalog)
    minors = list(reversed(ecosystem.minors))
    rows = []
    for name in sorted(ecosystem.packages):
        cells = []
        for minor in minors:
            found = support(ecosystem, name, minor)
            if found.first is None or found.newest is None:
                unknown = f"metadata unreadable for {found.unknown} releases" if found.unknown else None
                cells.append(Cell(NONE_DECLARED, unknown=unknown))
                continue
            ends = [found.first] if found.first == found.newest else [found.first, found.newest]
            lines = [
                ("" if len(ends) == 1 else "first " if end is found.first else "newest ")
                + f'<span title="{html.escape(end.requirement)}">{html.escape(end.version)}</span>'
                + (f" · {end.how}" if end.how else "")
                for end in ends
            ]
            cells.append(Cell("<br>".join(lines), style="atlas-eco-pin" if found.newest.exact else None))
        rows.append(Row(html.escape(name), cells, id=f"eco-{name}"))
    return Table("Package", minors, rows)
