"""Catalog-level query: the install command for each wheel variant of a release.

Derived from the platform block (never typed by hand): CPU, each stable and experimental CUDA
build, each ROCm version and XPU, plus the default `pip install torch` from PyPI. Each command pins
torch and the torchvision and torchaudio of that release (torchaudio only where it had one).
"""

from __future__ import annotations

from dataclasses import dataclass

from macros.dataset.model import Release, three_part
from macros.dataset.vocabulary import CPU, CUDA, DEFAULT_WHEEL, INSTALLED_COMPANIONS, ROCM, TORCH, XPU, family
from macros.dataset.wheels import cuda_tag, variant_anchor

INDEX = "https://download.pytorch.org/whl"


@dataclass(frozen=True)
class InstallVariant:
    variant: str  # the wheel variant as the personal guide names it (rocm7.1); "pypi" for the default
    label: str
    command: str
    note: str = ""

    @property
    def id(self) -> str:
        """The stable anchor suffix (`#install-rocm71`): the variant without dots."""
        return variant_anchor(self.variant)


def newest_patch(release: Release) -> str:
    """The newest patch release the data records: '2.12.1', or '2.13.0' before any patch."""
    return release.patches[-1].version if release.patches else f"{release.version}.0"


def install_variants(release: Release, *, latest_patch: bool = False) -> list[InstallVariant]:
    """One command per wheel variant: X.Y.0 (a release page), or with `latest_patch` the newest
    patch, with the companion versions made for it (an upgrade guide)."""
    patch = newest_patch(release) if latest_patch else f"{release.version}.0"
    packages = " ".join(
        [f"{TORCH}=={patch}"]
        + [
            f"{companion.name}=={three_part(companion.with_patches.get(patch, companion.version))}"
            for name in INSTALLED_COMPANIONS
            for companion in release.companions
            if companion.name == name and companion.version
        ]
    )
    cuda = release.platform.cuda

    def from_index(variant: str, label: str) -> InstallVariant:
        return InstallVariant(variant, label, f"pip install {packages} --index-url {INDEX}/{variant}")

    variants = []
    if cuda.default_wheel:
        note = f"Linux x86_64 wheel built with CUDA {cuda.default_wheel}"
        variants.append(InstallVariant(DEFAULT_WHEEL, "Default (PyPI)", f"pip install {packages}", note))
    variants.append(from_index(CPU, f"{family(CPU).label} only"))
    variants += [from_index(cuda_tag(build.version), f"{family(CUDA).label} {build.version}") for build in cuda.stable]
    variants += [
        from_index(cuda_tag(build.version), f"{family(CUDA).label} {build.version} (experimental)")
        for build in cuda.experimental
    ]
    variants += [
        from_index(f"{ROCM}{version}", f"{family(ROCM).label} {version}")
        for version in release.platform.rocm.stable or []
    ]
    if release.platform.xpu.wheels:
        variants.append(from_index(XPU, family(XPU).label))
    return variants
