"""Catalog-level query: the newest PyTorch that runs a machine, and why no newer release does.

Two halves. `plan_tables(catalog)` writes, per release and per wheel the data knows, what the
wheel needs of a machine: the platforms PyPI has it for (with their glibc or macOS floor), the
Python range, for each CUDA build the GPU code it runs (gpu.py's rule, applied to every compute
capability of data/gpus.yaml: the only place that rule is), the NVIDIA driver each CUDA build
needs and its major version's minor-version-compatibility floor (data/drivers.yaml), the ROCm and
XPU wheels, and the oldest macOS MPS works on. `plan(machine, tables)` only looks those tables up:
the upgrade guides' script (docs/assets/atlas.js, `planFor`) does the same lookups on the same
tables, which the build publishes as assets/atlas-plan.js, and a test requires both to give the
same answer on every pasted output of the corpus.

For every release from the newest down, the first thing that stops it (in this order: no wheel for
the OS and CPU; Python outside the range; the glibc or macOS floor; no wheel with code or PTX for
the GPU, or no ROCm/XPU wheel; the driver below the build's floor) is kept; the first release that
nothing stops is the answer, with the wheel it takes. A build the data knows only in part (a
release whose other CUDA builds the sources did not show, GPU code lists read from the Linux
x86_64 wheels only) is named as such in `partial`, never given as certain.

Intel Macs with an AMD GPU run MPS from macOS 12.3, as Apple silicon does (source
`apple-metal-pytorch`), as long as PyPI has macOS x86_64 wheels.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from macros.dataset import wheels
from macros.dataset.model import Release, version_key
from macros.dataset.vocabulary import (
    CPU,
    CUDA,
    DEFAULT_WHEEL,
    DRIVER_SYSTEMS,
    LINUX,
    MACOS,
    MPS,
    ROCM,
    TORCH,
    WINDOWS,
    XPU,
)
from macros.query.catalog import Catalog
from macros.query.gpu import runs_on
from macros.query.install import INDEX, cuda_tag, install_variants, newest_patch

#: The platforms a machine can be, as "os-arch", and the wheel table's label for each.
PLATFORMS: dict[str, str] = {
    f"{LINUX}-x86_64": "Linux x86_64",
    f"{LINUX}-aarch64": "Linux aarch64",
    f"{MACOS}-arm64": "macOS arm64",
    f"{MACOS}-x86_64": "macOS x86_64",
    f"{WINDOWS}-x86_64": "Windows amd64",
}

#: What stops a release, in the order they are checked. The page's script names the same kinds.
BLOCKERS: tuple[str, ...] = (
    "no-wheel",
    "intel-mac",
    "python-range",
    "glibc-floor",
    "macos-floor",
    "gpu-code",
    f"no-{ROCM}",
    f"no-{XPU}",
    "driver-floor",
)
#: What would run a newer release (`Unlock.kind`).
UNLOCKS: tuple[str, ...] = ("newer-driver", "python-range", "macos-floor", "glibc-floor")

#: What the data knows only in part, by kind (the page prints the same sentences).
PARTIAL: dict[str, str] = {
    "cuda-builds": "the data knows only some of this release's CUDA builds",
    "cuda-windows": "the GPU code lists are those of the Linux x86_64 wheels; the Windows wheels' are not in the data",
    "cuda-aarch64": "the GPU code lists are those of the Linux x86_64 wheels; the Linux aarch64 wheels' (and which "
    "CUDA builds exist for aarch64) are not in the data",
    "gpu-unknown": "the GPU is not in the site's list of NVIDIA models: whether the wheel has code for it is not known",
    "driver-unknown": "no NVIDIA driver was read: the driver it needs is not checked",
    "python-unknown": "no Python version was read",
    "os-version-unknown": "the OS version was not read: its floor is not checked",
    "mps-unknown": "the data does not give the oldest macOS this release's MPS works on",
    "arch-assumed": "the CPU architecture was not read: x86_64 is assumed",
}


def _python_range(release: Release) -> list[str]:
    python = release.platform.python
    low, high = version_key(python.min), version_key(python.max)
    regular = [f"{low[0]}.{minor}" for minor in range(low[1], high[1] + 1)]
    return regular + list(python.free_threaded)


def _floor(found: list[wheels.Wheel], label: str) -> str | None:
    """The oldest glibc or macOS some wheel of the platform installs on; None without a wheel."""
    read = wheels.macos_of if label.startswith("macOS") else wheels.glibc_of
    if not any(label in wheel.platforms and not wheel.file.yanked for wheel in found):
        return None
    floors = wheels.floors(found, label, read)
    return f"{floors[0][0]}.{floors[0][1]}" if floors else ""


def _packages(release: Release) -> str:
    """'torch==2.14.1 torchvision==0.29.1 torchaudio==2.14.1', as the guides' install table pins them."""
    command = next(v.command for v in install_variants(release, latest_patch=True) if v.variant == CPU)
    return command.removeprefix("pip install ").split(" --index-url")[0]


