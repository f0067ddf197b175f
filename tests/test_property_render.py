"""Property: every value the model accepts can be rendered, into every output, validly.

Hypothesis puts values of the shapes renderers assume, and just outside them, into one release
of the made-up dataset: Python ranges (free-threaded, three-digit minors), CUDA and component
versions of any length, counts of any size, PR numbers, compute capabilities, environments, and
text of any Unicode character. The invariant: `open_catalog` either reports problems as
`file:line:col: field: message`, or the whole site renders through the render layer
(tests/renderkit.py: every page, the JSON API, the feed, the macros) without an exception, with
a feed that is XML 1.0, JSON files that are strict JSON, and no invisible, private-use,
unassigned or control character in either. So `make check` never says "data OK" for data that
then fails to build. No MkDocs build per example: a few dozen examples take seconds.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import yaml
from conftest import FIXTURE_DATA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from renderkit import render_everything

from macros.dataset.problems import DataError
from macros.query.catalog import open_catalog

RELEASE = FIXTURE_DATA / "releases" / "9.2.yaml"
ORIGINAL = yaml.safe_load(RELEASE.read_text(encoding="utf-8"))
PROBLEM = re.compile(r"^data/\S+\.(yaml|json):\d+:\d+: \S.*?: .+")
UNWANTED = {"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"}

NUMBER = st.one_of(st.integers(-3, 400), st.integers(), st.just(10**400), st.just(10**9 + 1))
DIGITS = st.from_regex(r"\A[0-9]{1,12}\Z")
DOTTED = st.lists(DIGITS, min_size=1, max_size=6).map(".".join)
PYTHON = st.one_of(st.from_regex(r"\A3\.[0-9]{1,4}t?\Z"), DOTTED, st.text(max_size=6))
TEXT = st.text(st.characters(codec="utf-8"), min_size=0, max_size=40)
# Where each strategy goes in the release: a path into ORIGINAL (items[0] is a removal).
FIELDS: list[tuple[tuple[Any, ...], st.SearchStrategy[Any]]] = [
    (("platform", "python", "min"), PYTHON),
    (("platform", "python", "max"), PYTHON),
    (("platform", "python", "free_threaded"), st.lists(PYTHON, max_size=3)),
    (("platform", "python", "experimental"), st.lists(PYTHON, max_size=3)),
    (("platform", "cuda", "stable", 0, "version"), DOTTED),
    (("platform", "cuda", "default_wheel"), DOTTED),
    (("platform", "cuda", "stable", 0, "compute_capabilities"), st.lists(DOTTED, min_size=1, max_size=3)),
    (("platform", "rocm", "stable"), st.lists(DOTTED, min_size=1, max_size=2)),
    (("platform", "macos", "mps_min"), DOTTED),
    (("stats", "commits"), NUMBER),
    (("stats", "contributors"), NUMBER),
    (("companions", 0, "version"), DOTTED),
    (("items", 0, "prs"), st.lists(NUMBER, max_size=2)),
    (("items", 0, "planned_removal"), DOTTED),
    (("items", 0, "applies_to"), st.fixed_dictionaries({"python": st.lists(PYTHON, max_size=2)})),
    (("items", 0, "applies_to"), st.fixed_dictionaries({"gpu": st.lists(DOTTED, max_size=2)})),
    (("items", 0, "title"), TEXT),
    (("items", 0, "summary"), TEXT),
    (("summary",), TEXT),
    (("links", "notes"), st.builds("https://example.org/{}".format, TEXT)),
]


def set_at(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for part in path[:-1]:
        data = data[part]
    data[path[-1]] = value


def unwanted(text: str) -> list[str]:
    return [f"U+{ord(c):04X}" for c in text if c not in "\n\t\r" and unicodedata.category(c) in UNWANTED]


def check(release: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        shutil.copytree(FIXTURE_DATA, data)
        text = yaml.safe_dump(release, allow_unicode=True, sort_keys=False)
        (data / "releases" / "9.2.yaml").write_text(text, encoding="utf-8")
        try:
            catalog = open_catalog(data)
        except DataError as error:
            for problem in error.problems:
                line = str(problem).replace(str(data), "data")
                assert PROBLEM.match(line), line
            return
        out = render_everything(catalog)  # any exception fails the property
    ET.fromstring(out["feed.xml"].encode("utf-8"))
    for path, content in out.items():
        if path.endswith(".json"):
            json.loads(content, parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name)))
        if path.endswith((".json", ".xml")):
            assert unwanted(content) == [], path


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)


@SETTINGS
@given(st.lists(st.sampled_from(range(len(FIELDS))), min_size=1, max_size=3, unique=True), st.data())
def test_every_accepted_value_renders_into_valid_outputs(which: list[int], data: st.DataObject) -> None:
    release = yaml.safe_load(RELEASE.read_text(encoding="utf-8"))
    for index in which:
        path, strategy = FIELDS[index]
        set_at(release, path, data.draw(strategy, label=".".join(map(str, path))))
    check(release)


def test_the_unchanged_fixture_renders() -> None:
    check(ORIGINAL)
