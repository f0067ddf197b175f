"""Shared fixtures: the tiny made-up dataset, and site builds in temporary folders.

Site builds run `mkdocs build --strict` in a subprocess, exactly as a contributor would, on a
copy of the project whose data/ may be swapped for a test dataset.

The sites many tests read (the real data, the made-up data, the offline flavour) are built once
per test run and shared: under pytest-xdist (`make test` runs one worker per core) the first
worker that needs one builds it into the run's temporary folder while holding a file lock; the
others wait on the lock and read the same files.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from bs4.filter import ElementFilter
from filelock import FileLock

ROOT = Path(__file__).resolve().parent.parent
FIXTURE_DATA = ROOT / "tests" / "fixtures" / "data"

# The browser fixtures (tests/browser/browserkit.py: one chromium per worker, the served sites) are
# registered once, here, for every test module: a fixture imported into two modules would be two
# fixtures, and a second Playwright started while the first runs fails.
sys.path.insert(0, str(ROOT / "tests" / "browser"))
pytest_plugins = ["browserkit"]


@dataclass
class Build:
    project: Path
    site: Path
    returncode: int
    output: str

    def html(self, page: str, only: ElementFilter | None = None) -> BeautifulSoup:
        """The page parsed; with `only` (`Only`, or a bs4 SoupStrainer), just the elements it keeps."""
        return BeautifulSoup((self.site / page).read_text(encoding="utf-8"), "html.parser", parse_only=only)


class Only(ElementFilter):
    """For tests that read a few kinds of element on every page: the parser still reads the whole
    page, but builds only the elements `keep(name, attributes)` accepts, each with everything
    inside it, in the page's order. `find_all` of a kept kind finds what it finds in the whole
    page; building the rest of a guide's thousands of elements is most of a parse's time."""

    def __init__(self, keep: Callable[[str, dict], bool]) -> None:
        super().__init__()
        self.keep = keep

    def allow_tag_creation(self, nsprefix: str | None, name: str, attrs) -> bool:  # type: ignore[no-untyped-def]
        return self.keep(name, attrs or {})

    def allow_string_creation(self, string: str) -> bool:
        return False


def copy_project(tmp: Path, data: Path) -> Path:
    project = tmp / "project"
    project.mkdir()
    for name in ("mkdocs.yml", "docs", "overrides", "macros"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, project / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, project / name)
    shutil.copytree(data, project / "data")
    return project


def run_build(project: Path, extra_env: dict[str, str] | None = None, config: str = "mkdocs.yml") -> Build:
    site = project / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(extra_env or {})}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", config, "-d", str(site)],
        cwd=project,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    return Build(project, site, result.returncode, result.stdout + result.stderr)


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder of the whole run: under pytest-xdist each worker's own folder sits in
    it (…/pytest-N/popen-gw0), without xdist it is the session's folder."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def shared_build(
    tmp_path_factory: pytest.TempPathFactory,
    name: str,
    make_project: Callable[[Path], Path],
    extra_env: dict[str, str] | None = None,
) -> Build:
    """`run_build` of the project `make_project(folder)` writes, once per test run whatever the
    number of workers: the first caller builds (holding `name`.lock), the others wait and read the
    same site and output."""
    folder = run_folder(tmp_path_factory) / f"shared-{name}"
    result = folder / "build.json"
    with FileLock(f"{folder}.lock"):
        if not result.exists():
            folder.mkdir()
            build = run_build(make_project(folder), extra_env)
            record = {"project": str(build.project), "returncode": build.returncode, "output": build.output}
            result.write_text(json.dumps(record), encoding="utf-8")
    saved = json.loads(result.read_text(encoding="utf-8"))
    project = Path(saved["project"])
    return Build(project, project / "site", saved["returncode"], saved["output"])


def project_with(data: Path) -> Callable[[Path], Path]:
    """A `make_project` for `shared_build`: a copy of the project with `data` as its data/."""
    return lambda folder: copy_project(folder, data)


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory: pytest.TempPathFactory) -> Build:
    build = shared_build(tmp_path_factory, "fixture", project_with(FIXTURE_DATA))
    assert build.returncode == 0, build.output
    return build


@pytest.fixture(scope="session")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> Build:
    # ATLAS_SITE names a site built another way (the CI job that builds the materialized tree
    # with a successor of MkDocs): the same tests then read that site instead of building one.
    prebuilt = os.environ.get("ATLAS_SITE")
    if prebuilt:
        return Build(ROOT, Path(prebuilt).resolve(), 0, "")
    build = shared_build(tmp_path_factory, "real", project_with(ROOT / "data"))
    assert build.returncode == 0, build.output
    return build


@pytest.fixture(scope="session")
def offline_build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """The documented offline flavour (`ATLAS_OFFLINE=true`), meant to be opened from file://."""
    build = shared_build(tmp_path_factory, "offline", project_with(ROOT / "data"), {"ATLAS_OFFLINE": "true"})
    assert build.returncode == 0, build.output
    return build
