"""Queries: the one list of platform facts that every view reads.

A release page's platform table, the platforms comparison table and an upgrade guide's platform
delta all walk `PLATFORM_FACTS`, so a fact has one label and one wording everywhere. Each fact
reads a release and answers a `FactValue`: the text, why it is unknown (when the data says so),
the sources of the block it comes from, and the field a dispute about it names. A new fact is one
entry here; every view picks it up.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from macros.dataset import wheels
from macros.dataset.checks import PYPI_SOURCE
from macros.dataset.model import ArchitectureDrop, Cited, CudaBuild, Platform, PypiSnapshot, Release
from macros.dataset.text import text_html
from macros.dataset.vocabulary import COMPANIONS as COMPANION_TERMS
from macros.dataset.vocabulary import TORCH

#: The companion libraries, in the order tables list them (the vocabulary's).
COMPANIONS: tuple[str, ...] = COMPANION_TERMS.values


@dataclass(frozen=True)
class FactValue:
    text: str | None  # None when the sources do not give it
    unknown: str | None  # why (part of) the fact is unknown
    sources: Sequence[str]


@dataclass(frozen=True)
class PlatformFact:
    key: str  # stable id (JSON, anchors)
    label: str  # Markdown
    disputed_field: str  # what `disputes[].fields` names for it
    block: Callable[[Platform], Cited]
    text: Callable[[Platform], str]
    unknown_field: str | None = None  # the block field whose `unknown` reason applies
    # A field whose unknown reason leaves no text at all, checked before `unknown_field` (XPU: when
    # it is not known whether there are wheels, nothing can be said about their support package).
    gate_field: str | None = None
    # True when the text still says something without that field (XPU: the wheels are known even
    # when the support package is not); otherwise an unknown field leaves no text at all.
    partial: bool = False

    def read(self, release: Release, pypi: PypiSnapshot | None = None) -> FactValue:
        block = self.block(release.platform)
        gate = block.unknown.get(self.gate_field) if self.gate_field else None
        if gate is not None:
            return FactValue(None, gate, tuple(block.sources))
        reason = block.unknown.get(self.unknown_field) if self.unknown_field else None
        text = None if reason is not None and not self.partial else self.text(release.platform)
        return FactValue(text, reason, tuple(block.sources))


@dataclass(frozen=True)
class WheelFact:
    """A platform fact read from the wheels PyPI published for X.Y.0 (`data/pypi.json`), not
    written in the release file: the wheels' own tags are the better source, and stored once."""

    key: str
    label: str
    disputed_field: str
    derive: Callable[[list[wheels.Wheel]], str | None]  # None: no wheel for that platform

    def read(self, release: Release, pypi: PypiSnapshot | None = None) -> FactValue:
        if pypi is None:
            return FactValue(None, "no package index snapshot (make index)", ())
        found = wheels.of_version(wheels.wheels(pypi, TORCH), f"{release.version}.0")
        if not found:
            return FactValue(None, f"the snapshot of {pypi.fetched} has no torch {release.version}.0 wheel", ())
        return FactValue(self.derive(found), None, (PYPI_SOURCE,))


def _versions(found: list[tuple[int, int]]) -> str:
    """'11.0', or '11.0 (14.0 for some Python versions)' when the wheels of a release disagree."""
    first, *others = (f"{major}.{minor}" for major, minor in found)
    return first + (f" ({', '.join(others)} for some Python versions)" if others else "")


def _linux_tag_text(found: list[wheels.Wheel]) -> str:
    # The tag is what pip compares with the machine's glibc; it is not proof of what the binary
    # really needs (wheels have been tagged lower than they built against).
    needs = wheels.floors(found, "Linux x86_64", wheels.glibc_of)
    return f"glibc {_versions(needs)} or newer" if needs else "no Linux x86_64 wheels"


def _macos_text(found: list[wheels.Wheel]) -> str:
    parts = []
    for label, name in (("macOS arm64", "Apple silicon"), ("macOS x86_64", "Intel")):
        needs = wheels.floors(found, label, wheels.macos_of)
        parts.append(f"{name}: macOS {_versions(needs)} or newer" if needs else f"{name}: no wheels")
    return "; ".join(parts)


def _text(free_text: str) -> str:
    """Free text from the data, inside fact texts that views put in Markdown as they are: made
    safe inline HTML. (Versions need nothing: their patterns allow digits and dots.)"""
    return text_html(free_text)


def builds_text(builds: Sequence[CudaBuild]) -> str:
    """'12.8 (cuDNN 9.10, NCCL 2.27)<br>13.0 (...)'; 'none' for no build."""
    parts = []
    for build in builds:
        extras = ", ".join(
            extra
            for extra in (f"cuDNN {build.cudnn}" if build.cudnn else "", f"NCCL {build.nccl}" if build.nccl else "")
            if extra
        )
        parts.append(f"{build.version} ({extras})" if extras else build.version)
    return "<br>".join(parts) or "none"


