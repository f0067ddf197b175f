"""Build the site with `mkdocs build --strict` into a temporary folder and check its HTML."""

from __future__ import annotations

import posixpath
import re
from functools import cache
from itertools import pairwise
from urllib.parse import unquote, urlparse

from bs4 import SoupStrainer
from conftest import ROOT, Build, Only

from macros.dataset import wheels
from macros.dataset.model import ITEM_TEXT_FIELDS
from macros.dataset.text import text_html, visible_text
from macros.dataset.vocabulary import EFFECTS, KINDS, STATUSES
from macros.query.catalog import open_catalog
from macros.query.install import install_variants, newest_patch


def test_real_site_has_a_page_per_release_with_every_item_anchored(real_site: Build) -> None:
    catalog = open_catalog(ROOT / "data")
    for release in catalog.releases:
        soup = real_site.html(f"releases/{release.version}.html")
        assert soup.title.string.startswith(f"PyTorch {release.version}")
        for item in release.items:
            heading = soup.find(id=item.id)
            assert heading is not None and heading.name == "h3", item.id
            permalink = heading.find("a", class_="headerlink")
            assert permalink["href"] == f"#{item.id}"
        for dispute in release.disputes:
            assert soup.find(id=dispute.id) is not None


def test_nav_lists_releases_newest_first(real_site: Build) -> None:
    soup = real_site.html("index.html")
    labels = [a.get_text(strip=True) for a in soup.select("nav.md-nav--primary a.md-nav__link")]
    versions = [label.removeprefix("PyTorch ") for label in labels if label.startswith("PyTorch ")]
    catalog = open_catalog(ROOT / "data")
    assert versions == [release.version for release in reversed(catalog.releases)]


def test_home_page_shows_latest_and_every_release_with_its_date(real_site: Build) -> None:
    soup = real_site.html("index.html")
    text = soup.get_text(" ", strip=True).replace(" ,", ",")
    catalog = open_catalog(ROOT / "data")
    latest = catalog.latest
    assert f"Latest release: PyTorch {latest.version}, {latest.date}" in text
    rows = {tr.find("a").get_text(strip=True): tr for tr in soup.select("article table tr") if tr.find("a")}
    for release in catalog.releases:
        assert release.date in rows[f"PyTorch {release.version}"].get_text(), release.version


def test_home_page_says_what_the_data_covers_and_what_pypi_has(real_site: Build) -> None:
    """The reader learns how current the site is: the range covered, and the newest torch on PyPI
    at the snapshot's date (equal to the latest release's, or the check would have failed)."""
    catalog = open_catalog(ROOT / "data")
    assert catalog.pypi is not None
    line = real_site.html("index.html").select_one(".atlas-coverage").get_text(" ", strip=True)
    newest = wheels.newest(wheels.wheels(catalog.pypi, "torch"))
    assert newest is not None and newest[0].startswith(catalog.latest.version + ".")
    assert line == (
        f"The data covers PyTorch {catalog.releases[0].version} to {catalog.latest.version}; the newest torch on "
        f"PyPI on {catalog.pypi.fetched} (the date of our snapshot of its file lists): {newest[0]}."
    )


def test_what_the_sources_could_not_give_is_said_at_the_top_of_the_page(real_site: Build) -> None:
    """A release without notes (2.15 was published without any we could read) says so before its
    first section, in the words of its `limits`; a release with no limits has no such box."""
    catalog = open_catalog(ROOT / "data")
    limited = [release for release in catalog.releases if release.limits]
    assert limited, "no release records limits: this test would prove nothing"
    for release in catalog.releases:
        article = real_site.html(f"releases/{release.version}.html").select_one("article")
        boxes = [box for box in article.select(".admonition.note") if "could not tell us" in box.get_text()]
        if not release.limits:
            assert not boxes, release.version
            continue
        assert len(boxes) == 1, release.version
        said = " ".join(visible_text(text_html(release.limits)).split())
        assert said in " ".join(boxes[0].get_text().split()), release.version
        first_section = article.find("h2")
        assert boxes[0].sourceline < first_section.sourceline, release.version


def test_disputed_claims_are_shown_not_stated_as_fact(real_site: Build) -> None:
    soup = real_site.html("releases/2.12.html")
    box = soup.select_one(".admonition.warning")
    assert "Disputed claims" in box.get_text()
    assert "TorchScript was formally removed" in box.get_text()
    assert "Rejected" in box.get_text()


