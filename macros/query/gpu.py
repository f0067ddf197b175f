"""Catalog-level query: which CUDA wheel of a release runs which GPU.

The rule, NVIDIA's (source `nvidia-cuda-compatibility`): a wheel runs a GPU of compute capability
X.z when it carries machine code for some X.y with y <= z (same major version), or PTX for a
capability at or below X.z, which the driver compiles on first use. It lives here only: pages
print its answers, and the personal guide's script reads them from the page.
"""

from __future__ import annotations

from dataclasses import dataclass

from macros.dataset.checks import GPU_TABLE_SOURCES
from macros.dataset.model import CudaBuild, GpuModel, GpuTable, Release, version_key
from macros.query.install import cuda_tag


@dataclass(frozen=True)
class Gpu:
    capability: str  # "8.6"
    family: str
    examples: str


def short_name(name: str) -> str:
    """'GeForce RTX 4090' -> 'RTX 4090', 'NVIDIA H100' -> 'H100': the brand says nothing here."""
    for brand in ("GeForce ", "NVIDIA "):
        name = name.removeprefix(brand)
    return name


def known_gpus(table: GpuTable | None) -> tuple[Gpu, ...]:
    """The GPU tables' rows, from data/gpus.yaml (source `nvidia-cuda-gpus` and the others it
    cites): one per compute capability that an x86_64 GPU has, oldest first, named by the models
    marked as examples. Arm-only capabilities (Jetson, GB10) are left out: the tables are about
    the Linux x86_64 wheels."""
    if table is None:
        return ()
    rows: dict[str, list[GpuModel]] = {}
    for model in table.models:
        if not model.arm:
            rows.setdefault(model.capability, [])
    for model in table.models:
        if model.capability in rows:
            rows[model.capability].append(model)
    return tuple(
        Gpu(
            capability,
            models[0].family,
            ", ".join(short_name(m.name) for m in ([m for m in models if m.example] or models[:2])),
        )
        for capability, models in sorted(rows.items(), key=lambda row: version_key(row[0]))
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


def gpu_support(release: Release, gpus: tuple[Gpu, ...]) -> GpuSupport:
    """Which wheel of `release` runs each of `gpus` (`known_gpus(catalog.gpus)`)."""
    builds = release.platform.cuda.stable + release.platform.cuda.experimental
    return GpuSupport(
        release,
        tuple(cuda_tag(build.version) for build in builds),
        tuple(GpuRow(gpu, tuple(runs_on(build, gpu.capability) for build in builds)) for gpu in gpus),
    )
