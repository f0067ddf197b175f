"""Renderers' shared tools: the Jinja setup and finished HTML.

Templates write data text only through the `text` filter (inline HTML, sanitised, inert to the
page's Markdown) or `plain` (attributes), and URL fields through `url` (a link target) or
`url_text` (shown as text); all come from `macros/dataset/text.py`, the one place where data text
becomes HTML. The Jinja environment has no autoescape because its output is
Markdown, so a template that writes a data field without one of them is a bug (tests look for it).

Finished HTML skips Markdown. A template wraps a block that is HTML already in
`{% filter set_aside %}`: the page's Markdown gets a one-line marker instead, and the block comes
back with the page as a value (`Rendered.finished_html`), for the edge to put in after MkDocs has
converted the page (`put_back`). The upgrade guides' change tables, whose rows add up to the cube
of the releases, and the item bodies of release pages go this way: Markdown's inline parser would
otherwise read every one (most of a release page's build), and Python's HTML parser every guide
row twice (Markdown's block parser, then MkDocs' anchor scan), most of the build at 15 releases.
MkDocs does not see inside these blocks: their links name the built .html pages, and
tests/test_site.py follows them.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import jinja2

from macros.dataset.model import ITEM_TEXT_FIELDS
from macros.dataset.text import plain_text, text_html, url_href, url_text
from macros.dataset.vocabulary import AREA_TERMS, EFFECTS, KINDS, STATUSES, TIERS, VERDICTS


def fence(code: str) -> str:
    """A code fence longer than any run of backticks in `code`, so the code cannot end it."""
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    return "`" * max(3, longest + 1)


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


#: The templates folder.
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def _no_none(value: object) -> object:
    """Refuse to print Python's None: an unknown value must say what is unknown and why."""
    if value is None:
        raise ValueError("a template printed None: render the unknown value with its reason instead")
    return value


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        finalize=_no_none,
        loader=jinja2.FileSystemLoader(TEMPLATES),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,  # output is Markdown; data passes through `text`/`plain` explicitly
        extensions=["jinja2.ext.do"],
        # Templates are part of the code: `mkdocs serve` restarts for them like for Python files,
        # so skip the file check Jinja would otherwise make on each of the thousands of includes.
        auto_reload=False,
    )
    env.filters.update(
        text=text_html,
        plain=plain_text,
        url=url_href,
        url_text=url_text,
        fence=fence,
        set_aside=_set_aside,
    )
    env.globals.update(
        KINDS=KINDS, EFFECTS=EFFECTS, STATUSES=STATUSES, TIERS=TIERS, VERDICTS=VERDICTS, AREA_TERMS=AREA_TERMS
    )
    env.globals["ITEM_TEXT_FIELDS"] = ITEM_TEXT_FIELDS
    return env


_ENV: jinja2.Environment | None = None


def _template(name: str) -> jinja2.Template:
    global _ENV
    if _ENV is None:
        _ENV = environment()
    return _ENV.get_template(name)


class View:
    """A template's view model: a frozen dataclass whose fields are everything its template (and
    the templates it includes or imports with context) may read, besides the environment's globals.
    Each renderer builds one and hands it to `render`; tests/test_views.py checks every template
    against its view's fields, so a name a template reads and no view gives fails there, not at
    build time on some page."""

    TEMPLATE: ClassVar[str]

    def context(self) -> dict[str, object]:
        return {name.name: getattr(self, name.name) for name in dataclasses.fields(self)}  # type: ignore[arg-type]


def render(view: View) -> Rendered:
    """Fill the view's template; blocks it sets aside come back with the Markdown."""
    return fill(view.TEMPLATE, **view.context())


def render_markdown(view: View) -> str:
    """Fill the view's template, which sets nothing aside (fragments for hand-written pages)."""
    rendered = render(view)
    if rendered.finished_html:
        raise RuntimeError(f"{view.TEMPLATE} sets HTML aside; use render() and put it back (a rendering bug)")
    return rendered.markdown


def template_module(view: View) -> Any:
    """The view's template as a module whose macros Python can call, with the view as its globals
    (for fragments written once and reused by many pages)."""
    return _template(view.TEMPLATE).make_module(view.context())


def fill(name: str, **context: object) -> Rendered:
    """Fill template `name` with loose names: for `render` and for tests of the machinery itself."""
    aside = _Aside()
    markdown = _template(name).render(_aside=aside, **context)
    return Rendered(markdown, aside.blocks)