#: The elements that make a browser fetch something, and inline styles.
FETCHING = SoupStrainer(["script", "link", "img", "iframe", "style"])


def test_pages_request_nothing_outside_the_site(real_site: Build) -> None:
    pages = list(real_site.site.rglob("*.html"))
    assert len(pages) >= 8
    for page in pages:
        soup = real_site.html(str(page.relative_to(real_site.site)), only=FETCHING)
        for tag, attribute in (("script", "src"), ("link", "href"), ("img", "src"), ("iframe", "src")):
            for element in soup.find_all(tag):
                url = element.get(attribute)
                if not url or (
                    tag == "link"
                    and "stylesheet" not in element.get("rel", [])
                    and "icon" not in element.get("rel", [])
                ):
                    continue
                assert not urlparse(url).netloc, f"{page.name} loads {url}"
        inline_css = " ".join(style.get_text() for style in soup.find_all("style"))
        assert not re.search(r"@import|fonts\.googleapis", inline_css)


def test_every_link_inside_the_site_reaches_its_page_and_anchor(real_site: Build) -> None:
    # MkDocs checks the links it rewrites from Markdown, but not those in raw HTML, such as the
    # rows of the upgrade guides: this checks them all, as a reader's browser would follow them.
    site = real_site.site

    # Each page parsed once, for its links and as a link target: its links and the elements with an id.
    soup = cache(lambda page: real_site.html(page, only=Only(lambda name, attrs: name == "a" or "id" in attrs)))

    @cache
    def anchors(page: str) -> frozenset[str]:
        return frozenset(tag["id"] for tag in soup(page).find_all(id=True))

    pages = [path.relative_to(site).as_posix() for path in site.rglob("*.html") if path.name != "404.html"]
    broken, followed = [], 0
    for page in pages:
        for link in soup(page).find_all("a", href=True):
            url = urlparse(link["href"])
            if url.scheme or url.netloc:
                continue
            path = unquote(url.path)
            target = posixpath.normpath(posixpath.join(posixpath.dirname(page), path)) if path else page
            followed += 1
            if not (site / target).is_file():
                broken.append(f"{page}: {link['href']} (no such file)")
            elif url.fragment and target.endswith(".html") and unquote(url.fragment) not in anchors(target):
                broken.append(f"{page}: {link['href']} (no such anchor)")
    assert broken == []
    assert followed > 2000  # the guides alone hold more than a thousand rows


def test_search_splits_dotted_names(real_site: Build) -> None:
    import json

    index = json.loads((real_site.site / "search" / "search_index.json").read_text())
    separator = re.compile(index["config"]["separator"])
    assert "compile" in separator.split("torch.compile")
    assert any("torch.compile" in doc["text"] for doc in index["docs"])


def test_search_indexes_each_item_once_at_its_permanent_home(real_site: Build) -> None:
    import json

    from macros.query.site import html_path, type_of
    from macros.render.pages import site_pages

    index = json.loads((real_site.site / "search" / "search_index.json").read_text())
    pages = {doc["location"].split("#")[0] for doc in index["docs"]}
    # Every page of a searchable type is indexed, no page of another (the guides: they repeat items).
    site = site_pages(open_catalog(ROOT / "data"))
    assert [p for p in site if type_of(p).searchable] == [p for p in site if html_path(p) in pages]
    assert {type_of(p).name for p in site if html_path(p) not in pages} == {"guide"}
    assert any(doc["location"] == "releases/2.10.html#torchscript-deprecated" for doc in index["docs"])


def test_search_leaves_out_sources_citation_marks_and_pull_request_lines(real_site: Build) -> None:
    """The index every first visit downloads holds what readers search for: an item's words, not
    its citation marks, its pull-request numbers or the long source lists."""
    import json

    index = json.loads((real_site.site / "search" / "search_index.json").read_text())
    docs = {doc["location"]: doc for doc in index["docs"]}
    sources = [doc for location, doc in docs.items() if location.endswith("#sources")]
    assert sources and all(doc["text"] == "" and doc["title"] for doc in sources)
    item = docs["releases/2.14.html#stream-comparison-semantics"]["text"]
    assert "stream != None" in item and "What to do:" in item
    assert "Pull requests" not in item and "<sup>" not in item and "192523" not in item


