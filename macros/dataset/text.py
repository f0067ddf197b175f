"""Data text: what a text field may hold (checked by the model) and the one place it becomes HTML.

Data arrives through pull requests, and a reviewer reads YAML, not the HTML it turns into. So the
trust model is: every text field is written by a stranger.

- **Rejected at the data**, with the field's position (`problems`): control characters and
  bidirectional overrides, raw HTML tags, images, links whose target is not an `http(s)` URL,
  autolinks, Markdown attribute lists. A contributor learns at once what to change.
- **Converted in one place** (`text_html`): data text is *inline* Markdown (code spans, emphasis,
  `[links](https://...)`), converted by our own Markdown instance whose extensions are chosen on
  purpose (no attribute lists, no raw HTML, no block syntax), then passed through the nh3
  allowlist sanitiser. What comes out is a handful of inline elements with every Markdown-
  significant character written as a character reference, so the page's own Markdown (which does
  have attribute lists and raw HTML) has nothing left to act on, wherever the text is put:
  paragraph, heading, table cell.
- Dotted names in code get a `<wbr>` after each dot, so a narrow cell wraps them at a dot.
- `plain_text` is for attributes and other places that take text, not markup.
"""

from __future__ import annotations

import html
import json
import re
import unicodedata
from functools import lru_cache

import markdown
import nh3
from markdown.extensions import Extension

#: Tags and attributes data text may produce; everything else is removed by the sanitiser.
ALLOWED_TAGS = frozenset({"a", "code", "em", "strong"})
ALLOWED_ATTRIBUTES = {"a": {"href"}}
URL_SCHEMES = frozenset({"http", "https"})

#: Longest text field, in characters: a title or a paragraph, not an article.
MAX_TEXT = 4000
#: Most `[` one text field may hold, and the longest run of backticks. Markdown's inline parser
#: looks for the end of every `[` and every backtick run through the rest of the text: a field
#: of 4,000 `[` took 2.6 s to convert, and a 512 KiB file of them minutes. Real data has at most
#: a few links per field and runs of two backticks.
MAX_BRACKETS = 8
MAX_BACKTICK_RUN = 8
_BACKTICK_RUN = re.compile(f"`{{{MAX_BACKTICK_RUN + 1},}}")

_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C)}
_AUTOLINK = re.compile(r"<[A-Za-z][A-Za-z0-9+.-]*:")
_TAG = re.compile(r"<[A-Za-z/!?]")
_IMAGE = re.compile(r"!\[")
_LINK_TARGET = re.compile(r"\]\(\s*<?([^)\s>]*)")
_ATTR_LIST = re.compile(r"\{\s*:|\{\s*[#.][A-Za-z_]|\{[^{}]*=")
_HTTP = re.compile(r"^https?://[^\s]+$", re.IGNORECASE)


#: Unicode categories refused in data text: controls (Cc), format characters (Cf: invisible ones
#: such as U+200B and the tag characters U+E0000-U+E007F, bidirectional controls, the byte-order
#: mark), surrogates (Cs), private use (Co), unassigned code points and non-characters (Cn:
#: U+FFFE and U+FFFF are not even XML), line and paragraph separators (Zl, Zp). Each either shows
#: nothing, shows something other than it is, or breaks a feed reader or a JSON consumer.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: Clean ASCII text is passed by one regex search; only text with other characters is walked.
_ASCII_PRINTABLE = re.compile(r"[\x20-\x7e]*")
_ASCII_PRINTABLE_OR_NEWLINES = re.compile(r"[\x20-\x7e\n\t]*")


