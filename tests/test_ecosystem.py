"""The ecosystem snapshot as data (data/ecosystem.json): its schema and limits with positioned
errors, the check against the releases' `companions`, and the comparison page that reads it.

Literal expectations were read by hand from the snapshot's rows (named in the comments).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, Build
from tablekit import read_table

from macros.dataset.load import load_file
from macros.dataset.model import EcosystemSnapshot
from macros.dataset.problems import DataError
from macros.query.catalog import open_catalog


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    target = tmp_path / "data"
    shutil.copytree(ROOT / "data", target)
    monkeypatch.chdir(tmp_path)
    return target


def _replace_line(path: Path, release: str, find: str, replace: str) -> int:
    """In the one line of release `release` holding `find`, replace it; the line's number."""
    lines = path.read_text(encoding="utf-8").split("\n")
    (number,) = [n for n, line in enumerate(lines) if f'"version":"{release}"' in line and find in line]
    lines[number] = lines[number].replace(find, replace)
    path.write_text("\n".join(lines), encoding="utf-8")
    return number + 1


def test_check_fails_when_a_pin_disagrees_with_the_companions(data: Path) -> None:
    # data/releases/2.9.yaml pairs torch 2.9 with torchvision 0.24 (and 2.9.1 with 0.24.1); the
    # snapshot's torchvision 0.24.0 pins torch==2.9.0. Make it pin 2.8.0.
    line = _replace_line(data / "ecosystem.json", "0.24.0", '"torch==2.9.0"', '"torch==2.8.0"')
    with pytest.raises(DataError) as raised:
        open_catalog(data)
    report = raised.value.report()
    release_lines = (data / "releases" / "2.9.yaml").read_text(encoding="utf-8").split("\n")
    version_line = next(
        n + 1
        for n, text_line in enumerate(release_lines)
        if text_line.strip() == 'version: "0.24"' and "torchvision" in release_lines[n - 1]
    )
    assert f"data/releases/2.9.yaml:{version_line}:" in report
    assert "companions[0].version" in report
    assert f"torchvision 0.24.0 requires torch==2.8.0 (data/ecosystem.json:{line})" in report
    assert "not a torch 2.9 release" in report


def test_check_fails_when_a_patch_pin_disagrees(data: Path) -> None:
    line = _replace_line(data / "ecosystem.json", "0.24.1", '"torch==2.9.1"]', '"torch==2.9.0"]')
    with pytest.raises(DataError) as raised:
        open_catalog(data)
    report = raised.value.report()
    assert "companions[0].with_patches" in report
    assert f"torchvision 0.24.1 requires torch==2.9.0 (data/ecosystem.json:{line}), not torch 2.9.1" in report


@pytest.mark.parametrize(
    ("find", "replace", "field", "words"),
    [
        ('"requires":["torch==2.9.0"]', '"requires":["torch=>2.9.0"]', "packages", "PEP 508"),
        ('"requires":["torch==2.9.0"]', '"requires":["numpy>=1"]', "packages", "first-party"),
        ('"source":"wheel"}', '"source":"wheel","unknown":"a guess"}', "packages", "not both"),
        ('"version":"0.24.0"', '"version":"0.24.0 final"', "packages", "PEP 440"),
        ('"uploaded":"2025-10-15"', '"uploaded":"2025-10-15","extra":1', "packages", "unknown field"),
    ],
)
def test_a_bad_release_gets_a_positioned_error(data: Path, find: str, replace: str, field: str, words: str) -> None:
    path = data / "ecosystem.json"
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    number = next(n for n, line in enumerate(lines) if '"version":"0.24.0"' in line and find in line)
    lines[number] = lines[number].replace(find, replace)
    path.write_text("\n".join(lines), encoding="utf-8")
    record, _, problems = load_file(path, EcosystemSnapshot)
    assert record is None and problems
    assert problems[0].line == number + 1
    assert problems[0].field.startswith(field)
    assert words in problems[0].message


def test_a_snapshot_over_its_size_limit_is_refused(data: Path) -> None:
    path = data / "ecosystem.json"
    path.write_text(path.read_text(encoding="utf-8") + " " * (2 * 1024 * 1024), encoding="utf-8")
    _, _, problems = load_file(path, EcosystemSnapshot)
    assert problems and "limited to 2,097,152 bytes" in problems[0].message


