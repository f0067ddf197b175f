"""The JavaScript unit tests (`node --test tests/js/`), run as part of the pytest suite.

The environment doctor's parser (docs/assets/atlas-env.js) is tested by Node's built-in test
runner on a corpus of real collect_env outputs; this test runs it and fails when any Node test
fails, printing Node's report. Node is part of what `make test` installs (`make system`).
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from conftest import ROOT

JS_TESTS = ROOT / "tests" / "js"


def test_node_unit_tests_pass() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is missing: `make system` installs it (Debian's nodejs, with npm)")
    run = subprocess.run(
        [node, "--test", str(JS_TESTS)], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout
