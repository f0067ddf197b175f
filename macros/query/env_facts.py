"""Catalog-level query: the facts the environment doctor's script needs, as one JSON object.

The upgrade guides and their index carry it in `<script type="application/json"
id="atlas-facts">`; docs/assets/atlas-env.js reads it and holds no fact of its own. From
data/gpus.yaml (model -> compute capability), data/drivers.yaml (CUDA build -> minimum NVIDIA
driver), the releases the site covers, and the PyPI snapshot (the last release with Intel Mac
wheels); and what atlas.js would otherwise restate from the vocabulary (dataset/vocabulary.py):
the setup's fields, the wheel variant families and the operating systems. Computed once per build.
"""

from __future__ import annotations

from typing import Any

from macros.dataset import wheels
from macros.dataset.text import script_json
from macros.dataset.vocabulary import (
    CPU,
    CUDA,
    DEFAULT_WHEEL,
    DRIVER_SYSTEMS,
    LINUX,
    MACOS,
    MPS,
    OPERATING_SYSTEMS,
    ROCM,
    SOURCE,
    TORCH,
    VARIANT_FAMILIES,
    WINDOWS,
    XPU,
)
from macros.query.catalog import Catalog
from macros.query.install import cuda_tag

#: The "Your setup" controls, in order: the query parameter (a public contract: `?variant=cu128`),
#: the `applies_to` list a guide row carries it in (`data-variants`), and how a value matches one
#: of the row's: "family" (cu128 matches cuda), "capability" (sm_80 is 8.0) or "exact".
SETUP_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("variant", "variants", "family"),
    ("os", "os", "exact"),
    ("python", "python", "exact"),
    ("gpu", "gpu", "capability"),
)


def vocabulary_facts() -> dict[str, Any]:
    """The vocabulary atlas.js decides with: the names on the left are the script's."""
    return {
        "setupFields": [{"name": name, "appliesTo": field, "match": match} for name, field, match in SETUP_FIELDS],
        # [family, regular expression its members match], in the controls' order.
        "variantFamilies": [[family.value, family.members] for family in VARIANT_FAMILIES],
        "variants": {
            "cpuOnly": CPU,
            "cudaFamily": CUDA,
            "rocmFamily": ROCM,
            "appleGpu": MPS,
            "intelGpu": XPU,
            "fromSource": SOURCE,
            "pypiDefault": DEFAULT_WHEEL,
        },
        "os": {
            "mac": MACOS,
            "win": WINDOWS,
            "lin": LINUX,
            "labels": {term.value: term.label for term in OPERATING_SYSTEMS},
        },
        # NVIDIA's driver tables have these columns; another system reads the first one's.
        "driverSystems": list(DRIVER_SYSTEMS),
    }


def intel_mac_last(catalog: Catalog) -> str | None:
    """The newest release whose X.Y.0 has macOS x86_64 wheels on PyPI (the snapshot's tags)."""
    if catalog.pypi is None:
        return None
    torch = wheels.wheels(catalog.pypi, TORCH)
    with_intel = [
        release.version
        for release in catalog.releases
        if wheels.floors(wheels.of_version(torch, f"{release.version}.0"), "macOS x86_64", wheels.macos_of)
    ]
    return with_intel[-1] if with_intel else None


def apple_silicon_floors(catalog: Catalog) -> dict[str, str]:
    """Release -> the oldest macOS some of its X.Y.0 Apple silicon wheels on PyPI install on."""
    if catalog.pypi is None:
        return {}
    torch = wheels.wheels(catalog.pypi, TORCH)
    floors = {}
    for release in catalog.releases:
        found = wheels.floors(wheels.of_version(torch, f"{release.version}.0"), "macOS arm64", wheels.macos_of)
        if found:
            major, minor = min(found)
            floors[release.version] = f"{major}.{minor}"
    return floors


def env_facts(catalog: Catalog) -> dict[str, Any]:
    gpus = catalog.gpus.models if catalog.gpus else []
    drivers = catalog.drivers
    return {
        **vocabulary_facts(),
        "releases": [release.version for release in catalog.releases],
        # Wheel variant -> its CUDA version (cu128 -> 12.8), every CUDA build of the data.
        "cudaVersions": {
            cuda_tag(build.version): build.version
            for release in catalog.releases
            for build in release.platform.cuda.stable + release.platform.cuda.experimental
        },
        "intelMacLast": intel_mac_last(catalog),
        "appleSiliconMacos": apple_silicon_floors(catalog),
        # [name, compute capability, Arm-only, aliases]; families per capability.
        "gpus": [[model.name, model.capability, int(model.arm), list(model.aliases)] for model in gpus],
        "families": {model.capability: model.family for model in gpus},
        "drivers": {
            build.cuda: {**{system: getattr(build, system) for system in DRIVER_SYSTEMS}, "toolkit": build.toolkit}
            for build in (drivers.builds if drivers else [])
        },
        "driverFloors": {
            floor.major: {system: getattr(floor, system) for system in DRIVER_SYSTEMS}
            for floor in (drivers.floors if drivers else [])
        },
    }


def env_facts_json(catalog: Catalog) -> str:
    """The facts as JSON inert inside a <script> element, whatever the data's strings hold."""
    return catalog.memo("env-facts-json", lambda: script_json(env_facts(catalog)))
