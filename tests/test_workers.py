"""`make test` splits the suite over the cores with pytest-xdist (`--dist loadgroup`): the tests
that share one costly fixture (`mkdocs serve`, the corpus pasted into the browser) carry the same
`xdist_group` mark so that one worker runs them all and sets the fixture up once. pytest 9.2
silently broke that (pytest-xdist#1386: the group was written into a node id pytest no longer
reads), and nothing failed; the suite only grew slower. This runs the installed pytest and
pytest-xdist on two grouped tests and a free one, as `make test` runs them: without the groups,
xdist hands the first two tests to the two workers.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

GROUPED = """
import os

import pytest

WORKER = os.environ["PYTEST_XDIST_WORKER"]


@pytest.mark.xdist_group("shared")
def test_first(tmp_path_factory):
    (tmp_path_factory.getbasetemp().parent / "first").write_text(WORKER)


@pytest.mark.xdist_group("shared")
def test_second(tmp_path_factory):
    (tmp_path_factory.getbasetemp().parent / "second").write_text(WORKER)


def test_free():
    pass
"""


def test_tests_of_one_xdist_group_run_on_one_worker(tmp_path: Path) -> None:
    (tmp_path / "test_grouped.py").write_text(GROUPED, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    temp = tmp_path / "temp"
    command = ["-m", "pytest", "-n", "2", "--dist", "loadgroup", "-p", "no:cacheprovider", "--basetemp", str(temp)]
    result = subprocess.run(
        [sys.executable, *command, "-q", "test_grouped.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")},
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 passed" in result.stdout, result.stdout
    first, second = (temp / "first").read_text(), (temp / "second").read_text()
    assert first == second, f"the grouped tests ran on {first} and {second}"
