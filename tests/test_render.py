"""Unit tests of the Markdown renderers (pure functions) on the made-up dataset."""

from __future__ import annotations

import pytest
from conftest import FIXTURE_DATA

from macros.catalog import open_catalog
from macros.render.home import render_release_list
from macros.render.html_blocks import put_back, set_aside
from macros.render.release import render_release_page
from macros.render.text import inline, inline_html, md, plain


def test_raw_html_is_escaped_but_code_spans_are_kept() -> None:
    assert md("<script>alert(1)</script> & `a<b`") == "&lt;script&gt;alert(1)&lt;/script&gt; &amp; `a<b`"
    assert inline("a | b\nc") == "a \\| b c"


def test_inline_html_converts_data_markdown_as_one_table_cell_would() -> None:
    converted = inline_html("Use `torch.compile` with **care**")
    assert converted == "Use <code>torch.compile</code> with <strong>care</strong>"
    assert inline_html("<script>x</script> and `<b>`") == "&lt;script&gt;x&lt;/script&gt; and <code>&lt;b&gt;</code>"
    # Text that looks like block syntax stays text: a row cell holds no lists or headings.
    assert inline_html("1. first\n- second") == "1. first - second"
    assert inline_html("# of threads") == "# of threads"
    assert inline_html(None) == inline_html("") == ""


def test_html_set_aside_goes_back_once_in_place_of_its_marker() -> None:
    first, second = set_aside("<table>a</table>"), set_aside("<table>b</table>")
    page = f"<h2>x</h2>\n{first}\n<p>y</p>\n{second}"
    assert put_back(page, keep=True) == "<h2>x</h2>\n<table>a</table>\n<p>y</p>\n<table>b</table>"
    assert put_back(page) == "<h2>x</h2>\n<table>a</table>\n<p>y</p>\n<table>b</table>"
    with pytest.raises(LookupError, match="already put back"):
        put_back(first)


def test_plain_keeps_names_with_underscores_and_stars() -> None:
    assert plain('`torch._dynamo` and *args, **fast** "quoted"') == "torch._dynamo and *args, fast &quot;quoted&quot;"


def test_release_page_sections_and_anchors() -> None:
    page = render_release_page(open_catalog(FIXTURE_DATA), "9.1")
    assert page.startswith("# PyTorch 9.1 { #top }")
    assert "### `sum` of bools returns int64 { #silent-sum }" in page
    assert page.index("## Breaking changes") < page.index("## Deprecations") < page.index("## Sources")
    assert "silent behaviour change" in page
    assert '``` python title="Before (9.0)"' in page


def test_release_page_cites_numbered_sources_in_order_of_use() -> None:
    page = render_release_page(open_catalog(FIXTURE_DATA), "9.1")
    assert '1. <span id="src-notes"></span>[Made-up release notes](https://example.org/notes)' in page
    assert '2. <span id="src-robot"></span>' in page


def test_unknown_facts_show_their_reason() -> None:
    page = render_release_page(open_catalog(FIXTURE_DATA), "9.0")
    assert "Unknown: Not published." in page


def test_lifecycle_links_both_ways() -> None:
    catalog = open_catalog(FIXTURE_DATA)
    assert "[deprecated in 9.0](9.0.md#old-flag-deprecated) → **removed in 9.2**" in render_release_page(catalog, "9.2")
    assert "**deprecated in 9.0** → [removed in 9.2](9.2.md#old-flag-removed)" in render_release_page(catalog, "9.0")


def test_release_list_is_newest_first() -> None:
    table = render_release_list(open_catalog(FIXTURE_DATA))
    rows = [line for line in table.splitlines() if line.startswith("| [PyTorch")]
    assert [row.split("]")[0] for row in rows] == ["| [PyTorch 9.2", "| [PyTorch 9.1", "| [PyTorch 9.0"]
