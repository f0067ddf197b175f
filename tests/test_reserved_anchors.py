"""Ids from the data cannot take over the page's own anchors.

The reserved list in `macros/dataset/checks.py` must cover every fixed id the templates and
renderers write (read from their source here, so a new section heading or control shows up),
and every prefix they make ids from data with. An item id equal to one is refused (tests/bad_inputs
holds the positioned cases).
"""

from __future__ import annotations

import re

from conftest import ROOT

from macros.dataset.checks import RESERVED_ANCHORS, RESERVED_PREFIXES
from macros.render.release import SECTIONS

SOURCES = [*sorted((ROOT / "macros" / "templates").glob("*.j2")), *sorted((ROOT / "macros" / "render").glob("*.py"))]
# A literal id (id="install", { #install }) and a prefix before a template expression (id="src-{{").
FIXED = re.compile(r'id="([a-z][a-z0-9-]*)"|\{ ?#([a-z][a-z0-9-]*) ?\}')
PREFIX = re.compile(r'id="([a-z][a-z0-9]*-)(?:\{\{|\{)|\{ ?#([a-z][a-z0-9]*-)\{\{')
# Pages that never show an item (comparison tables, hand-written pages) may use any id.
ITEMLESS = {"compare.py", "charts.py"}


def written_ids() -> tuple[set[str], set[str]]:
    fixed, prefixes = set(), set()
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        fixed |= {a or b for a, b in FIXED.findall(text)}
        if path.name not in ITEMLESS:
            prefixes |= {a or b for a, b in PREFIX.findall(text)}
    return fixed, prefixes


def test_every_fixed_id_the_pages_write_is_reserved() -> None:
    fixed, _ = written_ids()
    fixed |= {anchor for anchor, _, _ in SECTIONS}
    assert "install" in fixed and "top" in fixed
    assert sorted(fixed - RESERVED_ANCHORS) == []


def test_every_prefix_the_pages_make_ids_with_is_reserved() -> None:
    _, prefixes = written_ids()
    assert "src-" in prefixes
    assert sorted(prefixes - set(RESERVED_PREFIXES)) == []