def test_search_entries_rank_short_own_titles_and_changes_to_act_on_higher(real_site: Build) -> None:
    """Every entry carries a boost (lunr multiplies its score by it): the shorter its title, the
    higher, and a change the reader must act on outweighs a note with as long a title."""
    import json

    from macros.dataset.vocabulary import SEARCH_WEIGHED_KINDS
    from macros.render.search_rank import title_length

    index = json.loads((real_site.site / "search" / "search_index.json").read_text())
    separator = re.compile(index["config"]["separator"])
    kinds = {item_id: item.kind for item_id, (_, item) in open_catalog(ROOT / "data").items.items()}
    by_length: dict[tuple[int, bool], set[float]] = {}
    for doc in index["docs"]:
        assert isinstance(doc.get("boost"), float | int) and doc["boost"] > 0, doc["location"]
        acts = kinds.get(doc["location"].partition("#")[2]) in SEARCH_WEIGHED_KINDS
        by_length.setdefault((title_length(doc["title"], separator), acts), set()).add(doc["boost"])
    assert all(len(boosts) == 1 for boosts in by_length.values()), "the boost depends on title length and kind only"
    plain = {length: boosts.pop() for (length, acts), boosts in sorted(by_length.items()) if not acts}
    lengths = sorted(plain)
    assert all(plain[a] > plain[b] for a, b in pairwise(lengths))
    acting = {length: boosts for (length, acts), boosts in by_length.items() if acts}
    assert acting and all(acting[length].pop() > plain[length] for length in acting if length in plain)


def test_markup_in_data_code_spans_is_shown_literally(fixture_site: Build) -> None:
    soup = fixture_site.html("releases/9.1.html")
    heading = soup.find(id="gadget-feature")
    assert heading.get_text().startswith("<script>alert(1)</script> gadget")
    assert soup.find("script", string=re.compile("alert")) is None
    summary = soup.find(id="gadget-feature").find_next("p").find_next("p")
    assert [tag.name for tag in summary.find_all(True)][:2] == ["strong", "code"]
    assert "x < y" in summary.get_text()


def test_code_blocks_get_copy_buttons_and_titles(real_site: Build) -> None:
    soup = real_site.html("releases/2.12.html")
    titles = [span.get_text() for span in soup.select(".highlight .filename")]
    assert "Before (2.11)" in titles and "After (2.12)" in titles
    assert "content.code.copy" in (real_site.site / "releases" / "2.12.html").read_text()


def test_items_link_to_the_disputes_about_them(real_site: Build) -> None:
    soup = real_site.html("releases/2.12.html")
    badge = soup.find(id="jit-input-independent-optimization").find_next("a", class_="atlas-disputed")
    assert badge["href"] == "2.12.html#dispute-torchscript-removed-2-12"
    assert soup.find(id="dispute-torchscript-removed-2-12") is not None


def test_renamed_items_keep_their_old_anchor(fixture_site: Build) -> None:
    soup = fixture_site.html("releases/9.0.html")
    alias = soup.find(id="widget-thing")
    assert alias is not None
    assert alias.find_next(["h2", "h3"])["id"] == "widget-api"


def test_footer_states_the_data_counts_and_review_date(real_site: Build) -> None:
    from macros.query.catalog import open_catalog

    catalog = open_catalog(real_site.project / "data")
    footer = " ".join(real_site.html("api.html").select_one(".atlas-provenance").get_text().split())
    assert footer.startswith(
        f"Data: {len(catalog.releases)} releases, {len(catalog.items)} items from {len(catalog.sources)} sources, "
        f"last reviewed {catalog.reviewed}."
    )


def test_every_registered_page_and_machine_file_is_published_and_nothing_else(real_site: Build) -> None:
    # Also run against a successor's build of the materialized tree (ATLAS_SITE): a page it
    # silently drops fails here.
    from macros.query.site import html_path
    from macros.render.pages import machine_files, site_pages

    catalog = open_catalog(ROOT / "data")
    expected = [html_path(path) for path in site_pages(catalog)]
    built = {p.relative_to(real_site.site).as_posix() for p in real_site.site.rglob("*.html")} - {"404.html"}
    assert built == set(expected) and len(expected) == len(built)
    for path in machine_files(catalog, "https://example.org/", "Atlas"):
        assert (real_site.site / path).is_file(), path


