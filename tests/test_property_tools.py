"""Property: each contributor command's input, beside the data's (tests/test_property_data.py).

Hypothesis writes notes files, command-line values, macro arguments, output paths, pages and
strings of any Unicode character. The invariants: a command either does its work or refuses in
one line (`LedgerToolError`, `UnsafeFile`, `MaterializeError`, `MacroCallError`), never another
exception; whatever the ledger tool would write loads back with the loader's own rules; script
JSON is inert and reads back equal; what the build prints holds no control character.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import FIXTURE_DATA
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from macros import MacroCallError, define_env
from macros.dataset.load import load_file
from macros.dataset.model import Ledger
from macros.dataset.problems import Problem, visible
from macros.dataset.safe_io import UnsafeFile, read_text, write_text
from macros.dataset.text import script_json
from macros.query.catalog import open_catalog
from macros.tools.ledger import LedgerToolError, parse_notes, render
from macros.tools.materialize import SOURCE_FOLDERS, MaterializeError, check_out

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)

#: Lines in the shape of release notes, and lines of anything.
NOTE_LINE = st.one_of(
    st.sampled_from(
        ["# Bug fixes", "# Highlights", "## Area", "### Sub", "<table>", "<tr><td>x (#5001)</td></tr>", "```"]
    ),
    st.builds(lambda head, text: f"{head} {text}", st.sampled_from(["#", "##", "-", "  -", "*", "**"]), st.text()),
    st.text(),
)
NOTES = st.lists(NOTE_LINE, max_size=30).map("\n".join)


@SETTINGS
@given(notes=NOTES)
def test_any_notes_give_a_ledger_the_loader_reads_back_or_one_line(notes: str) -> None:
    try:
        entries = parse_notes(notes, "notes.md")
    except LedgerToolError as error:
        assert "\n" not in str(error) and str(error).startswith("notes.md:")
        return
    if not entries:
        return
    ledger = Ledger(release="9.2", notes="notes", entries=entries)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "9.2.yaml"
        path.write_text(render(ledger), encoding="utf-8")
        loaded, _, problems = load_file(path, Ledger)
    assert problems == [] and loaded == ledger


@SETTINGS
@given(content=st.binary(max_size=300), limit=st.integers(min_value=0, max_value=400))
def test_read_text_returns_the_text_or_refuses_in_one_line(content: bytes, limit: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "input.md"
        path.write_bytes(content)
        try:
            text = read_text(path, limit=limit)
        except UnsafeFile as error:
            assert "\n" not in str(error) and "input.md" in str(error)
            assert len(content) > limit or not _is_utf8(content)
        else:
            assert text.encode("utf-8") == content and len(content) <= limit


def _is_utf8(content: bytes) -> bool:
    try:
        content.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


PART = st.one_of(
    st.text(alphabet=st.characters(blacklist_characters="/\x00", blacklist_categories=["Cs"]), min_size=1),
    st.just("n" * 300),  # longer than a file name may be
)


@SETTINGS
@given(parts=st.lists(st.one_of(PART, st.sampled_from([".", "..", "docs", "data", "macros", "link"])), max_size=4))
@example(parts=["link", "..", "0"])  # found by a CI run: `link/..` is outside/.., not the project
def test_writes_land_inside_the_project_through_no_link_or_are_refused(parts: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "project"
        (root / "docs").mkdir(parents=True)
        outside = Path(folder) / "outside"
        outside.mkdir()
        (root / "link").symlink_to(outside, target_is_directory=True)
        target = root.joinpath(*parts) if parts else root
        try:
            write_text(target, "x", root=root)
        except UnsafeFile as error:
            assert "\n" not in str(error)
        else:
            real = target.resolve()
            assert real.is_relative_to(root.resolve()) and real.read_text() == "x"
        assert list(outside.iterdir()) == []


@SETTINGS
@given(parts=st.lists(st.one_of(PART, st.sampled_from(SOURCE_FOLDERS), st.just("..")), min_size=1, max_size=3))
def test_materialize_never_accepts_an_output_inside_the_sources(parts: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder) / "project"
        for name in SOURCE_FOLDERS:
            (project / name).mkdir(parents=True)
        out = project.joinpath(*parts)
        try:
            check_out(project, out)
        except MaterializeError as error:
            assert "\n" not in str(error)
            return
        resolved = out.resolve()
        for name in SOURCE_FOLDERS:
            assert not resolved.is_relative_to((project / name).resolve())
        assert resolved != project.resolve()


@pytest.fixture(scope="module")
def macros() -> dict:
    found: dict = {}
    env = SimpleNamespace(
        conf={"extra": {"atlas_catalog": open_catalog(FIXTURE_DATA)}},
        macro=lambda function, name: found.__setitem__(name, function),
    )
    define_env(env)
    return found


VALUE = st.one_of(st.none(), st.integers(), st.text(max_size=20), st.lists(st.integers(), max_size=2), st.floats())


@SETTINGS
@given(
    name=st.sampled_from(["release_list", "latest_release", "known_gaps", "upgrade_index"]),
    args=st.lists(VALUE, max_size=2),
    kwargs=st.dictionaries(st.sampled_from(["page", "pages", "x"]), VALUE, max_size=2),
)
def test_a_macro_with_any_arguments_renders_or_refuses_in_one_line(
    macros: dict, name: str, args: list, kwargs: dict
) -> None:
    try:
        text = macros[name](*args, **kwargs)
    except MacroCallError as error:
        assert "\n" not in str(error) and str(error).startswith("{{ " + name + "(")
    else:
        assert isinstance(text, str)


JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text()),
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=10,
)


@SETTINGS
@given(value=JSON)
def test_script_json_is_inert_and_reads_back_equal(value: object) -> None:
    text = script_json(value)
    assert not set(text) & set("<>&\u2028\u2029")
    assert json.loads(text) == json.loads(json.dumps(value))


@SETTINGS
@given(file=st.text(min_size=1), field=st.text(), message=st.text())
def test_what_the_build_prints_of_a_problem_holds_no_control_character(file: str, field: str, message: str) -> None:
    shown = str(Problem(file, 1, 1, field, message))
    assert shown.isprintable()
    assert visible(shown) == shown
