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
from macros.dataset.read import ECOSYSTEM_SNAPSHOT, PYPI_SNAPSHOT
from macros.dataset.vocabulary import COMPANIONS, TORCH
from macros.query.catalog import Catalog

INDEX = "https://pypi.org/simple/"
ACCEPT = "application/vnd.pypi.simple.v1+json"
PACKAGES = (TORCH, *COMPANIONS.values)

#: (url, accept header, byte range) -> response body; `http.get` with the run's deadline in real
#: use, a local server in tests.
Fetch = Callable[[str, str, "tuple[int, int] | None"], bytes]


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


def snapshot_of(catalog: Catalog, today: str, fetch: Callable[[str, str], bytes], index: str = INDEX) -> PypiSnapshot:
    """The wheels of torch and its companions the data needs, each answer checked (PEP 691 shape,
    plain file names, numbers where numbers belong): IndexAnswerError otherwise."""
    from macros.tools.eco_index import parse_project

    wanted = wanted_versions(catalog)
    packages = {}
    for name in PACKAGES:
        url = f"{index}{name}/"
        body = fetch(url, ACCEPT)
        parse_project(body, url, name)  # checks the answer's shape; IndexAnswerError otherwise
        packages[name] = compact(json.loads(body), wanted[name])
    return PypiSnapshot(fetched=today, source=index, packages=packages)  # type: ignore[arg-type]


def refresh(
    catalog: Catalog, data_dir: Path, today: str, fetch: Callable[[str, str], bytes], index: str = INDEX
) -> Path:
    """data/pypi.json alone: fetch every package, then write it atomically (nothing on failure)."""
    from macros.dataset.safe_io import write_text

    target = data_dir / PYPI_SNAPSHOT
    write_text(target, render(snapshot_of(catalog, today, fetch, index)), root=data_dir)
    return target


def refresh_all(
    catalog: Catalog,
    data_dir: Path,
    today: str,
    fetch: Fetch,
    index: str = INDEX,
    cache: Path | None = None,
    progress: Callable[[str], None] = lambda _: None,
) -> list[Path]:
    """`make index`: the wheels (data/pypi.json) and the ecosystem (data/ecosystem.json), both
    written only when every read succeeded. Raises IndexFetchError (no answer), IndexAnswerError
    (an answer that is not a PEP 691 page) or UnsafeFile (a target that is a link)."""
    from macros.dataset.safe_io import check_writable, write_text
    from macros.tools.eco_index import build_snapshot
    from macros.tools.eco_index import render as render_ecosystem

    targets = [data_dir / PYPI_SNAPSHOT, data_dir / ECOSYSTEM_SNAPSHOT]
    for target in targets:
        check_writable(target, data_dir)  # before any read: a link found late must not leave one written
    snapshot = snapshot_of(catalog, today, lambda url, accept: fetch(url, accept, None), index)
    progress(f"wheels of {len(PACKAGES)} packages listed")
    ecosystem = build_snapshot(fetch, index, cache=cache, progress=progress)
    texts = [render(snapshot), render_ecosystem(ecosystem)]
    for target, text in zip(targets, texts, strict=True):
        write_text(target, text, root=data_dir)
    return targets


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
