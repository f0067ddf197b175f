"""Which wheel runs which GPU, and the warning filters of the guides, as readers and tools meet them.

Expected answers come from the data's compute-capability lists and NVIDIA's rule, spelled out here
independently of query/gpu.py; the filters are run for real, by Python and by pytest.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import ROOT, Build
from tablekit import read_table

from macros.dataset.model import CudaBuild
from macros.query.catalog import Catalog, open_catalog
from macros.query.deprecation_filters import deprecation_filters
from macros.query.gpu import gpu_support, known_gpus, runs_on
from macros.query.guide import Entry, live_deprecations, upgrade_guide
from macros.query.install import cuda_tag


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return open_catalog(ROOT / "data")


def _key(cc: str) -> tuple[int, int]:
    major, minor = cc.split(".")
    return int(major), int(minor)


def expected_runs(build: CudaBuild, gpu: str) -> bool:
    """NVIDIA: machine code for X.y runs on X.z with z >= y; PTX for c runs on any GPU >= c."""
    same_major = any(_key(cc)[0] == _key(gpu)[0] and _key(cc) <= _key(gpu) for cc in build.compute_capabilities)
    return same_major or any(_key(cc) <= _key(gpu) for cc in build.ptx or [])


def test_the_rule_on_made_up_builds() -> None:
    build = CudaBuild(version="13.0", compute_capabilities=["7.5", "8.0", "8.6", "12.0"], ptx=["12.0"])
    assert runs_on(build, "8.9").text == "yes (sm_86)"  # Ada runs Ampere's sm_86 code
    assert runs_on(build, "8.9").via == "sm_86 code"
    assert runs_on(build, "12.1").text == "yes (sm_120)"
    assert runs_on(build, "13.0").text == "yes (PTX sm_120)"  # a future GPU: only through PTX
    assert runs_on(build, "13.0").via == "PTX for sm_120"
    assert runs_on(build, "7.0").text == "no"  # Volta: no 7.x code at or below 7.0
    assert runs_on(build, "9.0").text == "no"  # no 9.x code, and the PTX is for a later GPU
    assert runs_on(CudaBuild(version="12.6", compute_capabilities=["9.0"]), "10.0").text == "no"


def test_every_release_page_gpu_table_matches_the_data(real_site: Build, catalog: Catalog) -> None:
    for release in catalog.releases:
        page = real_site.html(f"releases/{release.version}.html")
        grid = read_table(page.find(id="gpus").find_next("table"))
        builds = release.platform.cuda.stable + release.platform.cuda.experimental
        assert grid.headings == ["GPU (compute capability)", *(cuda_tag(b.version) for b in builds)]
        assert len(grid.row_headings()) == len(known_gpus(catalog.gpus))
        for heading, gpu in zip(grid.row_headings(), known_gpus(catalog.gpus), strict=True):
            assert heading.startswith(f"{gpu.family} {gpu.capability} "), heading
            for build in builds:
                cell = grid.cell(heading, cuda_tag(build.version))
                assert (cell != "no") == expected_runs(build, gpu.capability), (release.version, heading, cell)
    # The question from pytorch/pytorch#182250: a V100 on 2.11.
    grid = read_table(real_site.html("releases/2.11.html").find(id="gpus").find_next("table"))
    volta = next(h for h in grid.row_headings() if h.startswith("Volta 7.0"))
    assert [grid.cell(volta, v) for v in ("cu126", "cu128", "cu130")] == ["yes (sm_70)", "no", "no"]


def test_guide_gpu_cells_carry_the_answer_the_script_reads(real_site: Build, catalog: Catalog) -> None:
    page = real_site.html("upgrade/2.9-to-2.12.html")
    support = gpu_support(catalog.release("2.12"), known_gpus(catalog.gpus))
    rows = page.select(".atlas-gpus tbody tr")
    assert [row["data-gpu"] for row in rows] == [gpu.capability for gpu in known_gpus(catalog.gpus)]
    for row in rows:
        for cell in row.select("td"):
            runs = support.runs(cell["data-variant"], row["data-gpu"])
            assert cell["data-runs"] == ("yes" if runs.ok else "no")
            assert cell.get_text() == runs.text
            assert cell.get("data-via") == (runs.via if runs.ok else None)


def test_releases_api_publishes_the_compute_capabilities(real_site: Build, catalog: Catalog) -> None:
    document = json.loads((real_site.site / "api/v1/releases/2.13.json").read_text())
    builds = document["release"]["platform"]["cuda"]["stable"]
    assert [(b["version"], b["compute_capabilities"], b["ptx"]) for b in builds] == [
        ("12.6", ["5.0", "6.0", "7.0", "7.5", "8.0", "8.6", "9.0"], []),
        ("13.0", ["7.5", "8.0", "8.6", "9.0", "10.0", "12.0"], ["12.0"]),
    ]


def test_guide_lists_each_live_deprecation_once_and_filters_every_recorded_warning(
    real_site: Build, catalog: Catalog
) -> None:
    guide = upgrade_guide(catalog, "2.9", "2.12")
    live = live_deprecations(catalog, guide)
    # In force at 2.9 (made in 2.8, still not removed) and made later: both warn somewhere in the range.
    assert {"ao-quantization-deprecated", "torchscript-deprecated"} <= {e.item.id for e in live}
    assert "export-for-training-deprecated" in {e.item.id for e in live}  # removed in 2.11: warns on 2.9
    section = real_site.html("upgrade/2.9-to-2.12.html").find(id="deprecations-as-errors")
    blocks = [block.get_text() for block in section.find_all_next("pre", limit=2)]
    filters = deprecation_filters(live)
    assert blocks[0].strip().splitlines()[2:] == [f"    {line}" for line in filters.pytest_lines]
    assert blocks[1].strip() == f"python {filters.python_options} your_script.py"


def _all_warnings(catalog: Catalog):
    return [(item, w) for release in catalog.releases for item in release.items for w in item.warnings]


def test_python_w_options_turn_each_recorded_warning_into_an_error(catalog: Catalog, tmp_path: Path) -> None:
    pairs = _all_warnings(catalog)
    assert len(pairs) >= 15
    entries = [Entry(release, item) for release in catalog.releases for item in release.items]
    filters = deprecation_filters(entries)
    for item, warning in pairs:
        # The warning as torch emits it: the recorded start, then more text.
        script = tmp_path / "warns.py"
        script.write_text(
            f"import warnings\nwarnings.warn({warning.message + ' (and the rest of the message)'!r}, "
            f"{warning.category})\nprint('survived')\n"
        )
        shell = f"{sys.executable} {filters.python_options} {script}"
        result = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, check=False)
        assert result.returncode == 1 and warning.category in result.stderr, (item.id, result.stderr[-300:])
        assert "survived" not in result.stdout
    other = tmp_path / "other.py"
    other.write_text("import warnings\nwarnings.warn('an unrelated message', DeprecationWarning)\nprint('survived')\n")
    result = subprocess.run(
        ["bash", "-c", f"{sys.executable} {filters.python_options} {other}"], capture_output=True, text=True
    )
    assert result.returncode == 0 and "survived" in result.stdout


def test_pytest_filter_lines_fail_a_test_that_warns(catalog: Catalog, tmp_path: Path) -> None:
    guide = upgrade_guide(catalog, "2.9", "2.12")
    filters = deprecation_filters(live_deprecations(catalog, guide))
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\nfilterwarnings =\n" + textwrap.indent("\n".join(filters.pytest_lines), "    ") + "\n"
    )
    tests = []
    for index, warning in enumerate(filters.warnings):
        message = warning.message + " and more"
        tests.append(f"def test_{index}():\n    warnings.warn({message!r}, {warning.category})\n")
    tests.append("def test_unrelated():\n    warnings.warn('something else', DeprecationWarning)\n")
    (tmp_path / "test_warns.py").write_text("import warnings\n\n" + "\n".join(tests))
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    summary = result.stdout.strip().splitlines()[-1]
    assert summary.startswith(f"{len(filters.warnings)} failed, 1 passed"), result.stdout[-2000:]


def test_coverage_counts_felt_changes_from_outside_the_breaking_and_deprecation_sections(catalog: Catalog) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "macros", "coverage"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    lines = result.stdout.splitlines()
    header = lines[0].split("  ")
    header = [cell.strip() for cell in header if cell.strip()]
    column = header.index("felt elsewhere")
    for release, line in zip(catalog.releases, lines[1 : 1 + len(catalog.releases)], strict=True):
        cells = line.split()
        felt = [i for i in release.items if i.effect and i.kind not in {"breaking", "deprecation", "removal"}]
        assert cells[0] == release.version and int(cells[column]) == len(felt), line
    # Releases whose whole notes were read and decided in a ledger, with nothing left unread.
    complete = {r.version for r in catalog.releases if r.version in catalog.ledgers and not r.limits}
    assert len(complete) >= 6
    for line in lines[1 : 1 + len(catalog.releases)]:
        if line.split()[0] in complete:
            assert int(line.split()[column]) >= 10, line
