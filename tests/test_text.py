"""Data text, the one place it becomes HTML: what the model refuses, and what the converter emits.

The converter's promise is checked the way it is used: its output is put through the site's own
Markdown (with attribute lists, raw HTML and tables) and must come out as the same elements.
"""

from __future__ import annotations

import sys
import unicodedata

import markdown
import pytest
from bs4 import BeautifulSoup
from hypothesis import given
from hypothesis import strategies as st

from macros.dataset import text as text_module
from macros.dataset.text import code_problem, control_character, plain_text, text_html, text_problem, visible_text

SITE_MARKDOWN_EXTENSIONS = ["abbr", "admonition", "attr_list", "md_in_html", "tables", "pymdownx.superfences"]


def elements(fragment: str) -> list[tuple[str, dict[str, object]]]:
    soup = BeautifulSoup(fragment, "html.parser")
    return [(tag.name, dict(tag.attrs)) for tag in soup.find_all(True)]


def test_inline_markdown_becomes_a_few_allowed_elements() -> None:
    converted = text_html("Use `torch.compile` with **care** and *thought*, see [notes](https://example.org/a_b)")
    assert elements(converted) == [
        ("code", {}),
        ("wbr", {}),  # after the dot of a dotted name
        ("strong", {}),
        ("em", {}),
        ("a", {"href": "https://example.org/a_b"}),
    ]
    assert visible_text(converted) == "Use torch.compile with care and thought, see notes"


def test_block_syntax_stays_text() -> None:
    assert visible_text(text_html("1. first\n- second")) == "1. first - second"
    assert visible_text(text_html("# of threads")) == "# of threads"
    assert text_html(None) == text_html("") == ""


@pytest.mark.parametrize(
    "hostile",
    [
        "<script>alert(1)</script>",
        "`<b>` and <img src=x onerror=alert(1)>",
        "[x](javascript:alert(1))",
        "[x](data:text/html;base64,PHNjcmlwdD4=)",
        "![pixel](https://tracker.example/p.gif)",
        "Title { onmouseover=alert(1) }",
        "Title {: .evil #id }",
        "a | b | c",
        "{{ config }} {% raw %}",
        "<https://example.org> <javascript:alert(1)>",
        "`code` **bold `x`** _under_score_ \\*escaped\\*",
    ],
)
def test_output_survives_the_sites_markdown_unchanged(hostile: str) -> None:
    """Whatever the text, the page's Markdown finds nothing left to act on, and nothing active."""
    converted = text_html(hostile)
    for tag, attributes in elements(converted):
        assert tag in {"code", "em", "strong", "a", "wbr"}
        assert set(attributes) <= {"href"}
        assert str(attributes.get("href", "https://")).startswith(("https://", "http://"))
    if not converted.strip():
        return  # an image alone: nothing is left at all
    for context in (f"{converted}", f"### {converted} {{ #fixed-id }}", f"| a | b |\n|---|---|\n| {converted} | x |"):
        page = markdown.markdown(context, extensions=SITE_MARKDOWN_EXTENSIONS)
        soup = BeautifulSoup(page, "html.parser")
        inner = soup.find(["p", "h3", "td"])
        assert inner is not None
        assert elements(str(inner))[1:] == elements(converted), context
        assert inner.get_text() == BeautifulSoup(converted, "html.parser").get_text()
        if inner.name == "h3":
            assert inner.attrs == {"id": "fixed-id"}  # braces in a title never eat the anchor


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Nul\x00byte", "U+0000"),
        ("Right\u202eto left", "bidirectional control character U+202E"),
        ("Isolate\u2066x", "U+2066"),
        ("<script>alert(1)</script>", "contains raw HTML"),
        ("Say <b>hi</b>", "contains raw HTML"),
        ("<!-- comment -->", "contains raw HTML"),
        ("![x](https://example.org/x.png)", "Markdown image"),
        ("[x](javascript:alert(1))", "links to 'javascript:alert"),
        ("[x]( JAVASCRIPT:alert(1))", "links to 'JAVASCRIPT:alert"),
        ("[x](vbscript:msgbox)", "links to 'vbscript:msgbox'"),
        ("[x](data:text/html,hi)", "links to 'data:text/html,hi'"),
        ("[x](/relative)", "links to '/relative'"),
        ("<javascript:alert(1)>", "autolink"),
        ("Title { onmouseover=alert(1) }", "attribute list"),
        ("Title {: .class }", "attribute list"),
        ("Title { #other-id }", "attribute list"),
        ("x" * 4001, "at most 4000"),
    ],
)
def test_text_rules_reject_with_a_message_that_says_what_to_do(text: str, message: str) -> None:
    problem = text_problem(text)
    assert problem is not None and message in problem