def test_install_commands_pin_the_releases_companions(real_site: Build) -> None:
    catalog = open_catalog(ROOT / "data")
    for release in catalog.releases:
        page = real_site.html(f"releases/{release.version}.html")
        commands = [code.get_text() for code in page.select(".atlas-install td code")]
        assert commands, release.version
        versions = {c.name: c.version for c in release.companions}
        for command in commands:
            packages = command.split(" --")[0].split()[2:]
            assert packages[0] == f"torch=={release.version}.0"
            for name in ("torchvision", "torchaudio"):
                pinned = [p for p in packages if p.startswith(name + "==")]
                assert bool(pinned) == bool(versions.get(name)), (release.version, name, command)


def test_every_guide_ends_with_the_install_commands_of_its_target_newest_patch(real_site: Build) -> None:
    catalog = open_catalog(ROOT / "data")
    for start, end in [("2.8", "2.9"), ("2.9", "2.12"), ("2.12", "2.13")]:
        page = real_site.html(f"upgrade/{start}-to-{end}.html")
        headings = [h["id"] for h in page.select("article h2[id]")]
        assert headings[-2:] == ["install", "sources"], headings
        table = page.find(id="install").find_next("div", class_="atlas-install").table
        shown = [(row["data-variant"], row.select_one("td code").get_text()) for row in table.select("tbody tr")]
        expected = install_variants(catalog.release(end), latest_patch=True)
        assert shown == [(variant.variant, variant.command) for variant in expected]
        assert all(f"torch=={newest_patch(catalog.release(end))} " in command for _, command in shown)
    # 2.12 had a patch release, with a torchvision made for it; 2.12 had no torchaudio.
    guide = real_site.html("upgrade/2.9-to-2.12.html")
    default = guide.select_one('.atlas-install tr[data-variant="pypi"] code').get_text()
    assert default == "pip install torch==2.12.1 torchvision==0.27.1"


def test_build_prints_no_plugin_noise(fixture_site: Build) -> None:
    lines = fixture_site.output.splitlines()
    assert lines, "the build printed nothing at all"
    assert not [line for line in lines if "[macros]" in line or "end of life" in line.lower()], lines


def from_scan() -> Only:
    """The element with id scan and every code element after it: all that `find_next` reads."""
    found = []

    def keep(name: str, attrs: dict) -> bool:
        if attrs.get("id") == "scan":
            found.append(name)
        return bool(found) and (name == "code" or attrs.get("id") == "scan")

    return Only(keep)


def test_every_guide_shows_the_scanner_for_its_range(real_site: Build) -> None:
    for path in sorted((real_site.site / "upgrade").glob("*-to-*.html")):
        start, end = path.stem.split("-to-")
        section = real_site.html(f"upgrade/{path.name}", only=from_scan()).find(id="scan")
        assert section is not None, path.name
        command = section.find_next("code").get_text().strip()
        assert command == f"python -m macros scan path/to/your/code --from {start} --to {end}", command


def test_guides_without_javascript_show_every_entry_and_mark_who_it_concerns(real_site: Build) -> None:
    catalog = open_catalog(ROOT / "data")
    page = real_site.html("upgrade/2.9-to-2.12.html")
    form = page.find("form", id="your-setup")
    assert form is not None and form.has_attr("hidden")  # shown by the script only
    rows = page.select("article table.atlas-guide tbody tr")
    assert rows and not [tr for tr in rows if tr.has_attr("hidden")]
    for tr in rows:
        link = tr.find("a", href=True)
        item_id = link.get("id") or link["href"].split("#")[1]
        _, item = catalog.items[item_id]
        applies = item.applies_to
        assert tr.get("data-variants", "") == " ".join(applies.variants if applies else []), item_id
        assert tr.get("data-os", "") == " ".join(applies.os if applies else []), item_id
    options = [o.get("value") for o in form.select("select[name=variant] option")]
    assert {"", "cpu", "cu126", "cu128", "cu130", "mps", "source"} <= set(options)


def test_a_moved_removal_keeps_its_history_on_the_page(real_site: Build) -> None:
    catalog = open_catalog(ROOT / "data")
    release, item = catalog.items["onnx-dynamo-false-deprecated"]
    assert (item.planned_removal, item.planned_removal_earlier) == ("2.10", ["2.8"])
    page = real_site.html(f"releases/{release.version}.html")
    heading = page.find(id=item.id)
    line = next(p for p in heading.find_all_next("p") if p.get_text().startswith("Announced removal:"))
    assert line.get_text() == "Announced removal: 2.10 (moved: first announced for 2.8)"