def plan_tables(catalog: Catalog) -> dict[str, Any]:
    """What every release's wheels need of a machine, as JSON-ready data (computed once per build)."""
    return catalog.memo("plan-tables", lambda: _plan_tables(catalog))


def _plan_tables(catalog: Catalog) -> dict[str, Any]:
    capabilities = sorted(
        {model.capability for model in (catalog.gpus.models if catalog.gpus else [])}, key=version_key
    )
    torch = wheels.wheels(catalog.pypi, TORCH) if catalog.pypi else []
    releases = []
    for release in catalog.releases:
        patch = newest_patch(release)
        found = wheels.of_version(torch, patch) or wheels.of_version(torch, f"{release.version}.0")
        platforms = {}
        for key, label in PLATFORMS.items():
            floor = _floor(found, label)
            if floor is not None:
                platforms[key] = floor
        cuda = release.platform.cuda
        builds = [(build, False) for build in cuda.stable] + [(build, True) for build in cuda.experimental]
        releases.append(
            {
                "version": release.version,
                "patch": patch,
                "packages": _packages(release),
                "pythons": _python_range(release),
                "platforms": platforms,
                "mpsFrom": release.platform.macos.mps_min,
                "cudaBuilds": [
                    {
                        "variant": cuda_tag(build.version),
                        "cudaVersion": build.version,
                        "experimental": experimental,
                        "runs": {
                            capability: runs.target
                            for capability in capabilities
                            if (runs := runs_on(build, capability)).ok
                        },
                    }
                    for build, experimental in builds
                ],
                "cudaPartial": bool(cuda.other_builds),
                "rocmWheels": [f"{ROCM}{version}" for version in release.platform.rocm.stable]
                if release.platform.rocm.stable is not None
                else None,
                "xpuWheels": release.platform.xpu.wheels,
            }
        )
    drivers = catalog.drivers
    return {
        "index": INDEX,
        "families": {
            "cpuOnly": CPU,
            "cudaFamily": CUDA,
            "rocmFamily": ROCM,
            "intelGpu": XPU,
            "appleGpu": MPS,
            "pypiDefault": DEFAULT_WHEEL,
        },
        "os": {"lin": LINUX, "mac": MACOS, "win": WINDOWS},
        "platformLabels": PLATFORMS,
        "partial": PARTIAL,
        "releases": releases,
        "driverSystems": list(DRIVER_SYSTEMS),
        "drivers": {
            build.cuda: {system: getattr(build, system) for system in DRIVER_SYSTEMS if getattr(build, system)}
            for build in (drivers.builds if drivers else [])
        },
        "driverFloors": {
            floor.major: {system: getattr(floor, system) for system in DRIVER_SYSTEMS if getattr(floor, system)}
            for floor in (drivers.floors if drivers else [])
        },
    }


# --- the machine and its plan ---------------------------------------------------------------------


@dataclass(frozen=True)
class Machine:
    """What a paste says about a machine. Empty strings: not read."""

    os: str = ""  # LINUX, MACOS, WINDOWS
    arch: str = ""  # x86_64, aarch64, arm64
    python: str = ""  # "3.12", "3.13t"
    accelerator: str = ""  # CUDA, ROCM, XPU or CPU (the variant families); "" when nothing says
    capabilities: tuple[str, ...] = ()  # the NVIDIA GPUs' compute capabilities the list gave
    gpu_unknown: bool = False  # an NVIDIA GPU the list does not know
    driver: str = ""  # NVIDIA driver
    os_version: str = ""  # macOS version on a Mac, glibc on Linux
    amd_gpu: bool = False  # an Intel Mac with an AMD GPU (MPS)
    gpu_unread: bool = False  # no GPU line in the paste (cut before it): a GPU may be there unseen


@dataclass(frozen=True)
class Step:
    """One release against the machine: the wheel that runs it, or the first thing that stops it."""

    release: str
    patch: str
    wheel: str = ""
    blocker: str = ""  # one of BLOCKERS when stopped
    detail: dict[str, Any] = field(default_factory=dict)  # what the sentence names
    partial: tuple[str, ...] = ()  # keys of PARTIAL


@dataclass(frozen=True)
class Unlock:
    kind: str  # one of UNLOCKS
    value: str  # the driver, Python, macOS or glibc that would do
    release: str  # the patch release it would run


