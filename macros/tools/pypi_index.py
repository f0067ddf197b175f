"""`make index`: the one command that uses the network. It asks PyPI's JSON simple API (PEP 691)
for every published file of torch and its companions and writes `data/pypi.json`: wheels only,
of every torch release from 2.0 on (so that a new release is noticed) and of the companion versions
the data names, with file name, upload time, size and whether it was yanked
(tags come from the file name). Sorted and compact, so a refresh diffs cleanly; builds and
checks read the committed snapshot and stay offline.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from packaging.version import InvalidVersion, Version

from macros.dataset.model import PypiSnapshot, WheelFile, three_part
from macros.dataset.read import PYPI_SNAPSHOT
from macros.dataset.vocabulary import COMPANIONS, TORCH
from macros.query.catalog import Catalog

INDEX = "https://pypi.org/simple/"
ACCEPT = "application/vnd.pypi.simple.v1+json"
PACKAGES = (TORCH, *COMPANIONS.values)

#: (url, accept header) -> response body; urllib in real use, a recorded response in tests.
Fetch = Callable[[str, str], bytes]


def urllib_fetch(url: str, accept: str) -> bytes:
    import urllib.request

    request = urllib.request.Request(url, headers={"Accept": accept, "User-Agent": "pytorch-release-atlas"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.read()


def wanted_versions(catalog: Catalog) -> dict[str, set[str]]:
    """Per package, the versions worth keeping: every torch from 2.0 on, whether the data has its
    release or not (`make check` reports a newer minor the data lacks), and each companion version
    the data pins (as written and as X.Y.Z)."""
    wanted: dict[str, set[str]] = {name: set() for name in PACKAGES}
    wanted[TORCH].add(TORCH_SINCE)
    for release in catalog.releases:
        for companion in release.companions:
            for version in (companion.version, *companion.with_patches.values()):
                if version:
                    wanted[companion.name] |= {version, three_part(version)}
    return wanted


def _version_of(filename: str) -> str:
    return filename.split("-")[1]


#: Every torch version from this one on is kept.
TORCH_SINCE = ">=2.0"


def _keep(version: str, wanted: set[str]) -> bool:
    for w in wanted:
        if w.startswith(">="):
            try:
                if Version(version) >= Version(w[2:]):
                    return True
            except InvalidVersion:
                continue
        elif version == w or (w.endswith(".*") and version.startswith(w[:-1])):
            return True
    return False


def compact(project: dict[str, Any], wanted: set[str]) -> list[WheelFile]:
    files = []
    for entry in project.get("files", []):
        name = entry["filename"]
        if not name.endswith(".whl") or not _keep(_version_of(name), wanted):
            continue
        uploaded = re.sub(r"\.\d+Z$", "Z", entry.get("upload-time") or "1970-01-01T00:00:00Z")
        files.append(
            WheelFile(file=name, uploaded=uploaded, size=int(entry.get("size") or 0), yanked=bool(entry.get("yanked")))
        )
    return sorted(files, key=lambda f: f.file)


def refresh(catalog: Catalog, data_dir: Path, today: str, fetch: Fetch = urllib_fetch) -> Path:
    """Fetch every package, then write the snapshot in one go (nothing is written on failure)."""
    wanted = wanted_versions(catalog)
    packages = {}
    for name in PACKAGES:
        project = json.loads(fetch(f"{INDEX}{name}/", ACCEPT))
        packages[name] = compact(project, wanted[name])
    snapshot = PypiSnapshot(fetched=today, source=INDEX, packages=packages)  # type: ignore[arg-type]
    target = data_dir / PYPI_SNAPSHOT
    target.write_text(render(snapshot), encoding="utf-8")
    return target


def render(snapshot: PypiSnapshot) -> str:
    """One wheel per line: positions in problems point at the file, and refreshes diff per file."""
    lines = ["{", f'  "fetched": "{snapshot.fetched}",', f'  "source": "{snapshot.source}",', '  "packages": {']
    names = list(snapshot.packages)
    for index, name in enumerate(names):
        files = snapshot.packages[name]  # type: ignore[index]
        lines.append(f'    "{name}": [')
        for position, file in enumerate(files):
            comma = "," if position < len(files) - 1 else ""
            lines.append("      " + json.dumps(file.model_dump(), separators=(", ", ": ")) + comma)
        lines.append("    ]" + ("," if index < len(names) - 1 else ""))
    lines += ["  }", "}"]
    return "\n".join(lines) + "\n"
