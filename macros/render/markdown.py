"""Renderers' shared tools: data text made safe for Markdown, the Jinja setup, finished HTML.

Data text is Markdown, but raw HTML in it is escaped so that a title such as
`<script>alert(1)</script>` shows literally. Code spans are left alone because Markdown already
escapes their content.

Finished HTML skips Markdown. A template wraps a block that is HTML already in
`{% filter set_aside %}`: the page's Markdown gets a one-line marker instead, and the block comes
back with the page as a value (`Rendered.finished_html`), for the edge to put in after MkDocs has
converted the page (`put_back`). The upgrade guides' change tables, whose rows add up to the cube
of the releases, go this way: Python's HTML parser would otherwise read every row twice (Markdown's
block parser, then MkDocs' anchor scan), most of the build at 15 releases. MkDocs does not see
inside these blocks: their links name the built .html pages, and tests/test_site.py follows them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import jinja2
import markdown
from markdown.extensions import Extension

from macros.dataset.vocabulary import EFFECTS, KINDS, STATUSES, TIERS, VERDICTS

_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)


def md(text: str | None) -> str:
    """Markdown from the data with raw HTML neutralised (outside code spans)."""
    if not text:
        return ""
    out, position = [], 0
    for match in _CODE_SPAN.finditer(text):
        out.append(html.escape(text[position : match.start()], quote=False))
        out.append(match.group(0))
        position = match.end()
    out.append(html.escape(text[position:], quote=False))
    return "".join(out).strip()


def inline(text: str | None) -> str:
    """Like `md`, folded onto one line (table cells, headings, list items)."""
    return " ".join(md(text).split()).replace("|", "\\|")


class _InlineOnly(Extension):
    """Treat a whole data string as one paragraph, as a table cell would: a title that starts
    with `1.` or `#` stays text instead of becoming a list or a heading."""

    BLOCKS = ("empty", "indent", "code", "hashheader", "setextheader", "hr", "olist", "ulist", "quote", "reference")

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        for name in self.BLOCKS:
            md.parser.blockprocessors.deregister(name, strict=False)


_INLINE_MARKDOWN = markdown.Markdown(extensions=[_InlineOnly()])


@lru_cache(maxsize=65536)
def inline_html(text: str | None) -> str:
    """Like `inline`, but converted to HTML, for the raw-HTML tables of the upgrade guides.

    Cached: guides repeat each item in every guide whose range crosses its release, and this
    way its text is converted once per build (and once per `mkdocs serve` session) instead.
    """
    if not text:
        return ""
    converted = _INLINE_MARKDOWN.reset().convert(" ".join(md(text).split()))
    return converted.removeprefix("<p>").removesuffix("</p>")


def plain(text: str | None) -> str:
    """Text for HTML attributes such as a link title: no code or bold marks, escaped.

    Underscores and single asterisks stay: in our data they are part of names such as
    `torch._dynamo` or `*args` far more often than they mark emphasis."""
    stripped = re.sub(r"`|\*\*", "", " ".join((text or "").split()))
    return html.escape(stripped, quote=True)


def indent(text: str, width: int = 4) -> str:
    pad = " " * width
    return "\n".join(pad + line if line.strip() else line for line in text.splitlines())


@dataclass(frozen=True)
class Rendered:
    """A rendered page: its Markdown, and the finished HTML each of its markers stands for."""

    markdown: str
    finished_html: Mapping[str, str] = field(default_factory=dict)

    def whole(self) -> str:
        """The Markdown with the finished HTML written in as raw HTML, for a build without our hook
        (plain MkDocs parses it, more slowly, to the same page)."""
        return put_back(self.markdown, self.finished_html)


class _Aside:
    """Collects the finished HTML blocks of one rendering."""

    def __init__(self) -> None:
        self.blocks: dict[str, str] = {}

    def keep(self, html: str) -> str:
        marker = f"<!-- atlas-html {len(self.blocks) + 1} -->"
        self.blocks[marker] = html
        return marker


_MARKER = re.compile(r"<!-- atlas-html \d+ -->")


def put_back(text: str, blocks: Mapping[str, str]) -> str:
    """Replace each marker in `text` with its block."""

    def block(match: re.Match[str]) -> str:
        if match.group(0) not in blocks:
            raise LookupError(f"no finished HTML for {match.group(0)} (a rendering bug)")
        return blocks[match.group(0)]

    return _MARKER.sub(block, text)


@jinja2.pass_context
def _set_aside(context: jinja2.runtime.Context, html: str) -> str:
    aside = context.get("_aside")
    if not isinstance(aside, _Aside):
        raise RuntimeError("set_aside used in a template rendered without render() (a rendering bug)")
    return aside.keep(html)


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).resolve().parent.parent / "templates"),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,  # output is Markdown; data passes through `md`/`inline` explicitly
        extensions=["jinja2.ext.do"],
        # Templates are part of the code: `mkdocs serve` restarts for them like for Python files,
        # so skip the file check Jinja would otherwise make on each of the thousands of includes.
        auto_reload=False,
    )
    env.filters.update(
        md=md,
        inline=inline,
        inline_html=inline_html,
        plain=plain,
        indent_md=indent,
        set_aside=_set_aside,
    )
    env.globals.update(KINDS=KINDS, EFFECTS=EFFECTS, STATUSES=STATUSES, TIERS=TIERS, VERDICTS=VERDICTS)
    return env


_ENV: jinja2.Environment | None = None


def _template(name: str) -> jinja2.Template:
    global _ENV
    if _ENV is None:
        _ENV = environment()
    return _ENV.get_template(name)


def render(name: str, **context: object) -> Rendered:
    """Fill template `name`; blocks it sets aside come back with the Markdown."""
    aside = _Aside()
    markdown = _template(name).render(_aside=aside, **context)
    return Rendered(markdown, aside.blocks)


def render_markdown(name: str, **context: object) -> str:
    """Fill template `name`, which sets nothing aside (fragments for hand-written pages)."""
    rendered = render(name, **context)
    if rendered.finished_html:
        raise RuntimeError(f"{name} sets HTML aside; use render() and put it back (a rendering bug)")
    return rendered.markdown
