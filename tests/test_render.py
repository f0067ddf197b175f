"""Unit tests of the Markdown renderers (pure functions) on the made-up dataset."""

from __future__ import annotations

import pytest
from conftest import FIXTURE_DATA, ROOT

from macros.catalog import open_catalog
from macros.render.home import render_release_list
from macros.render.html_blocks import put_back, set_aside
from macros.render.release import render_release_page
from macros.render.text import finished_markdown, inline, inline_html, md, plain, use_site_markdown


def use_the_site_settings() -> None:
    """Item bodies are converted with the site's Markdown settings, which the hook passes on."""
    from mkdocs.config import load_config

    config = load_config(str(ROOT / "mkdocs.yml"))
    use_site_markdown(config.markdown_extensions, config.mdx_configs)


@pytest.fixture(scope="module", autouse=True)
def site_markdown() -> None:
    use_the_site_settings()


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


def test_finished_markdown_converts_with_the_site_settings_ahead_of_mkdocs() -> None:
    marker = finished_markdown('**Done** [x](2.9.html#a){ .atlas-badge }\n\n``` python title="After"\nx = 1\n```\n')
    assert marker.startswith("<!-- atlas-html ")
    html = put_back(marker)
    assert '<p><strong>Done</strong> <a class="atlas-badge" href="2.9.html#a">x</a></p>' in html  # attr_list
    assert '<span class="filename">After</span>' in html and '<span class="n">x</span>' in html  # superfences


def test_new_markdown_settings_convert_again_instead_of_reusing_old_html() -> None:
    fragment = "[x](2.9.html#a){ .atlas-badge }"
    with_attr_list = put_back(finished_markdown(fragment))
    use_site_markdown(["tables"], {})
    try:
        assert put_back(finished_markdown(fragment)) == '<p><a href="2.9.html#a">x</a>{ .atlas-badge }</p>'
    finally:
        use_the_site_settings()  # back to the site's settings for the other tests
    assert put_back(finished_markdown(fragment)) == with_attr_list


def test_plain_keeps_names_with_underscores_and_stars() -> None:
    assert plain('`torch._dynamo` and *args, **fast** "quoted"') == "torch._dynamo and *args, fast &quot;quoted&quot;"


def test_release_page_sections_and_anchors() -> None:
    page = render_release_page(open_catalog(FIXTURE_DATA), "9.1")
    assert page.startswith("# PyTorch 9.1 { #top }")
    assert "### `sum` of bools returns int64 { #silent-sum }" in page
    assert page.index("## Breaking changes") < page.index("## Deprecations") < page.index("## Sources")
    body = put_back(page)
    assert "silent behaviour change" in body  # the effect badge, in the item body
    assert '<span class="filename">Before (9.0)</span>' in body and '<span class="filename">After (9.1)</span>' in body


def test_release_page_cites_numbered_sources_in_order_of_use() -> None:
    page = render_release_page(open_catalog(FIXTURE_DATA), "9.1")
    assert '1. <span id="src-notes"></span>[Made-up release notes](https://example.org/notes)' in page
    assert '2. <span id="src-robot"></span>' in page


def test_unknown_facts_show_their_reason() -> None:
    page = render_release_page(open_catalog(FIXTURE_DATA), "9.0")
    assert "Unknown: Not published." in page


def test_lifecycle_links_both_ways() -> None:
    catalog = open_catalog(FIXTURE_DATA)
    removed = put_back(render_release_page(catalog, "9.2"))
    assert '<a href="9.0.html#old-flag-deprecated">deprecated in 9.0</a> → <strong>removed in 9.2</strong>' in removed
    deprecated = put_back(render_release_page(catalog, "9.0"))
    assert '<strong>deprecated in 9.0</strong> → <a href="9.2.html#old-flag-removed">removed in 9.2</a>' in deprecated


def test_release_list_is_newest_first() -> None:
    table = render_release_list(open_catalog(FIXTURE_DATA))
    rows = [line for line in table.splitlines() if line.startswith("| [PyTorch")]
    assert [row.split("]")[0] for row in rows] == ["| [PyTorch 9.2", "| [PyTorch 9.1", "| [PyTorch 9.0"]