@dataclass(frozen=True)
class Plan:
    newest: Step | None
    blocked: tuple[Step, ...]  # every newer release, oldest first
    unlocks: tuple[Unlock, ...]
    command: str = ""

    def as_json(self) -> dict[str, Any]:
        """The answer as the page's script gives it (`planFor` in atlas.js): compared in the tests."""
        return {
            "newest": self.newest.patch if self.newest else None,
            "wheel": self.newest.wheel if self.newest else None,
            "partial": list(self.newest.partial) if self.newest else [],
            "command": self.command,
            "blocked": [
                {"release": step.release, "blocker": step.blocker, "partial": list(step.partial)}
                for step in self.blocked
            ],
            "unlocks": [{"kind": u.kind, "value": u.value, "release": u.release} for u in self.unlocks],
        }


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split(".") if part.isdigit())


def _at_least(version: str, floor: str) -> bool:
    a, b = _key(version), _key(floor)
    width = max(len(a), len(b))
    return a + (0,) * (width - len(a)) >= b + (0,) * (width - len(b))


def driver_verdict(driver: str, cuda: str, os: str, tables: Mapping[str, Any]) -> tuple[str, str]:
    """("yes", needs) at or above the driver NVIDIA pairs with the CUDA build; ("compat", floor) at
    or above its major version's minor-version-compatibility floor; ("no", lowest) below;
    ("unknown", "") when no driver was read or the data has no minimum."""
    systems = tables["driverSystems"]
    system = os if os in systems else systems[0]
    needs = tables["drivers"].get(cuda, {}).get(system, "")
    floor = tables["driverFloors"].get(cuda.split(".")[0], {}).get(system, "")
    if not driver or not (needs or floor):
        return "unknown", ""
    if needs and _at_least(driver, needs):
        return "yes", needs
    if floor and _at_least(driver, floor):
        return "compat", floor
    return "no", floor or needs


_RANK = {"yes": 3, "compat": 2, "unknown": 1}


def _platform(machine: Machine) -> tuple[str, tuple[str, ...]]:
    arch = machine.arch
    if not arch:
        if machine.os == MACOS:
            return "", ()
        return f"{machine.os}-x86_64", ("arch-assumed",)
    return f"{machine.os}-{arch}", ()


def evaluate(release: Mapping[str, Any], machine: Machine, tables: Mapping[str, Any]) -> Step:
    """One release against the machine (tables: `plan_tables`)."""
    step = Step(release["version"], release["patch"])
    key, partial = _platform(machine)
    platforms = release["platforms"]
    if machine.os == MACOS and not key:  # a Mac whose CPU was not read: the Apple silicon wheel
        key = f"{MACOS}-arm64"
        partial = ("arch-assumed",)
    if key not in platforms:
        kind = "intel-mac" if key == f"{MACOS}-x86_64" else "no-wheel"
        return replace(step, blocker=kind, detail={"where": PLATFORMS.get(key, key)})
    if not machine.python:
        partial += ("python-unknown",)
    elif machine.python not in release["pythons"]:
        return replace(step, blocker="python-range", detail={"have": machine.python, "range": release["pythons"]})
    floor = platforms[key]
    if floor and machine.os in (LINUX, MACOS):
        if not machine.os_version:
            partial += ("os-version-unknown",)
        elif not _at_least(machine.os_version, floor):
            kind = "glibc-floor" if machine.os == LINUX else "macos-floor"
            return replace(step, blocker=kind, detail={"floor": floor, "have": machine.os_version})
    if machine.os == MACOS:
        mps = release["mpsFrom"]
        gpu = key == f"{MACOS}-arm64" or machine.amd_gpu
        if gpu and mps is None:
            return replace(step, wheel=MPS, partial=(*partial, "mps-unknown"))
        on_mps = gpu and bool(machine.os_version) and _at_least(machine.os_version, mps)
        return replace(step, wheel=MPS if on_mps else CPU, partial=partial)
    if machine.accelerator == CUDA:
        if key == f"{LINUX}-aarch64":
            partial += ("cuda-aarch64",)
        if key == f"{WINDOWS}-x86_64":
            partial += ("cuda-windows",)
        if release["cudaPartial"]:
            partial += ("cuda-builds",)
        if machine.gpu_unknown or not machine.capabilities:
            partial += ("gpu-unknown",)
        running = [
            build
            for build in release["cudaBuilds"]
            if all(capability in build["runs"] for capability in machine.capabilities)
        ]
        if not running:
            return replace(
                step,
                blocker="gpu-code",
                detail={
                    "capability": _oldest(machine.capabilities),
                    "wheels": [b["variant"] for b in release["cudaBuilds"]],
                },
                partial=partial,
            )
        verdicts = [
            (build, *driver_verdict(machine.driver, build["cudaVersion"], machine.os, tables)) for build in running
        ]
        usable = [entry for entry in verdicts if entry[1] != "no"]
        if not usable:
            lowest = min(verdicts, key=lambda entry: _key(entry[2]))
            return replace(
                step,
                blocker="driver-floor",
                detail={"driver": machine.driver, "needs": lowest[2], "wheel": lowest[0]["variant"]},
                partial=partial,
            )
        # The driver's best verdict, then the newest CUDA (an experimental build counts as one).
        best = max(usable, key=lambda e: (_RANK[e[1]], _key(e[0]["cudaVersion"])))
        if best[1] == "unknown":
            partial += ("driver-unknown",)
        capability = _oldest(machine.capabilities)
        return replace(
            step,
            wheel=best[0]["variant"],
            detail={"driver": best[1], "needs": best[2], "code": best[0]["runs"].get(capability, "")},
            partial=partial,
        )
    if machine.accelerator in (ROCM, XPU):
        family = machine.accelerator
        offered = release["rocmWheels"] if family == ROCM else release["xpuWheels"]
        if key != f"{LINUX}-x86_64" and not (family == XPU and key == f"{WINDOWS}-x86_64"):
            return replace(
                step, blocker=f"no-{family}", detail={"known": True, "where": PLATFORMS[key]}, partial=partial
            )
        if offered is None:
            return replace(step, blocker=f"no-{family}", detail={"known": False}, partial=partial)
        if not offered:
            return replace(step, blocker=f"no-{family}", detail={"known": True}, partial=partial)
        return replace(step, wheel=offered[-1] if family == ROCM else XPU, partial=partial)
    return replace(step, wheel=CPU, partial=partial)


