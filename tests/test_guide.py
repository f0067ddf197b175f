"""Upgrade guides: range semantics, grouping, platform delta and lifecycles (made-up data),
then a few guides checked against the real facts."""

from __future__ import annotations

import pytest
from conftest import FIXTURE_DATA, ROOT, Build

from macros.query.catalog import Catalog, open_catalog
from macros.query.guide import all_pairs, upgrade_guide


@pytest.fixture(scope="module")
def fixture() -> Catalog:
    return open_catalog(FIXTURE_DATA)


def ids(entries) -> list[str]:
    return [entry.item.id for entry in entries]


def test_range_excludes_the_start_release_and_includes_the_end(fixture: Catalog) -> None:
    guide = upgrade_guide(fixture, "9.0", "9.1")
    every = ids(guide.changes + guide.features)
    assert "python-3-9-gone" not in every  # a 9.0 change: the reader already has it
    assert "silent-sum" in every and "gadget-feature" in every
    assert [r.version for r in guide.crossed] == ["9.1"]


def test_silent_changes_come_first(fixture: Catalog) -> None:
    guide = upgrade_guide(fixture, "9.0", "9.2")
    assert ids(guide.breaking)[0] == "silent-sum"
    assert ids(guide.silent()) == ["silent-sum"]
    areas = [area for area, _ in guide.breaking_by_area()]
    assert areas == sorted(areas) and "tensor" not in areas  # silent ones are listed apart


def test_packaging_changes_go_before_you_upgrade(fixture: Catalog) -> None:
    guide = upgrade_guide(fixture, "9.0", "9.2")
    assert ids(guide.install) == ["volta-gone"]
    assert "volta-gone" not in ids(guide.breaking)


def test_deprecated_in_range_and_removed_later_is_to_plan_for(fixture: Catalog) -> None:
    guide = upgrade_guide(fixture, "9.0", "9.1")
    assert ids(guide.plan_for) == ["old-flag-deprecated", "legacy-io-deprecated"]


def test_deprecated_and_removed_within_the_range_appears_once_as_a_removal(fixture: Catalog) -> None:
    guide = upgrade_guide(fixture, "9.0", "9.2")
    assert "legacy-io-removed" in ids(guide.breaking)
    assert "legacy-io-deprecated" not in ids(guide.plan_for + guide.changes)
    assert ids(guide.completed_deprecations) == ["legacy-io-deprecated"]
    assert "old-flag-deprecated" not in ids(guide.plan_for)


def test_platform_delta_goes_from_a_to_b(fixture: Catalog) -> None:
    guide = upgrade_guide(fixture, "9.0", "9.2")
    rows = {row.label: row for row in guide.delta}
    assert (rows["Python"].before, rows["Python"].after, rows["Python"].changed) == (
        "3.10 to 3.12",
        "3.11 to 3.13",
        True,
    )
    assert rows["CUDA of `pip install torch`"].after == "13.0"
    assert "Volta (sm70) from cu128 (9.1)" in rows["GPU architectures dropped on the way"].after
    assert any("Python 3.10 is no longer supported" in note for note in guide.checks_first)


def test_downgrades_and_same_version_are_refused(fixture: Catalog) -> None:
    with pytest.raises(ValueError, match="older to a newer release"):
        upgrade_guide(fixture, "9.2", "9.0")
    with pytest.raises(ValueError):
        upgrade_guide(fixture, "9.1", "9.1")
    assert len(all_pairs(fixture)) == 3


@pytest.fixture(scope="module")
def real() -> Catalog:
    return open_catalog(ROOT / "data")


def test_2_8_to_2_12_has_the_changes_that_matter(real: Catalog) -> None:
    guide = upgrade_guide(real, "2.8", "2.12")
    changes = set(ids(guide.changes))
    for expected in [
        "python-3-9-dropped",
        "onnx-dynamo-default",
        "export-for-training-removed",
        "pypi-default-cuda-13",
        "cuda-12-8-wheels-removed",
        "volta-dropped-cu128",
        "mps-requires-macos-14",
    ]:
        assert expected in changes, expected
    assert "torchscript-deprecated" in ids(guide.plan_for)
    assert not any(e.release.version in {"2.8", "2.13"} for e in guide.changes + guide.features)


def test_real_data_yields_a_guide_for_every_pair(real: Catalog) -> None:
    count = len(real.releases)
    assert len(all_pairs(real)) == count * (count - 1) // 2


