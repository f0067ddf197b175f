"""ESLint on the site's scripts (docs/assets/atlas.js, atlas-env.js, atlas-planner.js) and their Node tests.

ESLint is pinned in tests/browser/package-lock.json (`make test` runs `npm ci` there); its config,
tests/browser/eslint.config.mjs, picks the rules that catch bugs (undefined names, globals leaked
by a missing `var`, `==`, unused variables). The first test fails with ESLint's report; the
second shows the config really reaches atlas.js (a planted bug is reported), so a config that
matches no file cannot pass silently.
"""

from __future__ import annotations

import subprocess

import pytest
from conftest import ROOT

BROWSER = ROOT / "tests" / "browser"
ESLINT = BROWSER / "node_modules" / ".bin" / "eslint"
CONFIG = BROWSER / "eslint.config.mjs"
LINTED = ["docs/assets/atlas.js", "docs/assets/atlas-env.js", "docs/assets/atlas-planner.js", "tests/js/"]


def eslint(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    if not ESLINT.exists():
        pytest.fail("ESLint is missing: `npm ci --prefix tests/browser` (part of `make test`) installs it")
    return subprocess.run(
        [str(ESLINT), "--config", str(CONFIG), *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_scripts_pass_eslint() -> None:
    run = eslint("--max-warnings", "0", *LINTED)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]


def test_eslint_reports_a_planted_bug_in_atlas_js() -> None:
    source = (ROOT / "docs" / "assets" / "atlas.js").read_text(encoding="utf-8")
    planted = source + "\nif (typo == 1) leaked = 2;\n"
    run = eslint("--stdin", "--stdin-filename", "docs/assets/atlas.js", stdin=planted)
    assert run.returncode == 1, run.stdout + run.stderr
    for rule in ("no-undef", "eqeqeq", "no-implicit-globals"):
        assert rule in run.stdout, run.stdout


def test_vendored_files_are_not_linted() -> None:
    run = eslint("docs/assets/vendor/iframe-worker/shim.js")
    assert "File ignored because of a matching ignore pattern" in run.stdout, run.stdout + run.stderr
