"""Text helpers shared by the renderers: escaping data for Markdown, labels, the Jinja setup, and
the two conversions done ahead of MkDocs (`inline_html` for guide rows, `finished_markdown` with
the site's settings for item bodies), whose HTML is set aside (html_blocks).

Data text is Markdown, but raw HTML in it is escaped so that a title such as
`<script>alert(1)</script>` shows literally. Code spans are left alone because Markdown already
escapes their content.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache
from pathlib import Path

import jinja2
import markdown
from markdown.extensions import Extension

from macros.render.html_blocks import set_aside

_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)

KIND_LABELS = {
    "highlight": "Highlight",
    "feature": "New feature",
    "improvement": "Improvement",
    "breaking": "Breaking change",
    "deprecation": "Deprecation",
    "removal": "Removal",
    "platform": "Platform change",
    "regression": "Known regression",
}
EFFECT_LABELS = {
    "error": "raises an error",
    "warning": "warns",
    "silent": "silent behaviour change",
    "performance": "changes performance",
    "packaging": "packaging / install",
}
STATUS_LABELS = {
    "stable": "Stable",
    "beta": "Beta",
    "prototype": "Prototype",
    "api-unstable": "API-unstable",
}
TIER_LABELS = {
    "official-notes": "official release notes",
    "official-blog": "official blog",
    "mirror": "faithful mirror",
    "community": "community table",
    "secondary": "secondary article",
    "ai-generated": "AI-generated article",
}
VERDICT_LABELS = {
    "rejected": "Rejected",
    "corrected": "Corrected",
    "unresolved": "Unresolved",
}


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


_site_markdown: tuple[str, markdown.Markdown] | None = None


def use_site_markdown(extensions: list, configs: dict) -> None:
    """Set the Markdown extensions and their settings (the site's, from mkdocs.yml) with which
    `finished_markdown` converts. The MkDocs hook calls it on every build; the converted
    fragments are kept as long as the settings stay the same, so across `mkdocs serve` rebuilds."""
    global _site_markdown
    key = repr((extensions, configs))
    if _site_markdown is None or _site_markdown[0] != key:
        _site_markdown = (key, markdown.Markdown(extensions=extensions, extension_configs=configs))
        _converted.cache_clear()


@lru_cache(maxsize=16384)
def _converted(text: str) -> str:
    if _site_markdown is None:
        raise RuntimeError("finished_markdown needs the site's Markdown settings: call use_site_markdown first")
    return _site_markdown[1].reset().convert(text)


def finished_markdown(text: str) -> str:
    """Convert a Markdown fragment to HTML now, with the site's settings, and set the HTML aside
    (html_blocks): MkDocs then has only a marker to convert. For fragments that stay the same
    from build to build, such as the body of each item on a release page, so that a `mkdocs serve`
    rebuild converts only what changed. MkDocs does not rewrite links inside: name .html pages."""
    return set_aside(_converted(text))


def plain(text: str | None) -> str:
    """Text for HTML attributes such as a link title: no code or bold marks, escaped.

    Underscores and single asterisks stay: in our data they are part of names such as
    `torch._dynamo` or `*args` far more often than they mark emphasis."""
    stripped = re.sub(r"`|\*\*", "", " ".join((text or "").split()))
    return html.escape(stripped, quote=True)


def indent(text: str, width: int = 4) -> str:
    pad = " " * width
    return "\n".join(pad + line if line.strip() else line for line in text.splitlines())


def compiled_template_cache() -> jinja2.BytecodeCache:
    """Where compiled Jinja templates are kept between builds: the user's temp folder, keyed by
    each template's source, so an edited template is simply compiled again. Shared by our
    templates and (through the hook) the theme's, which MkDocs would otherwise compile anew on
    every build and every `mkdocs serve` rebuild."""
    return jinja2.FileSystemBytecodeCache()


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
        # Compiling the templates is most of the rendering time of a small site.
        bytecode_cache=compiled_template_cache(),
    )
    env.filters.update(
        md=md,
        inline=inline,
        inline_html=inline_html,
        plain=plain,
        indent_md=indent,
        set_aside=set_aside,
        finished_markdown=finished_markdown,
    )
    env.globals.update(
        KIND_LABELS=KIND_LABELS,
        EFFECT_LABELS=EFFECT_LABELS,
        STATUS_LABELS=STATUS_LABELS,
        TIER_LABELS=TIER_LABELS,
        VERDICT_LABELS=VERDICT_LABELS,
    )
    return env


_ENV: jinja2.Environment | None = None


def template(name: str) -> jinja2.Template:
    global _ENV
    if _ENV is None:
        _ENV = environment()
    return _ENV.get_template(name)
