"""Unit tests of the cross-file checks and catalog queries on the made-up dataset (9.0-9.2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FIXTURE_DATA

from macros.query.catalog import Catalog, open_catalog
from macros.query.install import cuda_tag, install_variants
from macros.query.site import PAGE_TYPES, Links, html_path, not_in_nav, page_type, page_url, target, type_of
from macros.render.pages import generated_pages, nav


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return open_catalog(FIXTURE_DATA)


def test_releases_are_ordered_by_version(catalog: Catalog) -> None:
    assert [r.version for r in catalog.releases] == ["9.0", "9.1", "9.2"]
    assert catalog.latest.version == "9.2"


def test_crossed_excludes_start_and_includes_end(catalog: Catalog) -> None:
    assert [r.version for r in catalog.crossed("9.0", "9.2")] == ["9.1", "9.2"]
    assert catalog.crossed("9.2", "9.0") == ()


def test_lifecycle_links_deprecation_to_removal(catalog: Catalog) -> None:
    chain = [(release.version, item.id) for release, item in catalog.lifecycle("old-flag-removed")]
    assert chain == [("9.0", "old-flag-deprecated"), ("9.2", "old-flag-removed")]
    assert catalog.lifecycle("old-flag-deprecated") == catalog.lifecycle("old-flag-removed")


def test_disputes_attach_to_their_items(catalog: Catalog) -> None:
    assert [d.id for d in catalog.disputes_of("widget-api")] == []  # dispute lives in 9.1
    assert catalog.release_of("widget-api").version == "9.0"


def test_unknown_release_names_the_known_ones(catalog: Catalog) -> None:
    with pytest.raises(KeyError, match=r"no release '8\.0'.*9\.0, 9\.1, 9\.2"):
        catalog.release("8.0")


def test_catalog_is_cached_until_a_file_changes(tmp_path: Path) -> None:
    import shutil

    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    first = open_catalog(data)
    assert open_catalog(data) is first
    path = data / "releases" / "9.2.yaml"
    path.write_text(path.read_text() + "\n", encoding="utf-8")
    assert open_catalog(data) is not first


def test_install_commands_come_from_the_platform_block(catalog: Catalog) -> None:
    variants = {v.id: v.command for v in install_variants(catalog.release("9.0"))}
    assert cuda_tag("12.6") == "cu126"
    assert variants["pypi"] == "pip install torch==9.0.0 torchvision==1.0.0"
    assert variants["cu126"].endswith("--index-url https://download.pytorch.org/whl/cu126")
    assert variants["rocm64"].endswith("/whl/rocm6.4")
    assert "xpu" not in {v.id for v in install_variants(catalog.release("9.2"))}


def test_pages_and_nav_follow_the_data_and_the_page_type_registry(catalog: Catalog) -> None:
    pages = generated_pages(catalog)
    assert [p.path for p in pages][:3] == ["releases/9.2.md", "releases/9.1.md", "releases/9.0.md"]
    site_nav = nav(pages)
    # One entry per page type with a nav title and no section, in the registry's order; a section
    # lists its index, then the hand-written pages in it, then every generated page whose type it
    # heads, in the order of the pages.
    top = [t for t in PAGE_TYPES if t.nav and t.section is None]
    assert [next(iter(entry)) for entry in site_nav] == [t.nav for t in top]
    for listed_type, entry in zip(top, site_nav, strict=True):
        (listed,) = entry.values()
        if listed_type.heads is None:
            assert listed == listed_type.pattern
            continue
        hand = [{t.nav: t.pattern} for t in PAGE_TYPES if t.section == listed_type.name and not t.generated]
        members = [{p.title: p.path} for p in pages if p.type.section == listed_type.name]
        assert hand + members and listed == [{listed_type.heads: listed_type.pattern}, *hand, *members]
    releases = next(listed for entry in site_nav for title, listed in entry.items() if title == "Releases")
    assert releases[:2] == [{"All releases": "releases/index.md"}, {"PyTorch 9.2": "releases/9.2.md"}]
    # The tools are one section, and a page moved into it keeps its address (wikis link to api.html).
    tools = next(listed for entry in site_nav for title, listed in entry.items() if title == "Tools")
    assert tools == [
        {"All tools": "tools/index.md"},
        {"Newest for your machine": "tools/doctor.md"},
        {"Scan your code": "tools/scanner.md"},
        {"Check your packages": "tools/stack.md"},
        {"JSON API and feed": "api.md"},
    ]


def test_every_hand_written_page_has_its_page_type() -> None:
    from conftest import ROOT

    hand_written = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    assert hand_written == {t.pattern for t in PAGE_TYPES if not t.generated}


def test_links_between_pages_are_relative_and_name_md_sources_or_built_html() -> None:
    from_guide = Links(page_type("guide").path(start="9.0", end="9.2"))
    assert from_guide.md("release", "install", version="9.2") == "../releases/9.2.md#install"
    assert from_guide.html("release", "install", version="9.2") == "../releases/9.2.html#install"
    assert from_guide.md("guide", start="9.1", end="9.2") == "9.1-to-9.2.md"
    assert from_guide.md("about", "repository") == "../about.md#repository"
    assert Links("index.md").md(target("release", version="9.1")) == "releases/9.1.md"
    assert Links("releases/9.1.md").html("release", "x", version="9.1") == "9.1.html#x"
    assert page_url("https://example.org/atlas/", "guide", start="9.0", end="9.1") == (
        "https://example.org/atlas/upgrade/9.0-to-9.1.html"
    )
    with pytest.raises(KeyError, match="takes \\('version',\\)"):
        from_guide.md("release", name="9.1")
    with pytest.raises(KeyError, match="no page type 'glossary'"):
        from_guide.md("glossary")


def test_every_page_path_has_one_type() -> None:
    assert type_of("compare/index.html").name == "compare-index"
    assert type_of("compare/wheels.html").name == "compare"
    assert type_of("upgrade/2.9-to-2.12.md").name == "guide"
    for each in PAGE_TYPES:
        assert type_of(html_path(each.sample_path)) == each
    with pytest.raises(KeyError, match=r"glossary/x\.html: no page type"):
        type_of("glossary/x.html")


def test_generated_pages_are_rendered_markdown_not_macro_calls(catalog: Catalog) -> None:
    page = generated_pages(catalog)[0].build(catalog)
    front, _, body = page.markdown.partition("\n---\n\n")
    assert front.startswith('---\ntitle: "PyTorch 9.2"')
    assert "render_macros" not in front and "{{" not in body
    assert body.startswith("# PyTorch 9.2 { #top }")


def test_guides_are_left_out_of_search_and_nav(catalog: Catalog) -> None:
    guides = [page for page in generated_pages(catalog) if page.path.startswith("upgrade/")]
    assert [page.path for page in guides] == ["upgrade/9.0-to-9.1.md", "upgrade/9.0-to-9.2.md", "upgrade/9.1-to-9.2.md"]
    assert all(not page.type.searchable for page in guides)
    assert all("search:\n  exclude: true" in page.front_matter() for page in guides)
    assert not [page for page in pages_in(nav(generated_pages(catalog))) if page.startswith("upgrade/9")]
    # The guides alone: every other page is in the nav (the tools in their section).
    assert not_in_nav() == "/upgrade/*-to-*.md\n"
    searchable = [page for page in generated_pages(catalog) if page.type.name != "guide"]
    assert searchable and not [page for page in searchable if "exclude: true" in page.front_matter()]


def pages_in(entries: list) -> list[str]:
    """Every page path a nav lists."""
    found = []
    for entry in entries:
        for listed in entry.values():
            found += [listed] if isinstance(listed, str) else pages_in(listed)
    return found
