"""Every comparison table answers as a reader reads it: each value under the right heading.

Expected values come from the model (the release records), not from the code that renders the
tables; a few literal facts guard against both being wrong together.
"""

from __future__ import annotations

import pytest
from conftest import ROOT, Build
from tablekit import Grid, read_table

from macros.dataset.vocabulary import COMPANIONS as COMPANION_TERMS
from macros.query.catalog import Catalog, open_catalog

COMPANIONS = COMPANION_TERMS.values  # the order tables list them in


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return open_catalog(ROOT / "data")


def table_on(site: Build, page: str, index: int = 0) -> Grid:
    return read_table(site.html(page).select("article table")[index])


def test_companions_table_puts_each_version_under_its_library(real_site: Build, catalog: Catalog) -> None:
    grid = table_on(real_site, "compare/companions.html")
    assert grid.headings == ["torch", *COMPANIONS, "Python"]
    assert grid.row_headings() == [r.version for r in reversed(catalog.releases)]
    for release in catalog.releases:
        for name in COMPANIONS:
            found = next((c for c in release.companions if c.name == name), None)
            expected = "not recorded" if found is None else (found.version or "no release")
            assert grid.cell(release.version, name).split("\n")[0] == expected, (release.version, name)
        python = release.platform.python
        assert grid.cell(release.version, "Python") == f"{python.min} to {python.max}"
    # Literal facts from the sources: the question a user asked, and its neighbours.
    assert grid.cell("2.11", "torchvision") == "0.26"
    assert grid.cell("2.8", "torchvision").startswith("0.23")


def test_platforms_table_puts_each_fact_under_its_release(real_site: Build, catalog: Catalog) -> None:
    grid = table_on(real_site, "compare/platforms.html")
    assert grid.headings == ["Platform", *(r.version for r in reversed(catalog.releases))]  # newest first
    for release in catalog.releases:
        p = release.platform
        assert grid.cell("Python", release.version) == f"{p.python.min} to {p.python.max}"
        stable = grid.cell("CUDA (stable)", release.version).split("\n")
        assert [line.split(" ")[0] for line in stable] == [build.version for build in p.cuda.stable]
        assert grid.cell("ROCm", release.version) == (", ".join(p.rocm.stable) if p.rocm.stable else "unknown")
        xpu = grid.cell("Intel XPU", release.version)
        assert (xpu == "unknown") == (p.xpu.wheels is None), release.version
        wheel = grid.cell("CUDA of pip install torch", release.version)
        assert wheel == (p.cuda.default_wheel or "unknown")
    assert grid.cell("Python", "2.8") == "3.9 to 3.13"
    # A fact no source gives is "unknown" with its reason, never a guess (2.15: no notes, no matrix).
    unknown_rocm = [r for r in catalog.releases if r.platform.rocm.stable is None]
    assert unknown_rocm, "no release leaves ROCm unknown: the assertion above proved nothing about it"
    for release in unknown_rocm:
        page = real_site.html("compare/platforms.html")
        row = next(tr for tr in page.select("article table tr") if tr.td and tr.td.get_text(strip=True) == "ROCm")
        reasons = " ".join(note.get_text(" ", strip=True) for note in row.select(".atlas-unknown"))
        assert release.platform.rocm.unknown["stable"].rstrip(".") in reasons
    assert grid.cell("CUDA of pip install torch", "2.11") == "13.0"


def test_release_facts_and_release_page_platform_tables_match_the_model(real_site: Build, catalog: Catalog) -> None:
    facts = table_on(real_site, "compare/release-facts.html")
    assert facts.headings[:3] == ["Release", "Released", "Days since previous"]
    for release in catalog.releases:
        assert facts.cell(release.version, "Released") == release.date
        commits = release.stats.commits
        assert facts.cell(release.version, "Commits") == (f"{commits:,}" if commits else "unknown")
        page = real_site.html(f"releases/{release.version}.html")
        platform = read_table(page.find(id="platform-support").find_next("table"))
        assert platform.headings == ["Platform", f"PyTorch {release.version}", "Sources"]
        python = release.platform.python
        assert platform.cell("Python", f"PyTorch {release.version}") == f"{python.min} to {python.max}"


def test_guide_platform_delta_reads_before_and_after_from_the_model(real_site: Build, catalog: Catalog) -> None:
    """The facts that change are one table (before, after); those that stay are folded apart."""
    from macros.dataset.text import plain_text
    from macros.query.guide import upgrade_guide

    start, end = catalog.release("2.9"), catalog.release("2.12")
    delta_rows = upgrade_guide(catalog, "2.9", "2.12").delta
    page = real_site.html("upgrade/2.9-to-2.12.html")
    changed_table = page.find(id="platform-delta").find_next("table")
    changed = read_table(changed_table)
    assert changed.headings == ["Platform", "2.9", "2.12"]
    assert [row[0] for row in changed.rows] == [plain_text(r.label) for r in delta_rows if r.changed]
    same = read_table(changed_table.find_next("table"))
    assert same.headings == ["Platform", "2.9 and 2.12"]
    assert [row[0] for row in same.rows] == [plain_text(r.label) for r in delta_rows if not r.changed]
    moved = (start.platform.python.min, start.platform.python.max) != (end.platform.python.min, end.platform.python.max)
    python = changed if moved else same
    for release in (start, end) if moved else (end,):
        column = release.version if moved else "2.9 and 2.12"
        assert python.cell("Python", column) == f"{release.platform.python.min} to {release.platform.python.max}"
    assert changed.cell("CUDA of pip install torch", "2.12") == "13.0"


