"""Comparison tables and pictures: derived from the data, with change markers and item links."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import FIXTURE_DATA, ROOT, Build

from macros.query import tables as compare
from macros.query.catalog import Catalog, open_catalog
from macros.query.site import target
from macros.render.charts import cadence_chart, lifecycle_chart


@pytest.fixture(scope="module")
def fixture() -> Catalog:
    return open_catalog(FIXTURE_DATA)


def row(table: compare.Table, label: str) -> compare.Row:
    return next(r for r in table.rows if r.label == label)


def test_platform_cells_mark_changes_and_unknowns(fixture: Catalog) -> None:
    table = compare.platforms_table(fixture)
    assert table.columns == ["9.2", "9.1", "9.0"]  # newest first: visible without scrolling sideways
    python = row(table, "Python")
    assert [c.changed for c in python.cells] == [True, True, False]  # each against the release before
    xpu = row(table, "Intel XPU")
    assert xpu.cells[-1].text == "wheels available" and xpu.cells[-1].unknown == "Not published."
    drops = row(table, "GPU architectures dropped")
    assert drops.cells[1].link == target("release", "volta-gone", version="9.1")


def test_lifecycle_table_spans_deprecation_to_removal(fixture: Catalog) -> None:
    table = compare.lifecycle_table(fixture)
    flag = row(table, "The old flag is deprecated")
    assert [c.text for c in flag.cells[1:3]] == ["9.0", "9.2"]
    assert flag.cells[2].link == target("release", "old-flag-removed", version="9.2")
    assert flag.cells[-1].text == "removed"
    assert len([r for r in table.rows if "old flag" in r.label.lower()]) == 1


def test_feature_status_follows_topics_across_releases(fixture: Catalog) -> None:
    table = compare.feature_status_table(fixture)
    widgets = row(table, "Widgets")
    assert [c.text for c in widgets.cells] == ["", "beta", "prototype"]
    assert [c.style for c in widgets.cells] == [None, "atlas-status-beta", "atlas-status-prototype"]


def test_release_facts_count_days_between_releases(fixture: Catalog) -> None:
    table = compare.release_facts_table(fixture)
    assert [r.cells[1].text for r in table.rows] == ["61", "59", ""]  # newest first
    assert row(table, "9.1").cells[2].text == "unknown"


def test_a_new_release_adds_a_column_without_code_changes(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    text = (data / "releases" / "9.2.yaml").read_text()
    text = text.replace('version: "9.2"', 'version: "9.3"').replace('date: "2030-05-10"', 'date: "2030-07-01"')
    text = (
        text.replace("id: old-flag-removed", "id: old-flag-removed-again")
        .replace("id: fast-path", "id: fast-path-2")
        .replace("id: legacy-io-removed", "id: legacy-io-removed-again")
    )
    (data / "releases" / "9.3.yaml").write_text(text)
    catalog = open_catalog(data)
    assert compare.platforms_table(catalog).columns[0] == "9.3"
    assert compare.companions_table(catalog).rows[0].label == "9.3"


def test_pictures_have_text_alternatives(fixture: Catalog) -> None:
    svg = lifecycle_chart(fixture, compare.lifecycle_table(fixture))
    assert svg.startswith("<svg") and "<title" in svg and "<desc" in svg and 'role="group"' in svg
    assert "The old flag is deprecated" in svg
    cadence = cadence_chart(fixture)
    assert "9.1, 2030-03-10: commits unknown" in cadence


def test_built_compare_pages(real_site: Build) -> None:
    for name in ("platforms", "companions", "lifecycle", "feature-status", "release-facts", "wheels"):
        soup = real_site.html(f"compare/{name}.html")
        assert soup.select_one(".atlas-table table") is not None, name
    platforms = real_site.html("compare/platforms.html")
    row_cells = next(tr.find_all("td") for tr in platforms.select("table tr") if "pip install torch" in tr.get_text())
    cells = [td.get_text(" ", strip=True) for td in row_cells]
    catalog = open_catalog(ROOT / "data")
    newest_first = list(reversed(catalog.releases))
    expected = []
    for release, older in zip(newest_first, [*newest_first[1:], None], strict=True):
        wheel = release.platform.cuda.default_wheel or "unknown"
        before = (older.platform.cuda.default_wheel or "unknown") if older else wheel
        expected.append(wheel + (" changed" if older and before != wheel else ""))
    assert cells[1:] == expected
    assert cells[1 + [r.version for r in newest_first].index("2.11")] == "13.0 changed"  # the move to CUDA 13
    rocm = next(tr for tr in platforms.select("table tr") if tr.find("td") and tr.td.get_text() == "ROCm")
    disputed = rocm.find_all("td")[1 + [r.version for r in newest_first].index("2.8")].find(
        "a", class_="atlas-disputed"
    )
    assert disputed["href"] == "../releases/2.8.html#dispute-rocm-version-2-8"
    lifecycle = real_site.html("compare/lifecycle.html")
    assert lifecycle.find("svg", class_="atlas-chart") is not None
    link = lifecycle.find("a", href="../releases/2.11.html#export-for-training-removed")
    assert link is not None and link.get_text() == "2.11"
    facts = real_site.html("compare/release-facts.html")
    assert facts.find("svg", class_="atlas-chart").find("title").get_text() == "Release cadence and size"
    features = real_site.html("compare/feature-status.html")
    assert "FlexAttention backends" in features.get_text()


def test_release_page_comparison_table_and_guide_share_one_list_of_platform_facts(fixture: Catalog) -> None:
    from macros.query.catalog import Citations
    from macros.query.guide import upgrade_guide
    from macros.query.platform import DROPS_LABEL, PLATFORM_FACTS
    from macros.render.release import platform_rows

    labels = [fact.label for fact in PLATFORM_FACTS] + [DROPS_LABEL]
    assert len(set(labels)) == len(labels)
    release = fixture.release("9.1")
    on_release_page = list(dict.fromkeys(r.label for r in platform_rows(release, Citations(fixture))))
    in_table = [r.label for r in compare.platforms_table(fixture).rows]
    in_guide = [r.label for r in upgrade_guide(fixture, "9.0", "9.2").delta][: len(labels)]
    assert on_release_page == in_table == labels
    assert in_guide == [*labels[:-1], f"{DROPS_LABEL} on the way"]


def test_free_text_in_platform_facts_reaches_no_view_as_markup(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    release = data / "releases" / "9.1.yaml"
    text = release.read_text(encoding="utf-8")
    # Markup is refused in data text outside code spans; inside them it must stay text.
    text = text.replace('support_package: "2030.1"', 'support_package: "`<img src=x onerror=alert(1)>`"')
    text = text.replace("architectures: Volta (sm70)", 'architectures: "`<b>Volta</b>` {x}"')
    release.write_text(text, encoding="utf-8")
    catalog = open_catalog(data)
    from macros.query.guide import upgrade_guide

    cells = [cell.text for row in compare.platforms_table(catalog).rows for cell in row.cells]
    delta = [text for row in upgrade_guide(catalog, "9.0", "9.1").delta for text in (row.before, row.after)]
    for text in cells + delta:
        assert "<img" not in text and "<b>" not in text, text
    assert "wheels available; support package <code>&lt;img src=x onerror=alert(1)&gt;</code>" in cells
    assert "<code>&lt;b&gt;Volta&lt;/b&gt;</code> &#123;x&#125; from cu128" in cells


def test_the_tables_show_nothing_of_the_fields_they_ignore() -> None:
    """`COMPARE_IGNORES` lets `mkdocs serve` keep the comparison pages when only those fields of a
    release change. Change them in every release of the real data: each page must stay the same."""
    from renderkit import with_fields_changed

    from macros.render.compare import COMPARE_IGNORES, PAGES, render_compare_page

    changes = {"summary": lambda release: release.summary + " Changed."}
    assert set(changes) == COMPARE_IGNORES, "give this test a change for every ignored field"
    before = open_catalog(ROOT / "data")
    after = with_fields_changed(before, changes)
    for spec in PAGES:
        assert render_compare_page(before, spec.name) == render_compare_page(after, spec.name), spec.name
