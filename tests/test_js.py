"""The JavaScript unit tests (`node --test tests/js/`), run as part of the pytest suite.

The environment doctor's parser (docs/assets/atlas-env.js) is tested by Node's built-in test
runner on a corpus of real collect_env outputs; this test runs it and fails when any Node test
fails, printing Node's report. The GPU and driver answers are checked against the facts the
build writes into the pages (query/env_facts.py on the real data/), passed as ATLAS_FACTS.
Node is part of what `make test` installs (`make system`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT

from macros.query.catalog import Catalog, open_catalog
from macros.query.collect_env import machine_of, parse_collect_env
from macros.query.env_facts import env_facts_json
from macros.query.planner import plan, plan_tables
from macros.render.doctor import sentences

JS_TESTS = ROOT / "tests" / "js"
CORPUS = JS_TESTS / "corpus"


def older_targets(catalog: Catalog) -> list[str]:
    """The oldest and the middle release: targets older than most corpus machines' newest."""
    versions = [release.version for release in catalog.releases]
    return [versions[0], versions[len(versions) // 2]]


def python_answers(catalog: Catalog, tables: dict[str, Any]) -> dict[str, Any]:
    """For each corpus output, what `python -m macros doctor --to <newest>` reads and answers:
    tests/js/plan.test.js requires the page's script to give the same."""
    cases = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))["cases"]
    last = catalog.releases[-1].version
    answers = {}
    for name in cases:
        reading = parse_collect_env((CORPUS / f"{name}.txt").read_text(encoding="utf-8"))
        if not reading.os:
            answers[name] = {"machine": None, "plan": None, "sentences": [], "older": []}
            continue
        machine = machine_of(reading, catalog.gpus)
        answer = plan(machine, tables)
        answers[name] = {
            "machine": {
                "os": machine.os,
                "arch": machine.arch,
                "python": machine.python,
                "accelerator": machine.accelerator,
                "capabilities": list(machine.capabilities),
                "gpuUnknown": machine.gpu_unknown,
                "driver": machine.driver,
                "osVersion": machine.os_version,
                "amdGpu": machine.amd_gpu,
                "gpuUnread": machine.gpu_unread,
            },
            "plan": answer.as_json(),
            "sentences": sentences(answer, machine, tables, to=last, torch=reading.torch_full, build=reading.build),
            # An older B (the oldest and the middle release), which the plan alone does not answer.
            "older": [
                sentences(answer, machine, tables, to=older, torch=reading.torch_full, build=reading.build)
                for older in older_targets(catalog)
            ],
        }
    return answers


def test_node_unit_tests_pass(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is missing: `make system` installs it (Debian's nodejs, with npm)")
    catalog = open_catalog(ROOT / "data")
    facts = tmp_path / "facts.json"
    facts.write_text(env_facts_json(catalog), encoding="utf-8")
    tables = plan_tables(catalog)
    (tmp_path / "plan.json").write_text(json.dumps(tables), encoding="utf-8")
    (tmp_path / "python.json").write_text(json.dumps(python_answers(catalog, tables)), encoding="utf-8")
    run = subprocess.run(
        [node, "--test", str(JS_TESTS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={
            **os.environ,
            "ATLAS_FACTS": str(facts),
            "ATLAS_PLAN": str(tmp_path / "plan.json"),
            "ATLAS_PLAN_PYTHON": str(tmp_path / "python.json"),
        },
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout and "# skipped 0" in run.stdout
