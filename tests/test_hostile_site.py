"""Hostile text that the data rules accept still puts no markup of its own on any page.

The made-up dataset gets the nastiest text each field may legally hold (fence markers in code,
braces, Jinja, quotes in URLs and titles, reference-link syntax, entities) and is built for real.
Every page of the result is parsed, not grepped, and compared with the clean build: no script,
event handler, `javascript:`/`data:` URL or outside resource that the clean build lacks; the text
shows literally; anchors and code blocks stay whole.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import FIXTURE_DATA, Build, copy_project, shared_build

EDITS: dict[str, list[tuple[str, str]]] = {
    "releases/9.2.yaml": [
        (
            "title: The old flag is removed",
            "title: '`</code><script>alert(1)</script>` {{ config.site_name }} {% raw %} Tensor.{add,sub} a|b #x'",
        ),
        (
            'summary: "`old_flag` raises now."',
            "summary: '[x][y] [y]: javascript:alert(1) *emph* _u_ \\* &lt;script&gt; &#60;b&#62; \"q\" ''s'''",
        ),
        ("action: Remove `old_flag`.", "action: '[safe](https://example.org/\"onmouseover=\"alert(1)) } {'"),
        (
            "follows: old-flag-deprecated",
            "follows: old-flag-deprecated\n    before: |\n      ```\n      </code></pre><script>alert(1)</script>\n"
            "      {: onclick=alert(1) }\n      ~~~\n      {{ config }}\n    after: |\n      x = 1",
        ),
        ("summary: The third made-up release.", "summary: 'a < b \"quoted\" & {% raw %} 1<2 > 0'"),
    ],
    # A title ending in a backslash, which a Markdown link title could read as escaping its quote.
    "sources.yaml": [("title: Made-up release notes", "title: 'Made-up \"release\" notes C:\\'")],
}

# Files the fixture lacks, each harmless alone: the facts JSON the guides embed carries both
# strings, in this order (drivers before gpus), so `<!--` from one file and `<script>` from the
# other meet inside one <script> element. In backticks, the text rules accept them as code.
HOSTILE_ALIAS = "`<!--<script>` & `</script>`"
NEW_FILES: dict[str, str] = {
    "drivers.yaml": """reviewed: "2030-01-01"
builds:
  - {cuda: "12.6", toolkit: CUDA 12.6 GA, linux: "560.28.03", sources: [nvidia-cuda-compatibility]}
  - {cuda: "12.8", toolkit: CUDA 12.8 GA, linux: "570.26", sources: [nvidia-cuda-compatibility]}
  - cuda: "13.0"
    toolkit: "CUDA 13.0 `<!--`"
    linux: "570.26"
    sources: [nvidia-cuda-compatibility]
floors: []
""",
    "gpus.yaml": f"""reviewed: "2030-01-01"
models:
  - name: "NVIDIA H100"
    aliases: ["{HOSTILE_ALIAS}"]
    capability: "9.0"
    family: "Hopper `<script>`"
    segment: datacenter
    sources: [nvidia-cuda-gpus]
