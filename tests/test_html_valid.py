"""Every built page is valid HTML by the Nu HTML Checker (vnu.jar from npm, on Debian's Java).

The real site and its offline flavour are both checked; any error fails, listed as file:line:
message. `make test` installs Java and `npm ci` puts vnu.jar in tests/browser/node_modules.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT, Build

VNU = ROOT / "tests" / "browser" / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"


def nu_errors(site: Path) -> list[str]:
    java = shutil.which("java")
    if java is None or not VNU.exists():
        pytest.fail("the Nu checker needs Java and vnu.jar: run `make test` (it installs both)")
    result = subprocess.run(
        [java, "-jar", str(VNU), "--errors-only", "--format", "json", "--skip-non-html", str(site)],
        capture_output=True,
        text=True,
        check=False,
    )
    messages = json.loads(result.stderr or result.stdout or '{"messages": []}')["messages"]
    return [
        f"{m.get('url', '').split(str(site))[-1]}:{m.get('lastLine', '?')}: {m['message']}"
        for m in messages
        if m.get("type") in {"error", "non-document-error"}
    ]


def test_every_page_of_the_site_is_valid_html(real_site: Build) -> None:
    pages = list(real_site.site.rglob("*.html"))
    assert len(pages) > 30
    errors = nu_errors(real_site.site)
    assert errors == [], "\n".join(errors[:40])


def test_every_page_of_the_offline_flavour_is_valid_html(offline_build: Build) -> None:
    errors = nu_errors(offline_build.site)
    assert errors == [], "\n".join(errors[:40])


def shim_scripts(site: Build) -> list[str]:
    return [s["src"] for s in site.html("index.html").find_all("script", src=True) if "iframe-worker" in s["src"]]


def test_only_the_offline_flavour_loads_the_file_search_shim(real_site: Build, offline_build: Build) -> None:
    # The shim lets search run from file://; on served pages it only blocked rendering.
    assert shim_scripts(real_site) == []
    assert [src.rsplit("/", 1)[-1] for src in shim_scripts(offline_build)] == ["shim.js"]