def _oldest(capabilities: tuple[str, ...]) -> str:
    return min(capabilities, key=version_key) if capabilities else ""


def _walk(machine: Machine, tables: Mapping[str, Any]) -> tuple[Step | None, list[Step]]:
    blocked: list[Step] = []
    for release in reversed(tables["releases"]):
        step = evaluate(release, machine, tables)
        if step.wheel:
            return step, blocked[::-1]
        blocked.append(step)
    return None, blocked[::-1]


def command(step: Step, machine: Machine, tables: Mapping[str, Any]) -> str:
    """The install command of the step's wheel: PyPI's own on a Mac, the download index otherwise."""
    release = next(r for r in tables["releases"] if r["version"] == step.release)
    if machine.os == MACOS:
        return f"pip install {release['packages']}"
    return f"pip install {release['packages']} --index-url {tables['index']}/{step.wheel}"


def plan(machine: Machine, tables: Mapping[str, Any]) -> Plan:
    newest, blocked = _walk(machine, tables)
    unlocks = []
    relaxed: tuple[tuple[str, str, Machine], ...] = (
        ("newer-driver", machine.driver, replace(machine, driver="")),
        ("python-range", machine.python, replace(machine, python="")),
        ("macos-floor" if machine.os == MACOS else "glibc-floor", machine.os_version, replace(machine, os_version="")),
    )
    for kind, have, other in relaxed:
        if not have:
            continue
        better, _ = _walk(other, tables)
        if better is None or (newest and _key(better.patch) <= _key(newest.patch)):
            continue
        release = next(r for r in tables["releases"] if r["version"] == better.release)
        if kind == "newer-driver":
            value = _driver_needed(release, machine, tables)
        elif kind == "python-range":
            value = release["pythons"][0] + "–" + _regular(release["pythons"])[-1]
        else:
            value = release["platforms"][_platform_key(machine)]
        if value:
            unlocks.append(Unlock(kind, value, better.patch))
    return Plan(newest, tuple(blocked), tuple(unlocks), command(newest, machine, tables) if newest else "")


def _regular(pythons: list[str]) -> list[str]:
    return [p for p in pythons if not p.endswith("t")]


def _platform_key(machine: Machine) -> str:
    key, _ = _platform(machine)
    return key or f"{MACOS}-arm64"


def _driver_needed(release: Mapping[str, Any], machine: Machine, tables: Mapping[str, Any]) -> str:
    """The lowest driver a wheel of the release that runs the GPU runs on (its floor)."""
    needs = []
    for build in release["cudaBuilds"]:
        if all(capability in build["runs"] for capability in machine.capabilities):
            verdict, lowest = driver_verdict("0", build["cudaVersion"], machine.os, tables)
            if verdict == "no" and lowest:
                needs.append(lowest)
    return min(needs, key=_key) if needs else ""
