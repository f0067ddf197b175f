"""Unit tests of the Markdown renderers (pure functions) on the made-up dataset."""

from __future__ import annotations

from collections.abc import Callable

import jinja2
import pytest
from conftest import FIXTURE_DATA, ROOT

from macros.dataset.model import Release
from macros.dataset.vocabulary import ALL, literal_values
from macros.query.catalog import Catalog, open_catalog
from macros.render import markdown as module
from macros.render.home import render_release_list
from macros.render.markdown import environment, fill, put_back
from macros.render.release import SECTIONS, render_release_page


def test_finished_html_comes_back_with_its_page_not_from_module_state() -> None:
    first = render_string("# A\n\n{% filter set_aside %}<table>{{ x }}</table>{% endfilter %}\n", x=1)
    second = render_string("# A\n\n{% filter set_aside %}<table>{{ x }}</table>{% endfilter %}\n", x=2)
    # Each rendering numbers its own blocks: the same marker, different HTML, no shared state.
    assert first.markdown == second.markdown == "# A\n\n<!-- atlas-html 1 -->"
    assert first.whole() == "# A\n\n<table>1</table>" and second.whole() == "# A\n\n<table>2</table>"
    assert put_back("<p>x</p>\n<!-- atlas-html 1 -->", first.finished_html) == "<p>x</p>\n<table>1</table>"
    with pytest.raises(LookupError, match="atlas-html 2"):
        put_back("<!-- atlas-html 2 -->", first.finished_html)


def render_string(source: str, **context: object):
    """Render a template given as text through `render`, by registering it under a name."""

    env = environment()
    env.loader = jinja2.DictLoader({"test.j2": source})
    saved, module._ENV = module._ENV, env
    try:
        return fill("test.j2", **context)
    finally:
        module._ENV = saved


def test_every_value_of_every_vocabulary_has_its_wording() -> None:
    for vocabulary, literal in ALL:
        assert sorted(vocabulary.values) == sorted(literal_values(literal)), vocabulary.field
        for term in vocabulary:
            assert term.label and term.verb and term.style.startswith("atlas-"), term


def test_every_kind_has_one_section_on_release_pages() -> None:
    kinds_ = [kind for _, _, kinds in SECTIONS for kind in kinds]
    assert sorted(kinds_) == sorted(literal_values(ALL[0][1]))


def test_release_page_sections_and_anchors() -> None:
    catalog = open_catalog(FIXTURE_DATA)
    page = render_release_page(catalog, "9.1")
    text = page.markdown
    assert text.startswith("# PyTorch 9.1 { #top }")
    # Headings stay Markdown (table of contents, permalinks); code stays fenced (highlighting).
    assert "### <code>sum</code> of bools returns int64 { #silent-sum }" in text
    assert text.index("## Breaking changes") < text.index("## Deprecations") < text.index("## Sources")
    assert 'title="Before (9.0)"' in text and 'title="After (9.1)"' in text
    # Each item's body between them is one block of finished HTML, right under its heading.
    assert len(page.finished_html) == len(catalog.release("9.1").items)
    rest = text.partition("### <code>sum</code> of bools returns int64 { #silent-sum }\n\n")[2]
    marker = rest.split("\n", 1)[0]
    body = page.finished_html[marker]
    assert body.startswith('<p><span class="atlas-badges">') and "silent behaviour change" in body
    assert "silent behaviour change" not in text


def test_release_page_cites_numbered_sources_in_order_of_use() -> None:
    page = render_release_page(open_catalog(FIXTURE_DATA), "9.1").markdown
    assert '1. <span id="src-notes"></span>[Made-up release notes](https://example.org/notes)' in page
    assert '2. <span id="src-robot"></span>' in page


def test_unknown_facts_show_their_reason() -> None:
    page = render_release_page(open_catalog(FIXTURE_DATA), "9.0").markdown
    assert "Unknown: Not published." in page


def test_lifecycle_links_both_ways() -> None:
    catalog = open_catalog(FIXTURE_DATA)
    removed = render_release_page(catalog, "9.2").whole()
    assert '<a href="9.0.html#old-flag-deprecated">deprecated in 9.0</a> → <strong>removed in 9.2</strong>' in removed
    deprecated = render_release_page(catalog, "9.0").whole()
    assert '<strong>deprecated in 9.0</strong> → <a href="9.2.html#old-flag-removed">removed in 9.2</a>' in deprecated
    # Each field its own paragraph (the announced removal once ran into the lifecycle).
    assert "<p><strong>Announced removal:</strong> 9.2</p>\n<p><strong>Lifecycle:</strong>" in deprecated