def test_built_guides_link_every_item_to_its_release_page(real_site: Build) -> None:
    pages = sorted((real_site.site / "upgrade").glob("*-to-*.html"))
    count = len(open_catalog(ROOT / "data").releases)
    assert len(pages) == count * (count - 1) // 2
    soup = real_site.html("upgrade/2.8-to-2.12.html")
    # Each change is a table row whose title link carries the item's permanent id and points to
    # the item on its release page; the row's box to tick is labelled by that link.
    link = soup.find(id="cuda-12-8-wheels-removed")
    assert link.name == "a" and link["href"] == "../releases/2.12.html#cuda-12-8-wheels-removed"
    row = link.find_parent("tr")
    box = row.find("input", type="checkbox")
    assert box["id"] == "todo-cuda-12-8-wheels-removed" and box["aria-labelledby"] == "cuda-12-8-wheels-removed"
    assert "cu130" in row.get_text()  # the action says which wheels to use instead
    boxes = soup.select("table input[type=checkbox]")
    assert all(soup.find(id=b["aria-labelledby"]).get_text().strip() for b in boxes)
    count = int(soup.find(id="checklist").find_next("p").get_text().split()[0])
    assert count == len(boxes) > 5
    assert soup.find(id="new-features").find_next("a", href="../releases/2.10.html#new-features") is not None
    highlights = soup.find(id="new-features").find_next("table")
    first = highlights.select("tbody tr")[0]
    assert first.a["href"] == "../releases/2.9.html#stable-libtorch-abi-updates" and "2.9" in first.get_text()
    completed = soup.find(id="deprecations-completed").find_next("ul")
    assert completed.find("a", href="#onnx-dynamo-default").find("code").get_text() == "torch.onnx.export"
    toc = {a["href"] for a in soup.select(".md-sidebar--secondary a")}
    assert "#cuda-12-8-wheels-removed" not in toc and "#breaking-changes" in toc
    assert "after 2.8, up to and including 2.12" in " ".join(soup.get_text(" ").split())
    # The change tables skip Markdown and are put back after it: no marker may be left behind.
    for page in pages:
        assert "atlas-html" not in page.read_text(encoding="utf-8"), page.name


def test_guide_index_has_a_matrix_and_a_picker(real_site: Build) -> None:
    soup = real_site.html("upgrade/index.html")
    assert soup.find("form", id="upgrade-picker") is not None
    links = {a["href"] for a in soup.select("table a")}
    count = len(open_catalog(ROOT / "data").releases)
    assert "2.8-to-2.12.html" in links and len(links) == count * (count - 1) // 2
    assert "2.12-to-2.8.html" not in links


def test_deprecations_from_a_or_earlier_still_in_force_are_planned_for_and_the_page_says_so() -> None:
    """The guide-range rule: A's own changes are not repeated, except deprecations B has not completed."""
    from macros.query.guide import completion
    from macros.render.upgrade import render_upgrade_guide

    catalog = open_catalog(ROOT / "data")
    guide = upgrade_guide(catalog, "2.8", "2.13")
    start = catalog.release("2.8")
    own = [i for i in start.items if i.kind == "deprecation" and completion(catalog, i, guide.end) is None]
    planned = [e.item.id for e in guide.plan_for if e.release.version == "2.8"]
    assert planned == [i.id for i in own] and planned, planned
    completed_at_a = [i for i in start.items if i.kind == "deprecation" and completion(catalog, i, guide.end)]
    assert not {i.id for i in completed_at_a} & {e.item.id for e in guide.plan_for}
    # Nothing else from A itself is repeated.
    assert all(e.release.version != "2.8" for e in [*guide.changes, *guide.features, *guide.completed_deprecations])
    text = " ".join(render_upgrade_guide(catalog, "2.8", "2.13").markdown.split())
    assert "The one exception is deprecations, from 2.8 or earlier, that 2.13 still has not completed" in text


