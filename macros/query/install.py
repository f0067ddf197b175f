"""Catalog-level query: the install command for each wheel variant of a release.

Derived from the platform block (never typed by hand): CPU, each stable and experimental CUDA
build, each ROCm version and XPU, plus the default `pip install torch` from PyPI. Each command pins
torch and the torchvision and torchaudio of that release (torchaudio only where it had one).
"""

from __future__ import annotations

from dataclasses import dataclass

from macros.dataset.model import Release, three_part

INDEX = "https://download.pytorch.org/whl"


@dataclass(frozen=True)
class InstallVariant:
    id: str  # stable anchor suffix, e.g. "cu130"
    label: str
    command: str
    note: str = ""


def cuda_tag(version: str) -> str:
    """'12.6' -> 'cu126', '13.0' -> 'cu130' (the download index naming)."""
    major, minor = version.split(".")[:2]
    return f"cu{major}{minor}"


def install_variants(release: Release) -> list[InstallVariant]:
    packages = " ".join(
        [f"torch=={release.version}.0"]
        + [
            f"{companion.name}=={three_part(companion.version)}"
            for name in ("torchvision", "torchaudio")
            for companion in release.companions
            if companion.name == name and companion.version
        ]
    )
    cuda = release.platform.cuda
    variants = []
    if cuda.default_wheel:
        variants.append(
            InstallVariant(
                "pypi",
                "Default (PyPI)",
                f"pip install {packages}",
                f"Linux x86_64 wheel built with CUDA {cuda.default_wheel}",
            )
        )
    variants.append(InstallVariant("cpu", "CPU only", f"pip install {packages} --index-url {INDEX}/cpu"))
    for build in cuda.stable:
        tag = cuda_tag(build.version)
        variants.append(
            InstallVariant(tag, f"CUDA {build.version}", f"pip install {packages} --index-url {INDEX}/{tag}")
        )
    for build in cuda.experimental:
        tag = cuda_tag(build.version)
        variants.append(
            InstallVariant(
                tag,
                f"CUDA {build.version} (experimental)",
                f"pip install {packages} --index-url {INDEX}/{tag}",
            )
        )
    for version in release.platform.rocm.stable:
        tag = f"rocm{version}"
        variants.append(
            InstallVariant(tag.replace(".", ""), f"ROCm {version}", f"pip install {packages} --index-url {INDEX}/{tag}")
        )
    if release.platform.xpu.wheels:
        variants.append(InstallVariant("xpu", "Intel XPU", f"pip install {packages} --index-url {INDEX}/xpu"))
    return variants
