"""Made for links and machines: JSON API against its schemas, the Atom feed, link previews,
the sitemap, and the permalink manifest."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import feedparser
import jsonschema
from conftest import ROOT, Build

from macros.query.catalog import open_catalog
from macros.tools.permalinks import MANIFEST, missing, published, unlisted, write_manifest


def load(site: Build, path: str):
    return json.loads((site.site / path).read_text(encoding="utf-8"))


def test_api_files_validate_against_their_published_schemas(real_site: Build) -> None:
    checks = [
        ("api/v1/releases.json", "releases.schema.json"),
        ("api/v1/releases/2.12.json", "release.schema.json"),
        ("api/v1/items.json", "items.schema.json"),
        ("api/v1/upgrade/2.8-to-2.12.json", "upgrade.schema.json"),
        ("api/v1/wheels.json", "wheels.schema.json"),
        ("api/v1/ecosystem.json", "ecosystem.schema.json"),
    ]
    for data_path, schema_name in checks:
        schema = load(real_site, f"api/v1/schema/{schema_name}")
        jsonschema.validate(load(real_site, data_path), schema)


def test_api_content_comes_from_the_data(real_site: Build) -> None:
    catalog = open_catalog(ROOT / "data")
    releases = load(real_site, "api/v1/releases.json")
    assert [r["version"] for r in releases] == [r.version for r in catalog.releases]
    for record, release in zip(releases, catalog.releases, strict=True):
        assert record["platform"]["cuda"]["default_wheel"] == release.platform.cuda.default_wheel
    assert next(r for r in releases if r["version"] == "2.11")["platform"]["cuda"]["default_wheel"] == "13.0"
    items = load(real_site, "api/v1/items.json")
    assert len(items) == len(catalog.items)
    removal = next(i for i in items if i["item"]["id"] == "export-for-training-removed")
    assert removal["lifecycle"] == [step.id for _, step in catalog.lifecycle("export-for-training-removed")]
    assert removal["lifecycle"][-2:] == ["export-for-training-deprecated", "export-for-training-removed"]
    assert removal["url"].endswith("releases/2.11.html#export-for-training-removed")
    guide = load(real_site, "api/v1/upgrade/2.8-to-2.12.json")
    assert guide["crossed"] == ["2.9", "2.10", "2.11", "2.12"]
    assert "cuda-12-8-wheels-removed" in guide["install"]
    count = len(catalog.releases)
    assert len(list((real_site.site / "api/v1/upgrade").glob("*.json"))) == count * (count - 1) // 2


def test_atom_feed_parses_and_lists_releases_newest_first(real_site: Build) -> None:
    feed = feedparser.parse((real_site.site / "feed.xml").read_bytes())
    assert not feed.bozo, feed.get("bozo_exception")
    assert feed.version == "atom10"
    titles = [entry.title for entry in feed.entries]
    catalog = open_catalog(ROOT / "data")
    assert titles == [f"PyTorch {release.version}" for release in reversed(catalog.releases)]
    assert feed.entries[0].link.endswith(f"releases/{catalog.latest.version}.html")
    assert feed.entries[0].updated.startswith(catalog.latest.date)
    # Feed readers show summaries as text: what the page shows, without Markdown marks.
    for entry in feed.entries:
        assert entry.summary and not any(mark in entry.summary for mark in ("`", "**", "](", "&#")), entry.summary


def test_every_page_links_the_feed_and_describes_itself(real_site: Build) -> None:
    for page in ["index.html", "releases/2.12.html", "upgrade/2.8-to-2.12.html", "compare/platforms.html"]:
        soup = real_site.html(page)
        assert soup.find("link", rel="alternate", type="application/atom+xml") is not None
        description = soup.find("meta", attrs={"name": "description"})["content"]
        assert description and description == soup.find("meta", property="og:description")["content"]
        canonical = soup.find("link", rel="canonical")["href"]
        assert canonical.startswith("https://") and canonical.endswith(page)
        assert soup.find("meta", property="og:title")["content"].startswith(soup.title.string.split(" - ")[0])
    guide = real_site.html("upgrade/2.8-to-2.12.html")
    assert "Moving from PyTorch 2.8 to 2.12" in guide.find("meta", attrs={"name": "description"})["content"]


def test_sitemap_lists_every_page(real_site: Build) -> None:
    sitemap = (real_site.site / "sitemap.xml").read_text()
    for page in ["releases/2.8.html", "upgrade/2.9-to-2.13.html", "compare/lifecycle.html", "linking.html"]:
        assert page in sitemap


def test_no_published_permalink_has_disappeared(real_site: Build) -> None:
    assert MANIFEST.exists(), "run `make permalinks` to create tests/permalinks.txt"
    assert missing(real_site.site) == []
    assert "releases/2.12.html#cuda-12-8-wheels-removed" in published(real_site.site)


def test_every_published_permalink_is_in_the_manifest(real_site: Build) -> None:
    new = unlisted(real_site.site)
    assert new == [], f"{len(new)} published anchors are not promised yet: run `make permalinks` (first: {new[:5]})"


def test_a_new_anchor_is_reported_until_the_manifest_lists_it(real_site: Build, tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(real_site.site, site)
    page = site / "releases" / "2.12.html"
    page.write_text(
        page.read_text().replace(
            'id="cuda-12-8-wheels-removed"', 'id="cuda-12-8-wheels-removed"><span id="a-new-item"></span'
        )
    )
    assert unlisted(site) == ["releases/2.12.html#a-new-item"]
    manifest = tmp_path / "permalinks.txt"
    shutil.copyfile(MANIFEST, manifest)
    added, lost = write_manifest(site, manifest)
    assert (added, lost) == (1, []) and unlisted(site, manifest) == []


def test_a_removed_anchor_fails_the_manifest_check(real_site: Build, tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(real_site.site, site)
    page = site / "releases" / "2.12.html"
    page.write_text(page.read_text().replace('id="cuda-12-8-wheels-removed"', 'id="renamed"'))
    assert missing(site) == ["releases/2.12.html#cuda-12-8-wheels-removed"]
    manifest = tmp_path / "permalinks.txt"
    shutil.copyfile(MANIFEST, manifest)
    added, lost = write_manifest(site, manifest)
    assert lost == ["releases/2.12.html#cuda-12-8-wheels-removed"] and added == 0
    assert manifest.read_text() == MANIFEST.read_text(), "a failed update must not touch the manifest"


def test_mkdocs_serve_watches_with_file_events_not_polling(tmp_path: Path) -> None:
    from mkdocs.livereload import LiveReloadServer
    from watchdog.observers.polling import PollingObserver

    from macros import hooks

    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path))
    (tmp_path / "data").mkdir()
    server.watch(str(tmp_path / "data"))
    server.watch(str(tmp_path / "data"))
    assert isinstance(server.observer, PollingObserver)
    server = hooks.on_serve(server, config=None, builder=None)
    assert not isinstance(server.observer, PollingObserver)
    assert server._watched_paths == {str(tmp_path / "data"): 2}
    server.server_close()


def test_upgrade_json_says_whom_each_change_concerns(real_site: Build) -> None:
    from macros.query.catalog import open_catalog

    catalog = open_catalog(ROOT / "data")
    guide = load(real_site, "api/v1/upgrade/2.9-to-2.12.json")
    listed = {*guide["install"], *guide["breaking"], *guide["plan_for"], *guide["features"], *guide["regressions"]}
    expected = {
        item_id: catalog.items[item_id][1].applies_to.model_dump(mode="json")
        for item_id in listed
        if catalog.items[item_id][1].applies_to is not None
    }
    assert guide["applies_to"] == expected and expected
    assert guide["applies_to"]["volta-dropped-cu128"] == {"variants": ["cu128"], "os": [], "python": [], "gpu": ["7.0"]}