def control_character(text: str, *, allow_newlines: bool) -> str | None:
    """A description of the first refused character (see REFUSED_CATEGORIES), if any."""
    if (_ASCII_PRINTABLE_OR_NEWLINES if allow_newlines else _ASCII_PRINTABLE).fullmatch(text):
        return None
    for char in text:
        if char in "\n\t" and allow_newlines:
            continue
        if char in _BIDI:
            return f"the bidirectional control character U+{ord(char):04X} (it makes text read other than it is)"
        category = unicodedata.category(char)
        if category not in REFUSED_CATEGORIES:
            continue
        name = unicodedata.name(char, "").lower()
        if category == "Cf":
            return f"the invisible format character U+{ord(char):04X} ({name or 'unnamed'})"
        if category == "Cn":
            return f"the unassigned code point U+{ord(char):04X} (a non-character or not yet in Unicode)"
        if category == "Co":
            return f"the private-use character U+{ord(char):04X} (it shows differently on every system)"
        return f"the control character U+{ord(char):04X} ({name or 'control character'})"
    return None


def _outside_code(text: str) -> str:
    """The text with its code spans blanked out: markup rules do not apply inside them."""
    return _CODE_SPAN.sub(lambda match: " " * len(match.group(0)), text)


def text_problem(text: str) -> str | None:
    """Why `text` may not be data text, or None. The message says what to write instead."""
    if len(text) > MAX_TEXT:
        return f"is {len(text)} characters long; text fields hold at most {MAX_TEXT}"
    control = control_character(text, allow_newlines=True)
    if control:
        return f"contains {control}; remove it"
    brackets = text.count("[")
    if brackets > MAX_BRACKETS:
        return f"contains {brackets} [ characters; text fields hold at most {MAX_BRACKETS} (code goes in before/after)"
    run = _BACKTICK_RUN.search(text)
    if run:
        return f"contains a run of {len(run.group(0))} backticks; at most {MAX_BACKTICK_RUN} in a row"
    prose = _outside_code(text)
    if _IMAGE.search(prose):
        return "contains a Markdown image; data text may not load images (pages load nothing from outside)"
    for match in _LINK_TARGET.finditer(prose):
        if not _HTTP.match(match.group(1)):
            return f"links to {match.group(1)!r}; links in data text must be http:// or https:// URLs"
    match = _AUTOLINK.search(prose)
    if match:
        return f"contains the autolink {match.group(0)}…>; write a link as [text](https://...)"
    if _TAG.search(prose):
        return "contains raw HTML; write markup in backticks (`<like this>`) to show it as code"
    if _ATTR_LIST.search(prose):
        return "contains a Markdown attribute list ({: ...}, { #id }, { .class } or { key=value }); remove it"
    return None


def code_problem(code: str) -> str | None:
    """Why `code` may not be a code example, or None (code may hold any printable text)."""
    if len(code) > MAX_TEXT:
        return f"is {len(code)} characters long; code examples hold at most {MAX_TEXT}"
    control = control_character(code, allow_newlines=True)
    return f"contains {control}; remove it" if control else None


class _InlineOnly(Extension):
    """Treat a whole data string as one paragraph, as a table cell would: a title that starts
    with `1.` or `#` stays text instead of becoming a list or a heading."""

    BLOCKS = ("empty", "indent", "code", "hashheader", "setextheader", "hr", "olist", "ulist", "quote", "reference")

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        for name in self.BLOCKS:
            md.parser.blockprocessors.deregister(name, strict=False)
        # No raw HTML: whatever survives the checks is text (escaped before conversion as well).
        md.preprocessors.deregister("html_block", strict=False)
        md.inlinePatterns.deregister("html", strict=False)


_MARKDOWN = markdown.Markdown(extensions=[_InlineOnly()])

# Characters that mean something to the page's Markdown (emphasis, code, links, attribute lists,
# tables, headings, backslash escapes) or to HTML, written as references in text between tags.
_INERT = {ord(char): f"&#{ord(char)};" for char in "\\`*_[]{}|#!"}
_TEXT_BETWEEN_TAGS = re.compile(r">([^<]*)<")
# Long dotted names (`torch.ao.quantization.quantize_fx`) may wrap in narrow table cells: at a
# dot, never inside a word. <wbr> marks the places; it is not copied with the text.
_CODE_ELEMENT = re.compile(r"(<code>)(.*?)(</code>)", re.DOTALL)
_DOT_IN_NAME = re.compile(r"\.(?=[A-Za-z&])")


