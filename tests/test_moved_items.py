"""An item the notes listed under one release but that shipped in another (`moved` in the data):
it lives on its real release's page and in the guides that cross it, and its old anchor keeps
landing on the release page and the guides that once listed it, which say where it went."""

from __future__ import annotations

from conftest import ROOT, Build

from macros.query.catalog import open_catalog
from macros.tools.permalinks import published

MOVED = "processgroup-options-removed"  # listed by the 2.5 notes; the 2.6.0 wheel is the first without it


def test_the_data_files_the_item_under_the_release_it_shipped_in() -> None:
    catalog = open_catalog(ROOT / "data")
    assert catalog.release_of(MOVED).version == "2.6"
    [moved] = [m for m in catalog.release("2.5").moved if m.id == MOVED]
    assert moved.to == "2.6"


def test_the_old_release_page_keeps_the_anchor_and_says_where_it_went(real_site: Build) -> None:
    page = real_site.html("releases/2.5.html")
    anchor = page.find(id=MOVED)
    assert anchor is not None and anchor.name == "span"
    note = anchor.find_parent("div", class_="admonition")
    assert "shipped in another release" in note.find(class_="admonition-title").get_text()
    links = [a["href"] for a in note.find_all("a") if MOVED in a.get("href", "")]
    assert links == [f"2.6.html#{MOVED}"]
    assert "Now under 2.6:" in " ".join(note.get_text().split())
    # Its item lives on the 2.6 page, as an item.
    item = real_site.html("releases/2.6.html").find(id=MOVED)
    assert item is not None and item.name != "span"


def test_guides_carry_it_where_it_shipped_and_keep_the_old_anchor_elsewhere(real_site: Build) -> None:
    into_2_5 = real_site.html("upgrade/2.4-to-2.5.html")
    assert into_2_5.find(id=MOVED).name == "span"  # a kept anchor, no row
    assert not [row for row in into_2_5.select("tr") if row.find(id=MOVED)]
    into_2_6 = real_site.html("upgrade/2.5-to-2.6.html")
    [row] = [row for row in into_2_6.select("tr") if row.find(id=MOVED)]
    assert row.find(class_="atlas-row-meta").get_text().startswith("2.6")
    # Every place that once published the anchor still does.
    anchors = published(real_site.site)
    for page in ("releases/2.5.html", "upgrade/2.4-to-2.5.html", "upgrade/2.4-to-2.6.html", "releases/2.6.html"):
        assert f"{page}#{MOVED}" in anchors
