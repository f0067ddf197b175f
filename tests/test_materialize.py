"""The exit plan off MkDocs hooks: `python -m macros materialize OUT` and a plain build of OUT."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup
from conftest import FIXTURE_DATA, ROOT, Build, copy_project, shared_build

from macros.__main__ import main
from macros.query.catalog import open_catalog
from macros.query.site import html_path
from macros.render.pages import generated_pages, site_pages


def article(page: Path) -> str:
    return str(BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").select_one("article"))


def published(site: Path) -> set[str]:
    return {p.relative_to(site).as_posix() for p in site.rglob("*") if p.suffix in {".html", ".json", ".xml"}}


def materialize(folder: Path) -> Path:
    out = folder / "out"
    assert main(["materialize", str(out), "--data", str(ROOT / "data")]) == 0
    return out


@pytest.fixture(scope="session")
def materialized(tmp_path_factory: pytest.TempPathFactory) -> Build:
    build = shared_build(tmp_path_factory, "materialized", materialize)
    assert build.returncode == 0, build.output
    return build


def test_the_tree_has_no_hooks_no_macros_and_every_page_as_a_file(materialized: Build) -> None:
    config = yaml.safe_load((materialized.project / "mkdocs.yml").read_text(encoding="utf-8").replace("!ENV", ""))
    assert "hooks" not in config
    assert not [p for p in config["plugins"] if p == "macros" or (isinstance(p, dict) and "macros" in p)]
    catalog = open_catalog(ROOT / "data")
    docs = materialized.project / "docs"
    for page in generated_pages(catalog):
        text = (docs / page.path).read_text(encoding="utf-8")
        assert "<!-- atlas-html" not in text and "{{" not in text, page.path
    home = (docs / "index.md").read_text(encoding="utf-8")
    assert "{{" not in home and f"PyTorch {catalog.latest.version}" in home and "render_macros" not in home


def article_source(html: str) -> str | None:
    """The characters of a page's `<article>` (Material writes one per page), or None."""
    start, end = html.find("<article"), html.rfind("</article>")
    return html[start:end] if 0 <= start < end else None


#: Where html.parser and BeautifulSoup keep every character as written (4.x: `pre` and `textarea`
#: preserve whitespace; script and style text is kept whole).
_VERBATIM = re.compile(r"<(pre|textarea|script|style)\b.*?</\1\s*>", re.S | re.I)
#: A run of whitespace between the end of one tag and the start of the next: a string that is
#: only whitespace, which BeautifulSoup keeps as one newline when it holds one, else one space.
_BETWEEN_TAGS = re.compile(r"(<[^<>]*>)([ \t\n\r\f]+)(?=<)")


def _as_read(html: str) -> str:
    return _BETWEEN_TAGS.sub(lambda m: m.group(1) + ("\n" if "\n" in m.group(2) else " "), html)


def read_alike(first: str, second: str) -> bool:
    """Whether BeautifulSoup's html.parser certainly reads the two sources as the same elements,
    without parsing them: equal once each whitespace-only run between tags is what the parser makes
    of it, with every pre, textarea, script and style block equal as written. False means "parse
    and compare"; it never says alike for sources that read differently."""
    blocks = [[m.group(0) for m in _VERBATIM.finditer(text)] for text in (first, second)]
    if blocks[0] != blocks[1]:
        return False
    outside = [_as_read(_VERBATIM.sub("<pre></pre>", text)) for text in (first, second)]
    return outside[0] == outside[1]


def test_read_alike_skips_only_what_the_parser_reads_the_same() -> None:
    page = "<html><body><nav>{nav}</nav><article class='md-content__inner'>{body}</article></body></html>"
    assert article_source(page.format(nav="a", body="<p>x</p>")) == article_source(
        page.format(nav="b", body="<p>x</p>")
    )
    assert article_source("<html><body>no article</body></html>") is None
    assert read_alike("<div>a</div>\n\n\n<h3>b</h3>", "<div>a</div>\n<h3>b</h3>")
    assert read_alike("<p><b>a</b>  \n  <i>b</i></p>", "<p><b>a</b>\n<i>b</i></p>")
    assert not read_alike("<p><b>a</b>  <i>b</i></p>", "<p><b>a</b>\n<i>b</i></p>")  # a space is not a newline
    assert not read_alike("<p>x</p>", "<p>y</p>")
    # Text that ends in ">" is no tag, and whitespace inside pre is kept as written.
    assert not read_alike("<p>a &gt; b >  \n<b>c</b></p>", "<p>a &gt; b >\n<b>c</b></p>")
    assert not read_alike("<pre><span>a</span>\n\n<span>b</span></pre>", "<pre><span>a</span>\n<span>b</span></pre>")
    # What it calls alike, BeautifulSoup reads alike.
    for first, second in [
        ("<div>a</div>\n\n\n<h3>b</h3>", "<div>a</div>\n<h3>b</h3>"),
        ("<p><b>a</b>  \n  <i>b</i></p>", "<p><b>a</b>\n<i>b</i></p>"),
    ]:
        assert str(BeautifulSoup(first, "html.parser")) == str(BeautifulSoup(second, "html.parser"))


def test_plain_mkdocs_builds_the_same_pages_with_the_same_content(materialized: Build, real_site: Build) -> None:
    ours, plain = published(real_site.site), published(materialized.site)
    assert plain == ours
    # Every page of the page-type registry, hand-written and generated, and no other.
    expected = {html_path(path) for path in site_pages(open_catalog(ROOT / "data"))}
    assert {p for p in ours if p.endswith(".html")} - {"404.html"} == expected
    for page in sorted(p for p in ours if p.endswith(".html")):
        texts = [(site / page).read_text(encoding="utf-8") for site in (real_site.site, materialized.site)]
        sources = [article_source(text) for text in texts]
        if sources[0] is not None and sources[1] is not None and read_alike(sources[0], sources[1]):
            continue  # read the same by the parser: no need to parse 53 MB twice
        article = [BeautifulSoup(text, "html.parser").select_one("article") for text in texts]
        assert str(article[0]) == str(article[1]), page
    for machine in ("feed.xml", "api/v1/items.json", "api/v1/upgrade/2.8-to-2.12.json"):
        assert (materialized.site / machine).read_bytes() == (real_site.site / machine).read_bytes()


def test_bad_data_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = copy_project(tmp_path, FIXTURE_DATA)
    release = project / "data" / "releases" / "9.1.yaml"
    release.write_text(
        release.read_text(encoding="utf-8").replace("effect: silent", "effect: silently"), encoding="utf-8"
    )
    out = tmp_path / "out"
    assert main(["materialize", str(out), "--data", str(project / "data")]) == 1
    error = capsys.readouterr().err
    assert "9.1.yaml:" in error and ".effect: 'silently' is not one of" in error
    assert not out.exists()


def test_a_folder_with_files_in_it_is_never_overwritten(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["materialize", str(tmp_path), "--data", str(FIXTURE_DATA)]) == 2
    assert "not empty" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]
