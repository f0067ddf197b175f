"""No enumerated value is spelled outside the vocabulary (macros/dataset/vocabulary.py) and the data.

The vocabulary holds every closed set of the data (kinds, effects, areas, statuses, tiers,
verdicts, not-felt reasons, companions, operating systems) and the wheel variant families; the code
asks it (`CHANGE_KINDS`, `DEPRECATION`, `variant_family()`...). This test reads macros/**/*.py
with `ast` and collects the strings the code decides with: both sides of a comparison or
membership test (`kind == "deprecation"`, `kind in {"breaking", "removal"}`), dict keys, set
literals, subscripts (`Literal["python"]`, `facts["linux"]`) and what a `for` walks over
(`for kind in ("highlight", ...)`); and it parses macros/templates/*.j2 with Jinja and collects the
strings of every comparison (`{% if effect == "silent" %}`). Any of them that is a value of a
vocabulary fails the test, with file and line, unless ALLOWED explains it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from conftest import ROOT
from jinja2 import nodes

from macros.dataset import vocabulary
from macros.render.markdown import environment

MACROS = ROOT / "macros"
VOCABULARY_FILE = MACROS / "dataset" / "vocabulary.py"

#: (file under macros/, value) -> why the string there is another concept that happens to be
#: spelled like a value of a vocabulary. Keep it short: a new entry needs a real homonym.
ALLOWED: dict[tuple[str, str], str] = {
    ("dataset/checks.py", "stable"): "the CUDA block's field `stable` (stable builds), not a feature status",
    ("dataset/model.py", "python"): "code_lang: the language of an example's code, not the area",
    ("dataset/model.py", "cpp"): "code_lang: the language of an example's code, not the area",
    ("tools/ledger.py", "performance"): "a heading of the release notes ('Performance'), not an effect",
    ("tools/scan_files.py", "build"): "a folder the scanner skips (build/), not the area",
    ("tools/scan_alias.py", "cpu"): "`Tensor.cpu()`, a method that may return its tensor, not the platform",
    ("tools/scan_alias.py", "cuda"): "`Tensor.cuda()`, a method that may return its tensor, not the platform",
    ("tools/scan_alias.py", "data"): "`Tensor.data`, a view of its tensor, not the area",
    ("tools/scan_reach.py", "cpu"): "`Module.cpu()`, a method torch.nn.Module defines, not the platform",
    ("tools/scan_reach.py", "cuda"): "`Module.cuda()`, a method torch.nn.Module defines, not the platform",
    ("tools/scan_reach.py", "xpu"): "`Module.xpu()`, a method torch.nn.Module defines, not the platform",
}


def enumerated_values() -> set[str]:
    values = {value for terms, _ in vocabulary.ALL for value in terms.values}
    values |= {family.value for family in vocabulary.VARIANT_FAMILIES}
    return values | {vocabulary.TORCH, vocabulary.DEFAULT_WHEEL}


def _strings(node: ast.AST | None) -> Iterator[ast.Constant]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node
    elif isinstance(node, ast.Tuple | ast.List | ast.Set):
        for element in node.elts:
            yield from _strings(element)


def python_literals(source: str) -> Iterator[tuple[int, str]]:
    """(line, string) for each string the code decides with (see the module's docstring)."""
    seen: set[int] = set()  # a set literal inside a comparison is one use
    for node in ast.walk(ast.parse(source)):
        found: list[ast.Constant] = []
        if isinstance(node, ast.Compare):
            for operand in (node.left, *node.comparators):
                found += _strings(operand)
        elif isinstance(node, ast.Dict):
            for key in node.keys:
                found += _strings(key)
        elif isinstance(node, ast.Set):
            found += _strings(node)
        elif isinstance(node, ast.For | ast.comprehension):
            found += _strings(node.iter)
        elif isinstance(node, ast.Subscript):
            found += _strings(node.slice)
        elif isinstance(node, ast.MatchValue):
            found += _strings(node.value)
        for constant in found:
            if id(constant) not in seen:
                seen.add(id(constant))
                yield constant.lineno, constant.value


def _template_strings(node: nodes.Node) -> Iterator[tuple[int, str]]:
    if isinstance(node, nodes.Const) and isinstance(node.value, str):
        yield node.lineno, node.value
    elif isinstance(node, nodes.Tuple | nodes.List):
        for item in node.items:
            yield from _template_strings(item)


def template_literals(source: str) -> Iterator[tuple[int, str]]:
    """(line, string) for each string a template compares with (`==`, `!=`, `in`)."""
    for compare in environment().parse(source).find_all(nodes.Compare):
        yield from _template_strings(compare.expr)
        for operand in compare.ops:
            yield from _template_strings(operand.expr)


def spelled_values() -> list[str]:
    values = enumerated_values()
    found = []
    for path in sorted(MACROS.rglob("*.py")):
        if path == VOCABULARY_FILE:
            continue
        name = path.relative_to(MACROS).as_posix()
        for line, text in python_literals(path.read_text(encoding="utf-8")):
            if text in values and (name, text) not in ALLOWED:
                found.append(f"macros/{name}:{line}: {text!r}")
    for path in sorted((MACROS / "templates").glob("*.j2")):
        for line, text in template_literals(path.read_text(encoding="utf-8")):
            if text in values:
                found.append(f"macros/templates/{path.name}:{line}: {text!r}")
    return found


def test_no_enumerated_value_is_spelled_outside_the_vocabulary() -> None:
    found = spelled_values()
    assert not found, "ask macros/dataset/vocabulary.py instead of spelling these values:\n" + "\n".join(found)


def test_every_allowed_homonym_is_still_there() -> None:
    # An entry whose string is gone would silently allow the value again in that file.
    for (name, text), why in ALLOWED.items():
        spelled = {value for _, value in python_literals((MACROS / name).read_text(encoding="utf-8"))}
        assert text in spelled, f"macros/{name}: {text!r} is no longer there ({why}): drop it from ALLOWED"


def test_the_checks_see_a_planted_literal() -> None:
    values = enumerated_values()
    planted_python = (
        'def f(item):\n    if item.kind == "deprecation" or item.effect in {"silent", "error"}:\n        return 1\n'
    )
    assert [(line, text) for line, text in python_literals(planted_python) if text in values] == [
        (2, "deprecation"),
        (2, "silent"),
        (2, "error"),
    ]
    planted_template = '{% if item.effect == "silent" %}x{% elif item.os in ("linux", "windows") %}y{% endif %}'
    assert sorted(text for _, text in template_literals(planted_template) if text in values) == [
        "linux",
        "silent",
        "windows",
    ]
