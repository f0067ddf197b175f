"""Finished HTML that skips Markdown: a page's Markdown holds a marker, the HTML goes in after.

MkDocs converts each page's Markdown, and raw HTML in it is parsed twice by Python's HTML parser
(by Markdown's block parser, then by MkDocs' anchor scan), at about 1 µs a byte and worse on long
pages. The change tables of the upgrade guides, which grow with the cube of the releases, are
HTML already, and that parsing was most of the build at 15 releases. So a renderer sets such a
block aside and writes a one-line comment in its place; the hook's `on_page_content` puts the
block back once MkDocs has turned the page into HTML. Item bodies on release pages go the same
way, converted ahead once per distinct text (`text.finished_markdown`), so that a `mkdocs serve`
rebuild converts only the bodies that changed.

Consequence: MkDocs does not see inside these blocks. Their links must name the built .html
pages, and links from Markdown must not point at anchors inside them (tests/test_site.py checks
every link of the built site).
"""

from __future__ import annotations

import itertools
import re

_blocks: dict[int, str] = {}
_numbers = itertools.count(1)
_MARKER = re.compile(r"<!-- atlas-html (\d+) -->")


def set_aside(html: str) -> str:
    """Keep `html` for later; return the marker to write, on a line of its own, in the Markdown."""
    number = next(_numbers)
    _blocks[number] = html
    return f"<!-- atlas-html {number} -->"


def put_back(text: str, *, keep: bool = False) -> str:
    """Replace each marker in `text` with its block; a block goes back once unless `keep`."""

    def block(match: re.Match[str]) -> str:
        number = int(match.group(1))
        if number not in _blocks:
            raise LookupError(f"HTML block {number} was already put back or never set aside (a rendering bug)")
        return _blocks[number] if keep else _blocks.pop(number)

    return _MARKER.sub(block, text)


def forget_all() -> None:
    """Drop blocks a failed or interrupted build left behind (each build starts empty)."""
    _blocks.clear()
