"""The JavaScript unit tests (`node --test tests/js/`), run as part of the pytest suite.

The environment doctor's parser (docs/assets/atlas-env.js) is tested by Node's built-in test
runner on a corpus of real collect_env outputs; this test runs it and fails when any Node test
fails, printing Node's report. The GPU and driver answers are checked against the facts the
build writes into the pages (query/env_facts.py on the real data/), passed as ATLAS_FACTS.
Node is part of what `make test` installs (`make system`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT

from macros.query.catalog import open_catalog
from macros.query.env_facts import env_facts_json

JS_TESTS = ROOT / "tests" / "js"


def test_node_unit_tests_pass(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is missing: `make system` installs it (Debian's nodejs, with npm)")
    facts = tmp_path / "facts.json"
    facts.write_text(env_facts_json(open_catalog(ROOT / "data")), encoding="utf-8")
    run = subprocess.run(
        [node, "--test", str(JS_TESTS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "ATLAS_FACTS": str(facts)},
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout and "# skipped 0" in run.stdout
