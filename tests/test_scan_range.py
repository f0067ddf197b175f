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
        ("pyproject.toml", "[project\n", "pyproject.toml:1:9: not valid TOML"),
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


@pytest.mark.parametrize(
    ("file", "text", "message"),
    [
        ("pyproject.toml", "project = 3\n", "pyproject.toml: project is not a table (int)"),
        (
            "pyproject.toml",
            "[project]\ndependencies = [1, 2]\n",
            "pyproject.toml: [project] dependencies is not a list",
        ),
        (
            "pyproject.toml",
            '[project]\ndependencies = "torch"\n',
            "pyproject.toml: [project] dependencies is not a list",
        ),
        ("pyproject.toml", "[project.optional-dependencies]\ngpu = 3\n", "[project.optional-dependencies] gpu is not"),
        ("pyproject.toml", "tool = 1\n", "pyproject.toml: tool is not a table"),
        ("pyproject.toml", "[tool]\npoetry = []\n", "pyproject.toml: poetry is not a table"),
        ("pyproject.toml", "a = " + "[" * 5000 + "]" * 5000 + "\n", "pyproject.toml"),
        (
            "pyproject.toml",
            '[project]\ndependencies = ["torch>=2.x"]\n',
            "torch requirement 'torch>=2.x' cannot be read",
        ),
        ("pyproject.toml", b"[project]\nname = '\xff'\n", "pyproject.toml:2: not UTF-8"),
        ("requirements.txt", "numpy\ntorch>=2.9,,\n", "requirements.txt:2: torch requirement 'torch>=2.9,,'"),
        ("requirements.txt", "-r /dev/zero\n", "requirements.txt:1: includes /dev/zero: not a regular file (a device"),
        ("requirements.txt", "-r sub\n", "requirements.txt:1: includes "),
        ("uv.lock", "package = 3\n", "uv.lock: package is not an array"),
        (
            "uv.lock",
            '[[package]]\nname = "torch"\nversion = "two"\n',
            "uv.lock: torch's version 'two' is not a version",
        ),
        ("uv.lock", "[[package]\n", "uv.lock:1:"),
    ],
)
def test_malformed_project_files_end_in_one_line_naming_the_file(
    project: Path, file: str, text: str | bytes, message: str
) -> None:
    """Issue 46: a malformed pyproject.toml, uv.lock or requirements include is a usage error (exit
    2, one line naming the file and the line where known), never a traceback (exit 1)."""
    (project / "sub").mkdir()
    if file == "uv.lock":
        (project / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    if isinstance(text, bytes):
        (project / file).write_bytes(text)
    else:
        (project / file).write_text(text, encoding="utf-8")
    result = scan(project)
    assert (result.returncode, result.stdout) == (2, ""), result.stderr[-3000:]
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("python -m macros scan: error: ") and message in lines[0], lines


@pytest.mark.parametrize("kind", ["fifo", "device", "folder", "large"])
def test_project_files_that_are_not_small_regular_files_are_refused(project: Path, kind: str) -> None:
    target = project / "pyproject.toml"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "device":
        target.symlink_to("/dev/zero")
    elif kind == "folder":
        target.mkdir()
    else:
        target.write_text("# " + "x" * (2 * 1024 * 1024) + "\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "macros", "scan", str(project / "src")],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
        timeout=60,  # a FIFO read that blocked would hang here
    )
    expected = {"fifo": "not a regular file (a FIFO)", "device": "not a regular file (a device", "folder": "(a folder)"}
    assert (result.returncode, result.stdout) == (2, ""), result.stderr[-3000:]
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "pyproject.toml: " in lines[0], lines
    assert expected.get(kind, "larger than 1 MiB") in lines[0]


@pytest.mark.parametrize("args", [["--from", "²", "--to", "2.10"], ["--from", "2.9", "--to", "²"], ["--to", "¹.²"]])
def test_versions_in_other_digits_are_usage_errors(project: Path, args: list[str]) -> None:
    (project / "requirements.txt").write_text("torch>=2.9\n", encoding="utf-8")
    result = scan(project, *args)
    assert (result.returncode, result.stdout) == (2, ""), result.stderr[-3000:]
    lines = result.stderr.splitlines()
    assert lines[-1].startswith("python -m macros scan: error: unknown version") and len(lines) <= 2, lines