def test_feature_status_puts_each_status_under_its_release(real_site: Build, catalog: Catalog) -> None:
    page = real_site.html("compare/feature-status.html")
    grid = read_table(page.select("article table")[0])
    assert grid.headings == ["Feature", *(r.version for r in reversed(catalog.releases))]
    checked = 0
    for topic in catalog.topics.values():
        per_release = {r.version: [i for i in r.items if i.topic == topic.id] for r in catalog.releases}
        if sum(1 for items in per_release.values() if items) < 2:
            continue
        label = " ".join(topic.title.replace("`", "").split())
        for version, items in per_release.items():
            text = grid.cell(label, version)
            if not items:
                assert text == "", (label, version)
                continue
            first = items[0]
            lifecycle = {"deprecation": "deprecated", "removal": "removed", "breaking": "changed"}
            expected = first.status or lifecycle.get(first.kind, "not labelled")
            assert text == expected + (f" (+{len(items) - 1})" if len(items) > 1 else ""), (label, version)
            checked += 1
    assert checked >= 10
    # Colour-coded, with the status still written out: each status cell carries its status's class.
    for cell in page.select("article table td .atlas-cell"):
        status = cell.get_text(strip=True).split(" (+")[0]
        if status in {"stable", "beta", "prototype"}:
            assert f"atlas-status-{status}" in cell["class"], cell


def test_tables_agree_with_the_json_api(real_site: Build) -> None:
    """A reader of the tables and a script reading `api/v1/` get the same numbers."""
    import json

    releases = json.loads((real_site.site / "api/v1/releases.json").read_text())
    versions = [entry["version"] for entry in releases]
    companions = table_on(real_site, "compare/companions.html")
    platforms = table_on(real_site, "compare/platforms.html")
    facts = table_on(real_site, "compare/release-facts.html")
    for version in versions:
        api = json.loads((real_site.site / f"api/v1/releases/{version}.json").read_text())["release"]
        for companion in api["companions"]:
            if companion["version"]:
                assert companions.cell(version, companion["name"]).split("\n")[0] == companion["version"]
        python = api["platform"]["python"]
        assert platforms.cell("Python", version) == f"{python['min']} to {python['max']}"
        assert platforms.cell("CUDA of pip install torch", version) == (
            api["platform"]["cuda"]["default_wheel"] or "unknown"
        )
        assert facts.cell(version, "Released") == api["date"]
        commits = api["stats"]["commits"]
        assert facts.cell(version, "Commits") == (f"{commits:,}" if commits else "unknown")


def _tag_floor(files: list[str], pattern: str) -> list[str]:
    """Independent of the code under test: the distinct lowest versions named by the tags that
    match `pattern` (groups: major, minor), as 'M.m', lowest first."""
    import re

    floors = set()
    for name in files:
        found = [(int(a), int(b)) for a, b in re.findall(pattern, name)]
        if found:
            floors.add(min(found))
    return [f"{a}.{b}" for a, b in sorted(floors)]


def test_platform_facts_read_from_the_wheel_tags(real_site: Build, catalog: Catalog) -> None:
    """The glibc and macOS rows of every release page say what PyPI's wheel tags for X.Y.0 say."""
    assert catalog.pypi is not None
    legacy = {"manylinux1": "2_5", "manylinux2010": "2_12", "manylinux2014": "2_17"}
    for release in catalog.releases:
        names = [
            f.file
            for f in catalog.pypi.packages["torch"]  # type: ignore[index]
            if f.file.startswith(f"torch-{release.version}.0-") and not f.yanked
        ]
        for old, new in legacy.items():
            names = [name.replace(f"{old}_", f"manylinux_{new}_") for name in names]
        page = real_site.html(f"releases/{release.version}.html")
        platform = read_table(page.find(id="platform-support").find_next("table"))
        column = f"PyTorch {release.version}"
        glibc = _tag_floor(names, r"manylinux_(\d+)_(\d+)_x86_64")
        said = platform.cell("glibc the Linux x86_64 wheel tags ask for (PyPI)", column)
        assert said.startswith(f"glibc {glibc[0]} or newer" if len(glibc) == 1 else f"glibc {glibc[0]} ("), release
        macos = platform.cell("macOS wheels (PyPI)", column)
        intel = _tag_floor(names, r"macosx_(\d+)_(\d+)_x86_64")
        assert ("Intel: no wheels" in macos) == (not intel), release.version
        arm = _tag_floor(names, r"macosx_(\d+)_(\d+)_arm64")
        assert macos.startswith(f"Apple silicon: macOS {arm[0]}"), release.version
