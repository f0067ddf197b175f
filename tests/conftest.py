"""Shared fixtures: the tiny made-up dataset, and site builds in temporary folders.

Site builds run `mkdocs build --strict` in a subprocess, exactly as a contributor would, on a
copy of the project whose data/ may be swapped for a test dataset. Builds are cached per session.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

ROOT = Path(__file__).resolve().parent.parent
FIXTURE_DATA = ROOT / "tests" / "fixtures" / "data"


@dataclass
class Build:
    project: Path
    site: Path
    returncode: int
    output: str

    def html(self, page: str) -> BeautifulSoup:
        return BeautifulSoup((self.site / page).read_text(encoding="utf-8"), "html.parser")


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


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory: pytest.TempPathFactory) -> Build:
    build = run_build(copy_project(tmp_path_factory.mktemp("fixture"), FIXTURE_DATA))
    assert build.returncode == 0, build.output
    return build


@pytest.fixture(scope="session")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> Build:
    # ATLAS_SITE names a site built another way (the CI job that builds the materialized tree
    # with a successor of MkDocs): the same tests then read that site instead of building one.
    prebuilt = os.environ.get("ATLAS_SITE")
    if prebuilt:
        return Build(ROOT, Path(prebuilt).resolve(), 0, "")
    build = run_build(copy_project(tmp_path_factory.mktemp("real"), ROOT / "data"))
    assert build.returncode == 0, build.output
    return build
