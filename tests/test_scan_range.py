"""Without --from/--to the scanner reads the range from the project it scans: the oldest torch
its requirements allow, up to the newest release the data covers; a clear error otherwise."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from macros.query.catalog import open_catalog

NEWEST = open_catalog(ROOT / "data").releases[-1].version
USE = "import torch.export as te\nte.export_for_training(model, args)\n"


def scan(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "macros", "scan", str(project / "src"), *args],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()  # the search for project files stops here
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text(USE, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("file", "text", "start"),
    [
        ("pyproject.toml", '[project]\nname = "x"\ndependencies = ["numpy", "torch>=2.9.1,<3"]\n', "2.9"),
        ("pyproject.toml", '[project]\nname = "x"\n[project.optional-dependencies]\ngpu = ["torch~=2.10.0"]\n', "2.10"),
        ("pyproject.toml", '[tool.poetry.dependencies]\ntorch = "^2.8"\n', "2.8"),
        ("requirements.txt", "numpy\ntorch==2.10.1+cu128  # pinned\n", "2.10"),
        ("requirements-dev.txt", "-r requirements.txt\ntorch!=2.9.*,>=2.9\n", "2.10"),
        ("uv.lock", 'version = 1\n[[package]]\nname = "torch"\nversion = "2.9.0"\n', "2.9"),
    ],
)
def test_the_range_comes_from_the_project(project: Path, file: str, text: str, start: str) -> None:
    (project / file).write_text(text, encoding="utf-8")
    if file == "uv.lock":
        (project / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    result = scan(project, "--format", "json")
    assert result.stderr.splitlines()[0].startswith(f"scan from {start} to {NEWEST}: torch")
    assert result.returncode == 1  # export_for_training: deprecated in 2.9, removed in 2.11


def test_included_requirements_and_an_sdists_metadata_are_read(project: Path) -> None:
    """torchmetrics' requirements.txt holds only `-r requirements/base.txt`; Lightning's and
    transformers' sdists state torch only in PKG-INFO (setup.py computes it)."""
    (project / "requirements").mkdir()
    (project / "requirements" / "base.txt").write_text("-c ../requirements.txt\ntorch >=2.9.0, <2.12\n", "utf-8")
    (project / "requirements.txt").write_text("-r requirements/base.txt\n--requirement=missing.txt\n", "utf-8")
    lines = scan(project).stderr.splitlines()
    assert lines[0] == f"scan from 2.9 to {NEWEST}: torch<2.12,>=2.9.0 (requirements/base.txt)"
    (project / "requirements.txt").unlink()
    info = 'Metadata-Version: 2.1\nName: x\nRequires-Dist: torch>=2.10; extra == "torch"\n\nRequires-Dist: torch>=2.0\n'
    (project / "PKG-INFO").write_text(info, "utf-8")
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    result = scan(project)
    assert result.stderr.splitlines()[0] == f"scan from 2.10 to {NEWEST}: torch>=2.10 (PKG-INFO)"  # not the description
    assert result.returncode == 1


def test_no_lower_bound_scans_every_release(project: Path) -> None:
    (project / "requirements.txt").write_text("torch\n", encoding="utf-8")
    result = scan(project)
    assert result.stderr.splitlines()[0] == f"scan from any older release to {NEWEST}: torch (requirements.txt)"


def test_a_requirement_of_the_newest_release_has_nothing_to_scan(project: Path) -> None:
    (project / "requirements.txt").write_text(f"torch>={NEWEST}\n", encoding="utf-8")
    result = scan(project)
    assert (result.returncode, result.stdout) == (0, "")
    assert result.stderr.startswith(f"nothing to scan: torch>={NEWEST} (requirements.txt)")


@pytest.mark.parametrize(
    ("file", "text", "message"),
    [
        (None, "", "no pyproject.toml or requirements*.txt in"),
        ("pyproject.toml", '[project]\nname = "x"\ndependencies = ["numpy"]\n', "does not require torch"),
        ("pyproject.toml", "[project\n", "pyproject.toml: cannot be read as TOML"),
        ("requirements.txt", "torch>=3.0,<2.0\n", "allows no release"),
    ],
)
def test_without_a_range_to_read_exit_2_with_one_line(project: Path, file: str | None, text: str, message: str) -> None:
    if file:
        (project / file).write_text(text, encoding="utf-8")
    result = scan(project)
    assert (result.returncode, result.stdout) == (2, "")
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("python -m macros scan: error: ") and message in lines[0], lines
