"""Catalog-level query: the facts the environment doctor's script needs, as one JSON object.

The upgrade guides and their index carry it in `<script type="application/json"
id="atlas-facts">`; docs/assets/atlas-env.js reads it and holds no fact of its own. From
data/gpus.yaml (model -> compute capability), data/drivers.yaml (CUDA build -> minimum NVIDIA
driver), the releases the site covers, and the PyPI snapshot (the last release with Intel Mac
wheels). Computed once per build.
"""

from __future__ import annotations

import json
from typing import Any

from macros.dataset import wheels
from macros.dataset.vocabulary import DRIVER_SYSTEMS, TORCH
from macros.query.catalog import Catalog


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
        "releases": [release.version for release in catalog.releases],
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
    """The facts as JSON safe inside a <script> element (no "</" can close it)."""
    return catalog.memo(
        "env-facts-json",
        lambda: json.dumps(env_facts(catalog), separators=(",", ":"), sort_keys=True).replace("</", "<\\/"),
    )