def test_no_guide_advises_a_wheel_index_its_target_release_does_not_have() -> None:
    """Advice must hold at the end of the range: "use the cu128 index" is wrong on the way to 2.12."""
    import re

    from macros.query.install import cuda_tag

    catalog = open_catalog(ROOT / "data")
    advice = re.compile(r"(?:use|install from|stay on) the (cu\d{3}) index")
    for start, end in all_pairs(catalog):
        guide = upgrade_guide(catalog, start, end)
        if guide.end.platform.cuda.other_builds:
            continue  # B's builds are known only in part: the guide says so next to its GPU table
        built = {cuda_tag(b.version) for b in guide.end.platform.cuda.stable + guide.end.platform.cuda.experimental}
        for entry in guide.actions():
            for index in advice.findall(entry.item.action or ""):
                assert index in built, (f"{start}->{end}", entry.item.id, index)


def test_fields_guides_ignore_change_no_guide_page_or_json() -> None:
    """`GUIDE_IGNORES` lets `mkdocs serve` keep every guide when only those fields of a release
    change. Change them in every release of the real data: each guide, page and JSON, must come out
    the same; a guide that starts to show one of them fails here."""
    from renderkit import with_fields_changed

    from macros.query.guide import GUIDE_IGNORES
    from macros.render.api import guide_record
    from macros.render.upgrade import render_upgrade_guide

    changes = {
        "summary": lambda release: release.summary + " Changed.",
        "stats": lambda release: release.stats.model_copy(
            update={"commits": (release.stats.commits or 1) + 1, "contributors": (release.stats.contributors or 1) + 1}
        ),
    }
    assert set(changes) == GUIDE_IGNORES, "give this test a change for every ignored field"
    before = open_catalog(ROOT / "data")
    after = with_fields_changed(before, changes)
    assert after.releases[0].summary != before.releases[0].summary
    for start, end in all_pairs(before):
        made = [render_upgrade_guide(catalog, start, end) for catalog in (before, after)]
        assert made[0].markdown == made[1].markdown, (start, end)
        assert made[0].finished_html == made[1].finished_html, (start, end)
        records = [guide_record(catalog, start, end, "https://example.org/") for catalog in (before, after)]
        assert records[0] == records[1], (start, end)


@pytest.mark.parametrize("variant", ["edited", "emptied"])
def test_fields_only_rows_show_change_nothing_else_of_a_guide_page_or_json(variant: str) -> None:
    """`ROW_ONLY_ITEM_FIELDS` lets `mkdocs serve` keep each guide without its rows and put in the
    new rows only. Change those fields in every item of the real data: every guide without its rows
    and every guide's JSON must come out the same, and the kept guide with the new rows must be
    the guide rendered afresh. A guide that starts to show one of them outside its row fails here."""
    from renderkit import item_field_changes, with_item_fields_changed

    from macros.query.guide import ROW_ONLY_ITEM_FIELDS
    from macros.render.api import guide_record
    from macros.render.upgrade import fill_rows, render_guide_without_rows, render_upgrade_guide

    changes = item_field_changes(variant, ROW_ONLY_ITEM_FIELDS)
    before = open_catalog(ROOT / "data")
    after = with_item_fields_changed(before, changes)
    assert after.releases[-1].items[0].summary != before.releases[-1].items[0].summary
    for start, end in all_pairs(before):
        kept = render_guide_without_rows(before, start, end)
        assert kept == render_guide_without_rows(after, start, end), (start, end)
        assert fill_rows(after, kept) == render_upgrade_guide(after, start, end), (start, end)
        assert fill_rows(after, kept) != fill_rows(before, kept), (start, end)  # the rows did change
        records = [guide_record(catalog, start, end, "https://example.org/") for catalog in (before, after)]
        assert records[0] == records[1], (start, end)


def test_a_guide_is_made_again_when_a_later_release_changes_the_facts_its_script_reads() -> None:
    """Every guide carries the facts its script reads (the CUDA builds of every release): a later
    release with a new CUDA build must change the inputs `mkdocs serve` compares for an earlier
    guide, or the served guide keeps stale facts."""
    import dataclasses

    from macros.query.guide import guide_inputs

    before = open_catalog(ROOT / "data")
    latest = before.releases[-1]
    cuda = latest.platform.cuda
    build = cuda.stable[0].model_copy(update={"version": "99.9"})
    platform = latest.platform.model_copy(update={"cuda": cuda.model_copy(update={"stable": [*cuda.stable, build]})})
    after = dataclasses.replace(
        before, releases=(*before.releases[:-1], latest.model_copy(update={"platform": platform})), _memo={}
    )
    first, second = before.releases[0].version, before.releases[1].version
    assert guide_inputs(before, first, second) != guide_inputs(after, first, second)
