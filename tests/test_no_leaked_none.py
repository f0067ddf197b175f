"""No unknown value reaches a reader as Python's `None` (or JSON's `null`) inside prose.

An unknown fact must read as what is unknown and why. The word None may still appear where the
data or a template writes it on purpose ("None in this range.", "`zero_grad()` sets gradients to
None"): such a phrase is allowed only when the same words stand in the data's own text or in a
template, so a value interpolated by the code is caught wherever it lands.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import yaml
from conftest import ROOT, Build

LEAK = re.compile(r"(?:(\S+\s+\S+|\S+)\s+)?\b(None|null|undefined)\b(?:\s+(\S+\s+\S+|\S+))?")
# Code shows Python as written (None is right there); scripts and styles are not read.
INVISIBLE = re.compile(r"<(code|pre|script|style|kbd|template)\b.*?</\1>", re.S | re.I)
TAG = re.compile(r"<[^>]*>")
WORD = re.compile(r"None|null|undefined")


def _visible_text(markup: str) -> str:
    """The text a reader sees, without code (a regex is enough for the build's own output, and fast).
    Each element's text is its own line, so no phrase runs from one element into the next."""
    return html.unescape(TAG.sub("\n", INVISIBLE.sub("\n", markup)))


def _normal(text: str) -> str:
    return " ".join(text.replace("`", "").replace("*", "").split())


SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

#: Fields that hold code, where None is Python as written.
CODE_FIELDS = frozenset({"before", "after"})


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, inner in value.items():
            if key not in CODE_FIELDS:
                yield from _strings(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _strings(inner)


@cache
def _data_strings(project: Path) -> frozenset[str]:
    """Every string the data holds, as written (the API repeats them verbatim)."""
    found: set[str] = set()
    for path in sorted((project / "data").rglob("*.yaml")):
        # PyYAML's C parser when it has one: the same values as safe_load, built faster.
        found.update(_strings(yaml.load(path.read_text(encoding="utf-8"), Loader=SAFE_LOADER)))
    return frozenset(found)


@cache
def _written_on_purpose(project: Path) -> str:
    """All text the data and the templates write themselves, normalised, as one haystack."""
    parts = sorted(_data_strings(project))
    for path in sorted((ROOT / "macros" / "templates").glob("*.j2")):
        parts.append(path.read_text(encoding="utf-8"))
    return _normal(" \n ".join(parts))


def _leaks(text: str, haystack: str) -> list[str]:
    """Each None/null/undefined that does not stand, with the two words beside it on one side, in
    the data's or the templates' own text. Text is read line by line (an element's text per line):
    a data string that ends at the word ("dim is `None`") matches on its left, one that starts with
    it on its right; a value printed alone ("None" in a cell) is always a leak."""
    found = []
    for line in text.splitlines():
        line = _normal(line)
        if not WORD.search(line):
            continue  # LEAK cannot match; trying it at every position of two million lines is slow
        for match in LEAK.finditer(line):
            before, word, after = match.group(1), match.group(2), match.group(3)
            sides = [f"{before} {word}" if before else "", f"{word} {after}".rstrip(".,;:)") if after else ""]
            if not any(side and side in haystack for side in sides):
                found.append(match.group(0))
    return found


def test_no_page_prints_none_in_prose(real_site: Build) -> None:
    haystack = _written_on_purpose(real_site.project)
    leaks: dict[str, set[str]] = {}
    pages = sorted(real_site.site.rglob("*.html"))
    assert len(pages) > 100, "the built site is missing"
    for page in pages:
        for phrase in _leaks(_visible_text(page.read_text(encoding="utf-8")), haystack):
            leaks.setdefault(phrase, set()).add(str(page.relative_to(real_site.site)))
    assert not leaks, {phrase: sorted(pages)[:3] for phrase, pages in leaks.items()}


def test_no_json_string_prints_none(real_site: Build) -> None:
    haystack = _written_on_purpose(real_site.project)
    leaks: dict[str, set[str]] = {}
    files = sorted(real_site.site.rglob("*.json"))
    assert len(files) > 100, "the built site is missing"
    for path in files:
        if path.name == "search_index.json" or "schema" in path.parts:
            continue  # the search index repeats the pages' text; schemas describe, they hold no facts
        for value in _strings(json.loads(path.read_text(encoding="utf-8"))):
            if value in _data_strings(real_site.project):
                continue  # the data's own text, verbatim: the pages test checks how it reads
            if "<" in value:  # finished HTML inside JSON: read its visible text
                value = _visible_text(value)
            for phrase in _leaks(value, haystack):
                leaks.setdefault(phrase, set()).add(str(path.relative_to(real_site.site)))
    assert not leaks, {phrase: sorted(paths)[:3] for phrase, paths in leaks.items()}


def test_the_leak_check_finds_an_interpolated_none() -> None:
    haystack = _normal("None in this range. `zero_grad()` now sets gradients to None by default")
    assert _leaks("C++20 for the headers, None to build PyTorch", haystack) == ["the headers, None to build"]
    assert _leaks("the title: when dim is None\nDeprecations", _normal("when dim is `None`")) == []
    assert _leaks("Python\nNone\n3.10", haystack) == ["None"]
    assert _leaks("Gradients: zero_grad() now sets gradients to None by default.", haystack) == []
    assert _leaks("None in this range.", haystack) == []
    assert _visible_text("<p>Use <code>x=None</code>, got <b>None</b> here</p>").split() == [
        "Use",
        ",",
        "got",
        "None",
        "here",
    ]