@pytest.mark.parametrize(
    "text",
    [
        "Use `<script>` in code spans freely, and `{ x: 1 }` too",
        "a < b and c > d, 5 & 6",
        "torch.Tensor.{add,sub} are fine",
        "[notes](https://example.org/x) and [http](http://example.org)",
        "Tabs\tand\nnewlines",
    ],
)
def test_ordinary_text_is_accepted(text: str) -> None:
    assert text_problem(text) is None


def test_code_may_hold_anything_printable_but_no_control_characters() -> None:
    assert code_problem("```\n<script>alert(1)</script>\n{: onclick=x }") is None
    assert "U+0007" in (code_problem("print('\a')") or "")


BIDI = {*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C}


def refused(char: str, allow_newlines: bool) -> bool:
    """The rule, character by character: control (Cc), format (Cf: invisible characters, tag
    characters, bidirectional controls, the byte-order mark), surrogate (Cs), private-use (Co) and
    unassigned (Cn, non-characters included) code points, the line and paragraph separators;
    tab and newline where text may run over lines."""
    if allow_newlines and char in "\n\t":
        return False
    return ord(char) in BIDI or unicodedata.category(char) in {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


@pytest.mark.parametrize("allow_newlines", [True, False])
def test_every_code_point_is_judged_by_the_rule(allow_newlines: bool) -> None:
    # The check skips clean text with one regex search; it must refuse exactly what the rule does.
    wrong = [
        f"U+{point:04X}"
        for point in range(sys.maxunicode + 1)
        if (control_character(f"a{chr(point)}b", allow_newlines=allow_newlines) is not None)
        != refused(chr(point), allow_newlines)
    ]
    assert wrong == []
    assert control_character("ok\u202eevil", allow_newlines=True) == (
        "the bidirectional control character U+202E (it makes text read other than it is)"
    )


def _markup_free_runs(length: int = 300) -> list[str]:
    """Every code point the shortcut takes, in runs of `length` consecutive ones."""
    takes = [chr(point) for point in range(sys.maxunicode + 1) if text_module._NO_MARKUP.fullmatch(chr(point))]
    return ["".join(takes[start : start + length]) for start in range(0, len(takes), length)]


def test_text_without_markup_takes_the_shortcut_to_the_same_html() -> None:
    # Half of all data text has no markup and skips Markdown and the sanitiser: for every code point
    # the shortcut takes, the result must be what the full conversion gives.
    runs = _markup_free_runs()
    assert len(runs) > 3000 and "#" in runs[0] and "é" in runs[0]
    wrong = [run[:12] for run in runs if text_html(run) != text_module._converted(run)]
    assert wrong == []
    assert text_html("x { #id } | a | 1. y") == "x &#123; &#35;id &#125; &#124; a &#124; 1. y"


@given(st.text(alphabet=st.sampled_from(list(" \t\n#{}|:=.-+()'\"/%~^$,;?aZ09\u00e9\u4e2d\u2003\u00ad")), max_size=40))
def test_shortcut_and_full_conversion_agree_on_block_and_table_syntax(text: str) -> None:
    # Headings, lists, tables, attribute lists and rules are made of these characters.
    assert text_html(text) == (text_module._converted(text) if text else "")


def test_plain_text_keeps_names_and_escapes_quotes() -> None:
    assert plain_text('`torch._dynamo` and *args, **fast** "quoted"') == (
        "torch._dynamo and *args, fast &quot;quoted&quot;"
    )