def _escape_prose(text: str) -> str:
    out, position = [], 0
    for match in _CODE_SPAN.finditer(text):
        out.append(html.escape(text[position : match.start()], quote=False))
        out.append(match.group(0))
        position = match.end()
    out.append(html.escape(text[position:], quote=False))
    return "".join(out)


#: Text made only of these characters has no inline Markdown, nothing HTML must escape and nothing
#: the sanitiser changes: converting it gives the text back as it is (tests/test_text.py checks
#: this against the full conversion). About half of all data text, so half the conversions.
_NO_MARKUP = re.compile(r"[^\\`*_\[\]<>&!\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]*")


@lru_cache(maxsize=65536)
def text_html(text: str | None) -> str:
    """Data text as sanitised inline HTML that any Markdown context leaves as it is.

    Cached: guides repeat each item in every guide whose range crosses its release."""
    if not text:
        return ""
    if _NO_MARKUP.fullmatch(text):
        return " ".join(text.split()).translate(_INERT)
    return _converted(text)


def _converted(text: str) -> str:
    """`text_html` the long way: our Markdown instance, the sanitiser, then inert characters."""
    converted = _MARKDOWN.reset().convert(" ".join(_escape_prose(text).split()))
    converted = converted.removeprefix("<p>").removesuffix("</p>")
    clean = nh3.clean(
        converted,
        tags=set(ALLOWED_TAGS),
        attributes={tag: set(names) for tag, names in ALLOWED_ATTRIBUTES.items()},
        url_schemes=set(URL_SCHEMES),
        link_rel=None,
        strip_comments=True,
    )
    inert = _TEXT_BETWEEN_TAGS.sub(lambda m: ">" + m.group(1).translate(_INERT) + "<", f">{clean}<")[1:-1]
    return _CODE_ELEMENT.sub(lambda m: m.group(1) + _DOT_IN_NAME.sub(".<wbr>", m.group(2)) + m.group(3), inert)


def url_href(url: str) -> str:
    """A URL field for a Markdown link target or an HTML attribute, kept literal: `&` written as
    `&amp;`, so that a character reference typed in the data (`&#106;`) is not decoded into a
    different link. (The model has checked the URL: http(s), no spaces, quotes or brackets.)"""
    return url.replace("&", "&amp;")


def url_text(url: str) -> str:
    """A URL field shown as text on a page: literal, inert to the page's Markdown."""
    return html.escape(url, quote=False).translate(_INERT)


def visible_text(inline_html: str) -> str:
    """What a reader sees of `text_html` output: for places that take text (SVG labels)."""
    return html.unescape(re.sub(r"<[^>]*>", "", inline_html))


def plain_text(text: str | None) -> str:
    """Data text for attributes and plain-text formats: no code or bold marks, HTML-escaped.

    Underscores and single asterisks stay: in our data they are part of names such as
    `torch._dynamo` or `*args` far more often than they mark emphasis."""
    stripped = re.sub(r"`|\*\*", "", " ".join((text or "").split()))
    return html.escape(stripped, quote=True)


#: What JSON inside an HTML `<script>` element must not hold as itself: `<` opens `</script>` and
#: `<!--` (which makes the tokenizer skip a later `</script>`), `>` and `&` matter to the same
#: tokenizer and to Markdown around a raw HTML block, and U+2028/U+2029 end a line in older
#: JavaScript. Each is written as its `\uXXXX` escape, which JSON.parse reads back as the character.
_SCRIPT_JSON_ESCAPES = {ord(c): f"\\u{ord(c):04x}" for c in "<>&\u2028\u2029"}


def script_json(value: object) -> str:
    """`value` as compact JSON that is inert inside `<script type="application/json">`, for any string."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True).translate(_SCRIPT_JSON_ESCAPES)
