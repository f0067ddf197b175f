"""The bad-input corpus: every broken data file fails with its file:line:column and field.

Each case copies the made-up dataset, swaps one file for a broken one, and runs the real
commands: `python -m macros check` for every case, and `mkdocs build` for a sample, which must
stop before writing anything.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import FIXTURE_DATA, ROOT, copy_project, run_build

CORPUS = Path(__file__).parent / "bad_inputs"
CASES = yaml.safe_load((CORPUS / "cases.yaml").read_text(encoding="utf-8"))


def broken_project(tmp_path: Path, case: dict) -> Path:
    project = tmp_path / "project"
    shutil.copytree(FIXTURE_DATA, project / "data")
    shutil.copyfile(CORPUS / case["file"], project / "data" / case.get("target", "releases/9.2.yaml"))
    return project


def test_corpus_covers_every_file_and_at_least_15_cases() -> None:
    listed = {case["file"] for case in CASES}
    on_disk = {path.name for path in CORPUS.glob("*.yaml")} - {"cases.yaml"}
    assert listed == on_disk
    assert len(CASES) >= 15


@pytest.mark.parametrize("case", CASES, ids=[case["file"].removesuffix(".yaml") for case in CASES])
def test_check_names_file_line_and_field(tmp_path: Path, case: dict) -> None:
    project = broken_project(tmp_path, case)
    result = subprocess.run(
        [sys.executable, "-m", "macros", "check", "--data", "data"],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert lines[0].startswith("The data has ")
    matching = [line for line in lines if line.startswith(case["where"] + ": ")]
    assert matching, f"expected a line starting with {case['where']!r} in:\n{result.stderr}"
    assert case["message"] in matching[0]
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("name", ["bad_effect.yaml", "tab_indentation.yaml", "non_utf8.yaml"])
def test_build_stops_before_writing_anything(tmp_path: Path, name: str) -> None:
    case = next(case for case in CASES if case["file"] == name)
    project = copy_project(tmp_path, FIXTURE_DATA)
    shutil.copyfile(CORPUS / name, project / "data" / "releases" / "9.2.yaml")
    build = run_build(project)
    assert build.returncode != 0
    assert case["where"] in build.output
    assert "Traceback" not in build.output
    assert not build.site.exists(), "a failed data check must not leave a partial site"