def test_the_snapshot_is_compact_and_sorted() -> None:
    text = (ROOT / "data" / "ecosystem.json").read_text(encoding="utf-8")
    document = json.loads(text)
    names = list(document["packages"])
    assert names == sorted(names) and len(names) >= 36
    assert "fetched" not in document  # no date of the run
    for name in ("vllm", "xformers", "transformers", "accelerate", "torchvision", "flash-attn", "captum"):
        assert name in names
    # One release a line.
    release_lines = [line for line in text.split("\n") if line.startswith('      {"version"')]
    assert len(release_lines) == sum(len(releases) for releases in document["packages"].values())
    # The issue's own examples, as PyPI's metadata states them.
    rows = {(name, r["version"]): r for name, releases in document["packages"].items() for r in releases}
    assert rows[("vllm", "0.11.0")]["requires"][0] == "torch==2.8.0"
    assert "torch>=2.10" in rows[("xformers", "0.0.35")]["requires"]
    assert "torch>=2.0.0" in rows[("accelerate", "1.15.0")]["requires"]
    assert any(
        re.fullmatch(r'torch>=[0-9.]+; extra == "torch"', r) for r in rows[("transformers", "5.24.0")]["requires"]
    )


# --- the page --------------------------------------------------------------------------------------------


def test_ecosystem_page_reads_right(real_site: Build) -> None:
    catalog = open_catalog(ROOT / "data")
    grid = read_table(real_site.html("compare/ecosystem.html").select("article table")[0])
    assert grid.headings == ["Package", *(r.version for r in reversed(catalog.releases))]
    assert grid.row_headings() == sorted(json.loads((ROOT / "data" / "ecosystem.json").read_text())["packages"])
    # xformers: 0.0.32.post1 and 0.0.32.post2 pin torch==2.8.0; 0.0.35 is the only final release whose
    # torch>=2.10 admits 2.12 (0.0.34 pins 2.10.0).
    assert grid.cell("xformers", "2.8") == "first 0.0.32.post1 · exact pin\nnewest 0.0.32.post2 · exact pin"
    assert grid.cell("xformers", "2.12") == "0.0.35 · declared, no upper bound"
    # torchvision 0.27.0 pins 2.12.0 and 0.27.1 pins 2.12.1.
    assert grid.cell("torchvision", "2.12") == "first 0.27.0 · exact pin\nnewest 0.27.1 · exact pin"
    # vllm 0.1.0 to 0.1.3 are unreadable; 0.1.4 declares torch>=2.0.0; 0.26.0 (the last before 0.27.0
    # moved to torch==2.13.0) pins torch==2.11.0.
    assert grid.cell("vllm", "2.11") == "first 0.1.4 · declared, no upper bound\nnewest 0.26.0 · exact pin"
    # fbgemm-gpu declares no torch requirement in any release.
    assert grid.cell("fbgemm-gpu", "2.12") == "none"
    note = real_site.html("compare/ecosystem.html").select_one(".atlas-eco-note").get_text(" ")
    assert "declared, no upper bound" in note and "not what anyone tested" in note


def test_the_api_and_the_page_agree(real_site: Build) -> None:
    document = json.loads((real_site.site / "api" / "v1" / "ecosystem.json").read_text())
    grid = read_table(real_site.html("compare/ecosystem.html").select("article table")[0])
    for name, releases in document["packages"].items():
        for minor in document["minors"]:
            allowing = [
                r["version"]
                for r in releases
                if r["allows"]
                and minor in r["allows"]
                and r["torch_requirement"]
                and not r["yanked"]
                and not re.search(r"(a|b|rc|dev)[0-9]", r["version"])
            ]
            cell = grid.cell(name, minor)
            if not allowing:
                assert cell == "none", (name, minor)
            elif len(allowing) == 1:
                assert cell.split(" · ")[0] == allowing[0], (name, minor)
            else:
                lines = cell.split("\n")
                assert lines[0].split(" · ")[0] == f"first {allowing[0]}", (name, minor)
                assert lines[1].split(" · ")[0] == f"newest {allowing[-1]}", (name, minor)
