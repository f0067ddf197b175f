"""Catalog-level query: which CUDA wheel of a release runs which GPU.

The rule, NVIDIA's (source `nvidia-cuda-compatibility`): a wheel runs a GPU of compute capability
X.z when it carries machine code for some X.y with y <= z (same major version), or PTX for a
capability at or below X.z, which the driver compiles on first use. It lives here only: pages
print its answers, and the personal guide's script reads them from the page.
"""

from __future__ import annotations

from dataclasses import dataclass

from macros.dataset.checks import GPU_TABLE_SOURCES
from macros.dataset.model import CudaBuild, Release, version_key
from macros.query.install import cuda_tag


@dataclass(frozen=True)
class Gpu:
    capability: str  # "8.6"
    family: str
    examples: str


#: GPUs people run the x86_64 wheels on, by compute capability (source `nvidia-cuda-gpus`).
KNOWN_GPUS: tuple[Gpu, ...] = (
    Gpu("5.0", "Maxwell", "GTX 750 Ti"),
    Gpu("5.2", "Maxwell", "GTX 980, Tesla M40"),
    Gpu("6.0", "Pascal", "Tesla P100"),
    Gpu("6.1", "Pascal", "GTX 1080, Tesla P40"),
    Gpu("7.0", "Volta", "Tesla V100, TITAN V"),
    Gpu("7.5", "Turing", "T4, RTX 2080"),
    Gpu("8.0", "Ampere", "A100, A30"),
    Gpu("8.6", "Ampere", "RTX 3090, A10, A40"),
    Gpu("8.9", "Ada Lovelace", "RTX 4090, L4, L40S"),
    Gpu("9.0", "Hopper", "H100, H200"),
    Gpu("10.0", "Blackwell", "B200, GB200"),
    Gpu("10.3", "Blackwell", "B300, GB300"),
    Gpu("12.0", "Blackwell", "RTX 5090, RTX PRO 6000"),
)


def gpu_sources(release: Release) -> list[str]:
    """What a GPU table cites: NVIDIA's pages for the rule, the release's CUDA block for the lists."""
    return [*GPU_TABLE_SOURCES, *release.platform.cuda.sources]


def sm(capability: str) -> str:
    """'8.6' -> 'sm_86'."""
    return "sm_" + capability.replace(".", "")


@dataclass(frozen=True)
class Runs:
    ok: bool
    target: str  # the code it runs: "sm_86", or "PTX sm_120"; empty when it does not run

    @property
    def text(self) -> str:
        """A table cell: "yes (sm_86)", "yes (PTX sm_120)", "no"."""
        return f"yes ({self.target})" if self.ok else "no"

    @property
    def via(self) -> str:
        """In a sentence: "sm_86 code", "PTX for sm_120"."""
        return self.target.replace("PTX ", "PTX for ") if self.target.startswith("PTX") else f"{self.target} code"


def runs_on(build: CudaBuild, capability: str) -> Runs:
    major = capability.split(".")[0]
    target = version_key(capability)
    machine_code = [cc for cc in build.compute_capabilities if cc.split(".")[0] == major and version_key(cc) <= target]
    if machine_code:
        return Runs(True, sm(max(machine_code, key=version_key)))
    ptx = [cc for cc in build.ptx or [] if version_key(cc) <= target]
    if ptx:
        return Runs(True, f"PTX {sm(max(ptx, key=version_key))}")
    return Runs(False, "")


@dataclass(frozen=True)
class GpuRow:
    gpu: Gpu
    cells: tuple[Runs, ...]  # in the order of `GpuSupport.variants`


@dataclass(frozen=True)
class GpuSupport:
    release: Release
    variants: tuple[str, ...]  # cu126, cu130, … (stable builds first)
    rows: tuple[GpuRow, ...]

    def runs(self, variant: str, capability: str) -> Runs:
        row = next(row for row in self.rows if row.gpu.capability == capability)
        return row.cells[self.variants.index(variant)]


def gpu_support(release: Release) -> GpuSupport:
    builds = release.platform.cuda.stable + release.platform.cuda.experimental
    return GpuSupport(
        release,
        tuple(cuda_tag(build.version) for build in builds),
        tuple(GpuRow(gpu, tuple(runs_on(build, gpu.capability) for build in builds)) for gpu in KNOWN_GPUS),
    )