""",
}

ACTIVE_TAGS = {"script", "iframe", "object", "embed", "img", "link", "style", "form", "base", "meta", "svg"}


def hostile_project(tmp: Path) -> Path:
    """A copy of the project on the made-up data with the hostile edits and files (also built by the browser test)."""
    project = copy_project(tmp, FIXTURE_DATA)
    for name, content in NEW_FILES.items():
        (project / "data" / name).write_text(content, encoding="utf-8")
    for name, edits in EDITS.items():
        path = project / "data" / name
        text = path.read_text(encoding="utf-8")
        for old, new in edits:
            assert text.count(old) == 1, old
            text = text.replace(old, new)
        path.write_text(text, encoding="utf-8")
    return project


@pytest.fixture(scope="session")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Build:
    build = shared_build(tmp_path_factory, "hostile", hostile_project)
    assert build.returncode == 0, build.output
    return build


def pages(site: Path) -> dict[str, BeautifulSoup]:
    return {
        str(path.relative_to(site)): BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        for path in sorted(site.rglob("*.html"))
    }


def active_markup(soup: BeautifulSoup) -> Counter[str]:
    """Everything on a page that can run, load or send: elements, handlers and URL schemes."""
    found: Counter[str] = Counter()
    for tag in soup.find_all(True):
        if tag.name in ACTIVE_TAGS:
            found[f"<{tag.name} {tag.get('src') or tag.get('href') or ''}>"] += 1
        for name, value in tag.attrs.items():
            if name.lower().startswith("on"):
                found[f"{tag.name}[{name}]"] += 1
            text = " ".join(value) if isinstance(value, list) else str(value)
            if text.strip().lower().startswith(("javascript:", "data:", "vbscript:")):
                found[f"{tag.name}[{name}={text[:30]}]"] += 1
    return found


def test_no_page_has_active_markup_the_clean_build_lacks(hostile_site: Build, fixture_site: Build) -> None:
    clean = pages(fixture_site.site)
    hostile = pages(hostile_site.site)
    assert clean.keys() == hostile.keys()
    for name, soup in hostile.items():
        added = active_markup(soup) - active_markup(clean[name])
        assert not added, f"{name}: {dict(added)}"
        assert "alert(1)" not in " ".join(script.get_text() for script in soup.find_all("script")), name


def test_hostile_text_shows_literally_and_anchors_stay(hostile_site: Build) -> None:
    soup = hostile_site.html("releases/9.2.html")
    heading = soup.find(id="old-flag-removed")
    assert heading is not None and heading.name in {"h3", "h4"}
    title = heading.get_text()
    for literal in (
        "</code><script>alert(1)</script>",
        "{{ config.site_name }}",
        "{% raw %}",
        "Tensor.{add,sub}",
        "a|b #x",
    ):
        assert literal in title, title
    summary = heading.find_next("p").find_next("p")
    assert "[y]: javascript:alert(1)" in summary.get_text()
    # Character references typed in the data are text too: they show as typed, never decoded into tags.
    assert "&lt;script&gt; &#60;b&#62;" in summary.get_text()
    assert [a["href"] for a in summary.find_all("a")] == ["#src-notes"]  # the citation, no link from [x][y]
    assert summary.find("b") is None
    action = summary.find_next("strong", string="What to do:").parent
    link = action.find("a")
    assert link is not None and link["href"].startswith("https://example.org/") and len(link.attrs) == 1


def test_code_cannot_end_its_own_block(hostile_site: Build) -> None:
    soup = hostile_site.html("releases/9.2.html")
    heading = soup.find(id="old-flag-removed")
    blocks = []
    for sibling in heading.find_all_next(class_="highlight"):
        if sibling.find_previous(["h2", "h3", "h4"]) is not heading:
            break
        blocks.append(sibling)
    assert [b.select_one(".filename").get_text() for b in blocks] == ["Before (9.1)", "After (9.2)"]
    before = blocks[0].find("code").get_text()
    assert "```" in before and "</code></pre><script>alert(1)</script>" in before and "{{ config }}" in before
    assert blocks[1].find("code").get_text().strip() == "x = 1"


def test_quotes_in_data_stay_inside_their_attributes(hostile_site: Build) -> None:
    soup = hostile_site.html("releases/9.2.html")
    (description,) = soup.find_all("meta", attrs={"name": "description"})
    assert description.attrs == {
        "name": "description",
        "content": 'PyTorch 9.2 (released 2030-05-10): a < b "quoted" & {% raw %} 1<2 > 0',
    }
    assert soup.find("meta", attrs={"http-equiv": True}) is None
    titles = {a.get("title") for a in soup.select("sup.atlas-cite a")}
    assert {'Made-up "release" notes C:\\'} == {title for title in titles if "release" in title}, titles
    listed = soup.find(id="src-notes").find_next("a")
    assert listed.get_text() == 'Made-up "release" notes C:\\', listed


def test_feed_and_sitemap_are_xml(hostile_site: Build) -> None:
    # Feed readers and crawlers drop a file that is not well-formed XML 1.0, whole.
    feed = ET.parse(hostile_site.site / "feed.xml").getroot()
    summaries = [e.text or "" for e in feed.iter("{http://www.w3.org/2005/Atom}summary")]
    assert any('a < b "quoted" &' in summary for summary in summaries), summaries
    sitemap = ET.parse(hostile_site.site / "sitemap.xml").getroot()
    assert len(sitemap) > 10


def test_facts_json_holds_any_data_string_inertly(hostile_site: Build) -> None:
    # `<!--<script>` inside a script element makes the HTML tokenizer skip the next `</script>`,
    # and the rest of the page becomes script text: no `<`, `>` or `&` may appear as itself.
    guides = sorted((hostile_site.site / "upgrade").rglob("*.html"))
    assert guides
    for path in guides:
        html = path.read_text(encoding="utf-8")
        start = html.index('<script type="application/json" id="atlas-facts">')
        raw = html[html.index(">", start) + 1 : html.index("</script>", start)]
        assert not set(raw) & set("<>&\u2028\u2029"), path
        facts = json.loads(raw)
        assert facts["gpus"][0][3] == [HOSTILE_ALIAS], path
        assert facts["drivers"]["13.0"]["toolkit"] == "CUDA 13.0 `<!--`"
        assert facts["families"]["9.0"] == "Hopper `<script>`"
