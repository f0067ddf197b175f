"""Property: whatever a contributor does to a real data file, the result is a clean error or a clean page.

Hypothesis mutates the real data (random text, markup and control characters in text fields;
values swapped for other shapes; keys dropped; raw bytes inserted into the YAML) and holds one
invariant: `open_catalog` either reports problems as `file:line:col: field: message`, or the
release page it renders, converted with the site's own Markdown extensions, holds no element or
attribute that can run, load or send. Bounded (a few dozen examples, no deadline) to keep the suite fast.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import markdown
import pytest
import yaml
from bs4 import BeautifulSoup
from conftest import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from macros.dataset.problems import DataError
from macros.query.catalog import open_catalog
from macros.render.markdown import put_back
from macros.render.release import render_release_page

VERSION = "2.12"
RELEASE = ROOT / "data" / "releases" / f"{VERSION}.yaml"
ORIGINAL = yaml.safe_load(RELEASE.read_text(encoding="utf-8"))
SITE_EXTENSIONS = [
    "abbr",
    "admonition",
    "attr_list",
    "md_in_html",
    "tables",
    "toc",
    "pymdownx.details",
    "pymdownx.highlight",
    "pymdownx.inlinehilite",
    "pymdownx.superfences",
]
PROBLEM = re.compile(r"^data/\S+\.yaml:\d+:\d+: .+?: .+")
ACTIVE = {"script", "iframe", "object", "embed", "img", "link", "style", "form", "base", "meta", "svg", "input"}

# Text a stranger might type: markup, Markdown, Jinja, URLs and control characters.
PIECES = st.sampled_from(
    [
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "[x](javascript:alert(1))",
        "![p](https://t.example/p.gif)",
        "{ onclick=alert(1) }",
        "{: .c }",
        "`code`",
        "```",
        "**b**",
        "_u_",
        "|",
        "{{ config }}",
        "{% raw %}",
        "&lt;",
        '"',
        "'",
        "\\",
        "\n",
        "\x00",
        "\u202e",
        "[a](https://example.org/x)",
        "<https://example.org>",
        "# ",
        "1. ",
    ]
)
TEXT = st.lists(st.one_of(PIECES, st.text(max_size=8)), max_size=6).map("".join)
OTHER_VALUES = st.one_of(st.none(), st.integers(), st.booleans(), st.just([]), st.just({}), st.just(["x"]), TEXT)


def leaves(node: Any, path: tuple = ()) -> list[tuple]:
    if isinstance(node, dict):
        return [p for key, value in node.items() for p in leaves(value, (*path, key))] + [path]
    if isinstance(node, list):
        return [p for index, value in enumerate(node) for p in leaves(value, (*path, index))] + [path]
    return [path]


PATHS = [path for path in leaves(ORIGINAL) if path]


def set_at(data: Any, path: tuple, value: Any, drop: bool = False) -> None:
    for part in path[:-1]:
        data = data[part]
    if drop:
        del data[path[-1]]
    else:
        data[path[-1]] = value


def edited(action: str, path: tuple, value: Any) -> str:
    data = yaml.safe_load(RELEASE.read_text(encoding="utf-8"))
    set_at(data, path, value, drop=action == "drop")
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One copy of the real data for every example: each writes its own release file into it."""
    copy = tmp_path_factory.mktemp("property") / "data"
    shutil.copytree(ROOT / "data", copy)
    return copy


def check(data: Path, text: str) -> None:
    # The loader knows each file by its content: the unchanged files are parsed once for all the
    # examples, the release file whenever its text changes (as `mkdocs serve` rereads a save).
    (data / "releases" / f"{VERSION}.yaml").write_text(text, encoding="utf-8")
    try:
        catalog = open_catalog(data)
    except DataError as error:
        for problem in error.problems:
            line = str(problem).replace(str(data), "data")
            assert PROBLEM.match(line), line
        return
    if VERSION not in {release.version for release in catalog.releases}:
        return
    page = render_release_page(catalog, VERSION)
    html = put_back(markdown.markdown(page.markdown, extensions=SITE_EXTENSIONS), page.finished_html)
    soup = BeautifulSoup(html, "html.parser")
    for tag in soup.find_all(True):
        assert tag.name not in ACTIVE, str(tag)[:200]
        for name, value in tag.attrs.items():
            assert not name.lower().startswith("on"), str(tag)[:200]
            text_value = " ".join(value) if isinstance(value, list) else str(value)
            assert not text_value.strip().lower().startswith(("javascript:", "data:", "vbscript:")), str(tag)[:200]


SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)


@SETTINGS
@given(action=st.sampled_from(["text", "other", "drop"]), path=st.sampled_from(PATHS), text=TEXT, other=OTHER_VALUES)
def test_edited_values_give_a_clean_error_or_a_clean_page(
    data: Path, action: str, path: tuple, text: str, other: Any
) -> None:
    check(data, edited(action, path, text if action == "text" else other))


@SETTINGS
@given(position=st.integers(min_value=0, max_value=len(RELEASE.read_text(encoding="utf-8"))), junk=TEXT)
def test_raw_yaml_edits_give_a_clean_error_or_a_clean_page(data: Path, position: int, junk: str) -> None:
    text = RELEASE.read_text(encoding="utf-8")
    check(data, text[:position] + junk + text[position:])