def test_release_list_is_newest_first() -> None:
    table = render_release_list(open_catalog(FIXTURE_DATA))
    rows = [line for line in table.splitlines() if line.startswith("| [PyTorch")]
    assert [row.split("]")[0] for row in rows] == ["| [PyTorch 9.2", "| [PyTorch 9.1", "| [PyTorch 9.0"]


def test_a_release_page_shows_nothing_of_the_other_releases_ignored_fields() -> None:
    """`OTHER_RELEASES_IGNORED` lets `mkdocs serve` keep a release page when only those fields of
    another release change. Change them in every other release of the real data: each page must
    come out the same."""
    from renderkit import with_fields_changed

    from macros.render.release import OTHER_RELEASES_IGNORED

    changes = {"summary": lambda release: release.summary + " Changed."}
    assert set(changes) == OTHER_RELEASES_IGNORED, "give this test a change for every ignored field"
    assert_each_page_unchanged(lambda catalog, keep: with_fields_changed(catalog, changes, keep=keep))


@pytest.mark.parametrize("variant", ["edited", "emptied"])
def test_a_release_page_shows_nothing_of_the_other_releases_items_ignored_fields(variant: str) -> None:
    """`OTHER_RELEASES_ITEM_IGNORED`: the same for the fields of other releases' items (2.15's item
    summaries on 2.14's page). Each field is given a new value, then taken away where it may be."""
    from renderkit import item_field_changes, with_item_fields_changed

    from macros.render.release import OTHER_RELEASES_ITEM_IGNORED

    changes = item_field_changes(variant, OTHER_RELEASES_ITEM_IGNORED)
    assert_each_page_unchanged(lambda catalog, keep: with_item_fields_changed(catalog, changes, keep=keep))


def assert_each_page_unchanged(change: Callable[[Catalog, Release], Catalog]) -> None:
    """Each release's page, rendered from the real data and from `change(data, that release)`
    (a change to every other release), must come out the same."""
    before = open_catalog(ROOT / "data")
    for release in before.releases:
        after = change(before, release)
        made = [render_release_page(catalog, release.version) for catalog in (before, after)]
        assert made[0] == made[1], release.version


def test_each_release_page_says_how_much_of_its_notes_was_decided() -> None:
    """The "Notes read" row: for a release with a ledger, how many entries were read and decided,
    how many items cover, and how many were judged not felt; without one, that the page may miss
    changes. The counts are taken here from the ledger's entries themselves."""
    import dataclasses
    import re

    from macros.render.release import render_release_page

    catalog = open_catalog(ROOT / "data")

    def row(catalog: object, version: str) -> str:
        markdown = render_release_page(catalog, version).markdown  # type: ignore[arg-type]
        lines = [line for line in markdown.splitlines() if line.startswith("| Notes read |")]
        assert len(lines) == 1, version
        return re.sub(r"<sup.*?</sup>", "", lines[0])

    for release in catalog.releases:
        ledger = catalog.ledgers.get(release.version)
        text = row(catalog, release.version)
        if ledger is None:
            assert "Not decided entry by entry" in text, release.version
            continue
        decisions = [entry.decision for entry in ledger.entries]
        not_felt = sum(1 for decision in decisions if decision and decision.startswith("not-felt:"))
        covered = sum(1 for decision in decisions if decision and not decision.startswith("not-felt:"))
        assert f"All {len(decisions):,} entries read from the official notes decided" in text, release.version
        assert f"{covered:,} covered by the changes listed on this site, {not_felt:,} judged not felt" in text
    without = [release.version for release in catalog.releases if release.version not in catalog.ledgers]
    assert without, "every release has a ledger: give this test a case without one"

    # A ledger still being written says how far it got.
    version = "2.14"
    ledger = catalog.ledgers[version]
    undecided = ledger.model_copy(
        update={"entries": [ledger.entries[0].model_copy(update={"decision": None}), *ledger.entries[1:]]}
    )
    partial = dataclasses.replace(catalog, ledgers={**catalog.ledgers, version: undecided}, _memo={})
    total = len(ledger.entries)
    expected = f"{total - 1:,} of the {total:,} entries read from the official notes decided so far"
    assert expected in row(partial, version)