def gpu_code_text(builds: Sequence[CudaBuild]) -> str:
    """'12.6: 5.0 6.0 … 9.0<br>13.0: 7.5 … 12.0, PTX 12.0': the compute capabilities per build."""
    parts = []
    for build in builds:
        ptx = f", PTX {' '.join(build.ptx)}" if build.ptx else ""
        parts.append(f"{build.version}: {' '.join(build.compute_capabilities)}{ptx}")
    return "<br>".join(parts) or "none"


def _xpu_text(platform: Platform) -> str:
    xpu = platform.xpu
    if not xpu.wheels:
        return "no wheels"
    package = f"; support package {_text(xpu.support_package)}" if xpu.support_package else ""
    return "wheels available" + package


PLATFORM_FACTS: tuple[PlatformFact | WheelFact, ...] = (
    PlatformFact(
        "python", "Python", "platform.python", lambda p: p.python, lambda p: f"{p.python.min} to {p.python.max}"
    ),
    PlatformFact(
        "free-threaded",
        "Free-threaded Python",
        "platform.python",
        lambda p: p.python,
        lambda p: ", ".join(p.python.free_threaded) or "none",
    ),
    PlatformFact(
        "experimental-python",
        "Experimental / preview Python",
        "platform.python",
        lambda p: p.python,
        lambda p: ", ".join(p.python.experimental) or "none",
    ),
    PlatformFact(
        "cuda-stable", "CUDA (stable)", "platform.cuda.stable", lambda p: p.cuda, lambda p: builds_text(p.cuda.stable)
    ),
    PlatformFact(
        "cuda-experimental",
        "CUDA (experimental)",
        "platform.cuda.experimental",
        lambda p: p.cuda,
        lambda p: builds_text(p.cuda.experimental),
    ),
    PlatformFact(
        "gpu-code",
        "GPU code per CUDA build (compute capability)",
        "platform.cuda",
        lambda p: p.cuda,
        lambda p: gpu_code_text(p.cuda.stable + p.cuda.experimental),
    ),
    PlatformFact(
        "default-wheel",
        "CUDA of `pip install torch`",
        "platform.cuda.default_wheel",
        lambda p: p.cuda,
        lambda p: p.cuda.default_wheel or "",
        "default_wheel",
    ),
    WheelFact("linux-glibc", "glibc the Linux x86_64 wheel tags ask for (PyPI)", "platform.wheels", _linux_tag_text),
    WheelFact("macos-wheels", "macOS wheels (PyPI)", "platform.wheels", _macos_text),
    PlatformFact("rocm", "ROCm", "platform.rocm", lambda p: p.rocm, lambda p: ", ".join(p.rocm.stable or []), "stable"),
    PlatformFact(
        "xpu",
        "Intel XPU",
        "platform.xpu",
        lambda p: p.xpu,
        _xpu_text,
        "support_package",
        gate_field="wheels",
        partial=True,
    ),
    PlatformFact(
        "macos",
        "macOS for MPS",
        "platform.macos",
        lambda p: p.macos,
        lambda p: f"macOS {p.macos.mps_min} or newer",
        "mps_min",
    ),
    PlatformFact(
        "cpp-headers", "C++ for the headers", "platform.cpp", lambda p: p.cpp, lambda p: p.cpp.headers or "", "headers"
    ),
    PlatformFact(
        "cpp-source-build",
        "C++ to build from source",
        "platform.cpp",
        lambda p: p.cpp,
        lambda p: p.cpp.source_build or "",
        "source_build",
    ),
)


def platform_fact(key: str) -> PlatformFact | WheelFact:
    return next(candidate for candidate in PLATFORM_FACTS if candidate.key == key)


#: Unlike the facts above, a drop is an event of one release, not a state that carries over.
DROPS_LABEL = "GPU architectures dropped"
DROPS_FIELD = "platform.architectures_dropped"


def drop_text(drop: ArchitectureDrop) -> str:
    return f"{_text(drop.architectures)} from {', '.join(_text(wheel) for wheel in drop.wheels)}"


def drops_text(release: Release) -> str:
    return "; ".join(drop_text(drop) for drop in release.platform.architectures_dropped) or "none"


def companion_text(release: Release, name: str) -> str:
    """The companion's version for a release, 'no release' or 'not recorded'."""
    found = next((c for c in release.companions if c.name == name), None)
    if found is None:
        return "not recorded"
    return found.version or "no release"


def disputed(release: Release, field_name: str) -> str | None:
    """Id of a dispute about this fact, or about the whole block it belongs to."""
    return release.dispute_on(field_name)