def _read(text: str) -> str:
    """What a reader sees of a data text field."""
    return visible_text(text_html(text))


def test_every_item_body_reads_as_its_data_field_by_field(real_site: Build) -> None:
    # Each item's body on its release page, paragraph by paragraph as a reader reads it (visible
    # text, links by target), against the data: a missing, doubled or merged field fails.
    catalog = open_catalog(ROOT / "data")
    for release in catalog.releases:
        page = real_site.html(f"releases/{release.version}.html")
        for item in release.items:
            paragraphs = []
            for sibling in page.find(id=item.id).find_next_siblings():
                if sibling.name != "p":
                    break
                paragraphs.append(sibling)
            badges = [STATUSES.label(item.status)] if item.status else []
            badges += [KINDS.label(item.kind)] + ([EFFECTS.label(item.effect)] if item.effect else []) + [item.area]
            badges += ["disputed claim"] * len(catalog.disputes_of(item.id))
            expected = [" ".join(badges), _read(item.summary)]
            if item.prs:
                expected.append("Pull requests: " + ", ".join(f"#{pr}" for pr in item.prs) + ".")
            # The text fields in the registry's order (`ITEM_TEXT_FIELDS`: What to do, Replacement...).
            expected += [f"{label}: {_read(text)}" for name, label in ITEM_TEXT_FIELDS if (text := getattr(item, name))]
            if item.planned_removal:
                moved = f" (moved: first announced for {', then '.join(item.planned_removal_earlier)})"
                expected.append(
                    f"Announced removal: {item.planned_removal}" + (moved if item.planned_removal_earlier else "")
                )
            chain = catalog.lifecycle(item.id)
            if len(chain) > 1:
                steps = [f"{KINDS[step.kind].verb} in {where.version}" for where, step in chain]
                expected.append("Lifecycle: " + " → ".join(steps))
            seen = [paragraph.get_text() for paragraph in paragraphs]
            # The summary ends with its citations, one number per source: [1] or [1, 3].
            cites = re.fullmatch(r"(.*) \[(\d+(?:, \d+)*)\]", seen[1] if len(seen) > 1 else "")
            assert cites is not None and len(cites.group(2).split(", ")) == len(item.sources), (item.id, seen)
            assert [seen[0], cites.group(1), *seen[2:]] == expected, item.id
            if len(chain) > 1:
                links = [a["href"] for a in paragraphs[-1].find_all("a")]
                assert links == [f"{where.version}.html#{step.id}" for where, step in chain if step.id != item.id]


def test_search_indexes_the_guide_index_as_text_not_as_its_form_controls(real_site: Build) -> None:
    import json

    index = json.loads((real_site.site / "search" / "search_index.json").read_text(encoding="utf-8"))
    entries = [doc for doc in index["docs"] if doc["location"].split("#")[0] == "upgrade/index.html"]
    assert entries, "the guide index is searchable"
    text = " ".join(doc["text"] for doc in entries)
    assert "Pick the release you are on" in text
    assert "Your setup (optional)" not in text and "Open the guide" not in text


def test_pages_link_to_the_repository_and_the_home_title_is_not_doubled(real_site: Build) -> None:
    """Readers find the project from any page (the footer), from the about page, and from a guide's
    scanner section; no page's title names the site twice."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    repository = re.search(r"^  repository: (\S+)$", config, flags=re.MULTILINE).group(1)
    site_name = re.search(r"^site_name: (.+)$", config, flags=re.MULTILINE).group(1)
    for path in ("index.html", "upgrade/2.9-to-2.12.html", "releases/2.0.html"):
        footer = real_site.html(path).select_one(".atlas-provenance")
        assert repository in [a["href"] for a in footer.find_all("a")], path
    about = real_site.html("about.html").find(id="repository").find_next("p")
    assert repository in [a["href"] for a in about.find_all("a")]
    scan = real_site.html("upgrade/2.9-to-2.12.html").find(id="scan").find_next("p")
    assert "../about.html#repository" in [a["href"] for a in scan.find_all("a")]
    assert real_site.html("index.html").title.string == site_name
    for page in real_site.site.rglob("*.html"):
        title = re.search(r"<title>(.*?)</title>", page.read_text(encoding="utf-8"), flags=re.DOTALL).group(1)
        assert title.count(site_name) == 1, (page, title)
