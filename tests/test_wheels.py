"""Wheels as they are: the package index snapshot, its refresh, its checks and its page.

`make index` is tested against recorded PEP 691 responses (tests/fixtures/pypi, made-up versions),
never the network; the checks on that snapshot must report a disagreement with its position; the
real snapshot must agree with the real data; the page reads right against the snapshot.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURE_DATA, ROOT, Build
from tablekit import read_table

from macros.dataset import wheels
from macros.dataset.problems import DataError
from macros.query.catalog import open_catalog
from macros.tools.pypi_index import ACCEPT, INDEX, refresh

RECORDED = ROOT / "tests" / "fixtures" / "pypi"


def recorded(url: str, accept: str) -> bytes:
    assert accept == ACCEPT and url.startswith(INDEX)
    return (RECORDED / f"{url.removeprefix(INDEX).strip('/')}.json").read_bytes()


@pytest.fixture()
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(FIXTURE_DATA, tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "data"


def test_refresh_keeps_every_torch_from_2_0_and_the_companions_the_data_names(data: Path) -> None:
    target = refresh(open_catalog(data), data, "2030-06-01", fetch=recorded)
    snapshot = json.loads(target.read_text())
    assert snapshot["fetched"] == "2030-06-01" and snapshot["source"] == INDEX
    torch = [entry["file"] for entry in snapshot["packages"]["torch"]]
    assert torch == sorted(torch) and all(name.endswith(".whl") for name in torch)
    # Every torch from 2.0 on, in the data or not (so a new release is noticed); nothing older.
    assert [name for name in torch if name.startswith("torch-8.9.0")] == ["torch-8.9.0-cp310-cp310-win_amd64.whl"]
    assert not [name for name in torch if name.startswith("torch-1.")]
    assert "torch-9.1.0-2-cp313-cp313-manylinux_2_28_x86_64.whl" in torch  # re-upload kept
    entry = next(e for e in snapshot["packages"]["torch"] if e["file"].startswith("torch-9.1.0-cp312-none-macosx"))
    assert entry == {"file": entry["file"], "uploaded": "2030-01-15T10:00:00Z", "size": 1000, "yanked": True}
    assert target.read_text().count("\n") > len(torch)  # one wheel per line


def test_a_failed_fetch_writes_nothing(data: Path) -> None:
    def broken(url: str, accept: str) -> bytes:
        if "torchcodec" in url:
            raise OSError("network unreachable")
        return recorded(url, accept)

    with pytest.raises(OSError):
        refresh(open_catalog(data), data, "2030-06-01", fetch=broken)
    assert not (data / "pypi.json").exists()


def test_checks_report_a_disagreement_with_its_position(data: Path) -> None:
    refresh(open_catalog(data), data, "2030-06-01", fetch=recorded)
    with pytest.raises(DataError) as raised:
        open_catalog(data)
    lines = raised.value.report().splitlines()[1:]
    assert lines == [
        "data/releases/9.1.yaml:14:30: platform.python.max: PyPI (snapshot of 2030-06-01, data/pypi.json) has "
        "torch 9.1.0 wheels for Python 3.10 to 3.14; the data says max 3.13 (fix it, or record a dispute on "
        "platform.python)"
    ]


def test_a_dispute_on_the_field_explains_the_disagreement(data: Path) -> None:
    refresh(open_catalog(data), data, "2030-06-01", fetch=recorded)
    release = data / "releases" / "9.1.yaml"
    text = release.read_text(encoding="utf-8").replace(
        "disputes:\n",
        "disputes:\n  - id: dispute-python-9-1\n    fields: [platform.python]\n    claim: PyPI has 3.14 wheels.\n"
        "    claimed_by: [notes]\n    verdict: unresolved\n    resolution: The notes stop at 3.13.\n"
        "    sources: [notes]\n",
    )
    release.write_text(text, encoding="utf-8")
    assert open_catalog(data).pypi is not None


def test_the_real_data_agrees_with_the_committed_snapshot() -> None:
    catalog = open_catalog(ROOT / "data")  # raises DataError on any disagreement
    assert catalog.pypi is not None
    for release in catalog.releases:
        assert wheels.of_version(wheels.wheels(catalog.pypi, "torch"), f"{release.version}.0"), release.version


def test_wheels_page_reads_right_against_the_snapshot(real_site: Build) -> None:
    catalog = open_catalog(ROOT / "data")
    assert catalog.pypi is not None
    page = real_site.html("compare/wheels.html")
    grid = read_table(page.select("article table")[0])
    assert grid.headings == [
        "torch, Python",
        "Linux x86_64",
        "Linux aarch64",
        "macOS arm64",
        "macOS x86_64",
        "Windows amd64",
        "First upload",
    ]
    torch = wheels.wheels(catalog.pypi, "torch")
    checked = 0
    for release in catalog.releases:
        found = wheels.of_version(torch, f"{release.version}.0")
        for python in wheels.pythons(found):
            label = f"{release.version}.0, Python {python}"
            for platform in grid.headings[1:6]:
                has = any(python in w.pythons and platform in w.platforms and not w.file.yanked for w in found)
                assert grid.cell(label, platform).startswith("yes" if has else "no"), (label, platform)
                checked += 1
    assert checked > 100
    assert grid.cell("2.10.0, Python 3.10", "Linux x86_64") == "yes (re-uploaded 2026-03-11)"
    assert grid.cell("2.13.0, Python 3.14t", "Windows amd64") == "yes"
    note = page.select_one(".atlas-wheels-note").get_text(" ", strip=True)
    assert f"taken on {catalog.pypi.fetched}" in note and "download.pytorch.org" in note


def test_a_newer_minor_on_pypi_fails_the_check_naming_it(data: Path) -> None:
    """The data falls behind PyPI: `make check` and every build fail, naming the release, its first
    upload and what is missing; a patch of a covered release is no problem."""
    refresh(open_catalog(data), data, "2030-06-01", fetch=recorded)
    snapshot = json.loads((data / "pypi.json").read_text())
    newer = [
        {"file": "torch-9.2.1-cp312-cp312-manylinux_2_28_x86_64.whl", "uploaded": "2030-03-01T00:00:00Z", "size": 1},
        {"file": "torch-9.3.0-cp312-cp312-manylinux_2_28_x86_64.whl", "uploaded": "2030-05-02T09:00:00Z", "size": 1},
        {"file": "torch-9.3.0-cp313-cp313-win_amd64.whl", "uploaded": "2030-05-01T10:00:00Z", "size": 1},
    ]
    snapshot["packages"]["torch"] += [{**entry, "yanked": False} for entry in newer]
    (data / "pypi.json").write_text(json.dumps(snapshot, indent=1))
    with pytest.raises(DataError) as raised:
        open_catalog(data)
    behind = [line for line in raised.value.report().splitlines() if "on PyPI since" in line]
    assert len(behind) == 1
    assert behind[0].startswith("data/pypi.json:")
    assert behind[0].endswith("torch 9.3.0 is on PyPI since 2030-05-01 but data/releases has no 9.3")


def test_the_real_snapshot_holds_every_torch_minor_up_to_the_newest_release() -> None:
    catalog = open_catalog(ROOT / "data")
    assert catalog.pypi is not None
    torch = wheels.wheels(catalog.pypi, "torch")
    newest = wheels.newest(torch)
    assert newest is not None
    assert wheels.release_key(newest[0])[:2] == catalog.latest.key  # type: ignore[index]


def test_index_refreshes_a_snapshot_the_data_has_moved_past(data: Path) -> None:
    """A new release names a companion the old snapshot lacks: `make check` fails on it, and
    `make index` must still run (it reads the data without the snapshot), or nobody could fix it."""
    refresh(open_catalog(data), data, "2030-06-01", fetch=recorded)
    release = data / "releases" / "9.0.yaml"
    text = release.read_text(encoding="utf-8")
    release.write_text(text.replace('{name: torchvision, version: "1.0"', '{name: torchvision, version: "7.7"'))
    with pytest.raises(DataError, match=r"has no torchvision 7\.7 wheel"):
        open_catalog(data)
    refresh(open_catalog(data, with_pypi=False), data, "2030-06-02", fetch=recorded)
    assert json.loads((data / "pypi.json").read_text())["fetched"] == "2030-06-02"
