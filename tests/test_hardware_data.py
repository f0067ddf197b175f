"""data/gpus.yaml and data/drivers.yaml: loaded through the dataset layer, checked with
file:line errors, and the only place the GPU tables' rows and the environment doctor's facts
come from."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import ROOT

from macros.dataset.problems import DataError
from macros.query.catalog import open_catalog
from macros.query.env_facts import env_facts, env_facts_json
from macros.query.gpu import known_gpus


def real_copy(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data, ignore=shutil.ignore_patterns("schema"))
    return data


def problems_of(data: Path) -> list[str]:
    with pytest.raises(DataError) as caught:
        open_catalog(data)
    return [str(problem) for problem in caught.value.problems]


def test_gpu_table_rows_come_from_the_data_file() -> None:
    catalog = open_catalog(ROOT / "data")
    rows = known_gpus(catalog.gpus)
    x86 = {m.capability for m in catalog.gpus.models if not m.arm}
    assert [row.capability for row in rows] == sorted(x86, key=lambda c: tuple(map(int, c.split("."))))
    for row in rows:
        assert row.family == next(m.family for m in catalog.gpus.models if m.capability == row.capability)


def test_facts_block_carries_every_model_and_driver_and_cannot_close_its_script() -> None:
    catalog = open_catalog(ROOT / "data")
    facts = json.loads(env_facts_json(catalog))
    assert [row[0] for row in facts["gpus"]] == [m.name for m in catalog.gpus.models]
    assert set(facts["drivers"]) == {b.cuda for b in catalog.drivers.builds}
    assert facts["releases"] == [r.version for r in catalog.releases]
    assert "</" not in env_facts_json(catalog)
    assert env_facts(catalog)["intelMacLast"] in facts["releases"]


def test_duplicate_gpu_and_unknown_source_are_reported_with_file_and_line(tmp_path: Path) -> None:
    data = real_copy(tmp_path)
    gpus = data / "gpus.yaml"
    text = gpus.read_text(encoding="utf-8")
    text = text.replace("sources: [aitemplate-a10g]", "sources: [no-such-source]")
    text += '  - name: "quadro  rtx 5000"\n    capability: "12.0"\n    family: "Blackwell"\n'
    text += "    segment: workstation\n    sources: [nvidia-cuda-gpus]\n"
    gpus.write_text(text, encoding="utf-8")
    found = problems_of(data)
    assert any(re.search(r"gpus\.yaml:\d+:\d+: ", p) and "unknown source id 'no-such-source'" in p for p in found), (
        found
    )
    assert any("models[" in p and "'quadro  rtx 5000' is already listed" in p for p in found), found


def test_a_cuda_build_without_a_driver_row_is_reported_at_the_release(tmp_path: Path) -> None:
    data = real_copy(tmp_path)
    drivers = data / "drivers.yaml"
    text = drivers.read_text(encoding="utf-8")
    start = text.index('  - cuda: "12.9"')
    end = text.index('  - cuda: "13.0"')
    drivers.write_text(text[:start] + text[end:], encoding="utf-8")
    found = problems_of(data)
    assert any(
        re.search(r"releases/2\.\d+\.yaml:\d+:\d+: platform\.cuda\.", p)
        and "CUDA 12.9 has no minimum NVIDIA driver in data/drivers.yaml" in p
        for p in found
    ), found


def test_a_bad_capability_names_the_field(tmp_path: Path) -> None:
    data = real_copy(tmp_path)
    gpus = data / "gpus.yaml"
    gpus.write_text(gpus.read_text(encoding="utf-8").replace('capability: "12.1"', 'capability: "sm_121"'), "utf-8")
    found = problems_of(data)
    assert any(re.search(r"gpus\.yaml:\d+:\d+: ", p) and "models[0].capability" in p for p in found), found
