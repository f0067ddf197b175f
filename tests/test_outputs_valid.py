"""Every output format stays valid for its readers whatever the data holds.

- URL fields are kept literal: a character reference typed in a URL (`&#106;`, `&lt;`) shows and
  links as typed, on the page (MkDocs' Markdown decodes nothing a reader did not see in the YAML).
- feed.xml is XML 1.0 even when a renderer is handed text the data rules would refuse (the rules
  refuse such characters first; the feed does not rely on it).
- JSON API files are strict JSON.
"""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import markdown
import pytest
from bs4 import BeautifulSoup
from conftest import FIXTURE_DATA
from test_property_data import SITE_EXTENSIONS

from macros.query.catalog import Catalog, open_catalog
from macros.render.feed import atom_feed
from macros.render.markdown import put_back
from macros.render.pages import machine_files
from macros.render.release import render_release_page

TYPED_URL = "https://example.org/notes/&#106;avascript&amp;x=&lt;b&gt;"


@pytest.fixture
def catalog_with_typed_references(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Catalog:
    shutil.copytree(FIXTURE_DATA, tmp_path / "data")
    release = tmp_path / "data" / "releases" / "9.2.yaml"
    release.write_text(
        release.read_text(encoding="utf-8").replace("notes: https://example.org/notes/9.2", f"notes: {TYPED_URL}"),
        encoding="utf-8",
    )
    sources = tmp_path / "data" / "sources.yaml"
    sources.write_text(
        sources.read_text(encoding="utf-8").replace("url: https://example.org/notes\n", f"url: {TYPED_URL}\n", 1),
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    return open_catalog(tmp_path / "data")


def release_page_html(catalog: Catalog, version: str) -> BeautifulSoup:
    page = render_release_page(catalog, version)
    html = put_back(markdown.markdown(page.markdown, extensions=SITE_EXTENSIONS), page.finished_html)
    return BeautifulSoup(html, "html.parser")


def test_url_fields_link_and_show_as_typed(catalog_with_typed_references: Catalog) -> None:
    soup = release_page_html(catalog_with_typed_references, "9.2")
    links = [a for a in soup.find_all("a") if "example.org/notes/" in a.get("href", "")]
    assert links, "the release notes link and the source link"
    for link in links:
        assert link["href"] == TYPED_URL  # not https://example.org/notes/javascript&x=<b>
    notes_row = next(a for a in links if a.get_text().startswith("https://"))
    assert notes_row.get_text() == TYPED_URL


def test_feed_is_xml_whatever_text_reaches_it(catalog_with_typed_references: Catalog) -> None:
    catalog = catalog_with_typed_references
    hostile = "Bad \ufffe\uffff\x01\x0b characters & <tags> "
    releases = tuple(r.model_copy(update={"summary": hostile}) for r in catalog.releases)
    feed = atom_feed(Catalog(releases, catalog.sources, catalog.reviewed), "https://example.org/", "Atlas\uffff")
    root = ET.fromstring(feed.encode("utf-8"))  # raises on any character XML forbids
    summaries = [e.text for e in root.iter("{http://www.w3.org/2005/Atom}summary")]
    assert summaries and all(s == "Bad  characters & <tags>" for s in summaries)


def test_json_api_is_strict_json(catalog_with_typed_references: Catalog) -> None:
    files = machine_files(catalog_with_typed_references, "https://example.org/", "Atlas")

    def refuse(name: str) -> None:
        pytest.fail(f"{name} is not JSON")

    for path, text in files.items():
        if path.endswith(".json"):
            json.loads(text, parse_constant=refuse)
