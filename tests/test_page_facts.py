"""The facts an upgrade guide hands its script carry the vocabulary, so atlas.js restates none of it.

The guide's `<script type="application/json" id="atlas-facts">` (query/env_facts.py) is read here
from the rendered page, as the browser reads it, and compared with macros/dataset/vocabulary.py
and the model: the setup's fields are the `applies_to` lists, the variant families and their
patterns, the operating systems with their labels, NVIDIA's driver columns, each CUDA wheel's
version. The "Your setup" controls offer the same operating systems. atlas.js's rules are tested
on these facts by tests/js/atlas_rules.test.js (tests/test_js.py).
"""

from __future__ import annotations

import json
import re

import pytest
from bs4 import BeautifulSoup
from conftest import ROOT

from macros.dataset import vocabulary
from macros.dataset.model import AppliesTo
from macros.query.catalog import open_catalog
from macros.render.upgrade import render_upgrade_guide


@pytest.fixture(scope="module")
def page() -> BeautifulSoup:
    catalog = open_catalog(ROOT / "data")
    first, last = catalog.releases[0].version, catalog.releases[-1].version
    return BeautifulSoup(render_upgrade_guide(catalog, first, last).whole(), "html.parser")


@pytest.fixture(scope="module")
def facts(page: BeautifulSoup) -> dict:
    block = page.find("script", id="atlas-facts")
    assert block is not None and block.get("type") == "application/json"
    return json.loads(block.string)


def test_setup_fields_are_the_applies_to_lists(facts: dict, page: BeautifulSoup) -> None:
    fields = facts["setupFields"]
    assert [field["appliesTo"] for field in fields] == list(AppliesTo.model_fields)
    assert {field["match"] for field in fields} <= {"family", "capability", "exact"}
    controls = page.find("form", id="your-setup")
    for field in fields:  # each is a control of the form (its query parameter)
        assert controls.find(attrs={"name": field["name"]}) is not None, field["name"]


def test_variant_families_come_from_the_vocabulary(facts: dict) -> None:
    families = vocabulary.VARIANT_FAMILIES
    assert facts["variantFamilies"] == [[family.value, family.members] for family in families]
    # The names the script decides with stand for values of the vocabulary.
    assert set(facts["variants"].values()) <= {family.value for family in families} | {vocabulary.DEFAULT_WHEEL}
    # Every variant the model accepts in applies_to belongs to a family the script knows.
    for example in ("cpu", "cuda", "cu128", "rocm", "rocm7.1", "xpu", "mps", "source"):
        assert re.fullmatch(vocabulary.VARIANT_PATTERN, example), example
        assert any(re.fullmatch(members, example) for _, members in facts["variantFamilies"]), example


def test_operating_systems_and_driver_columns_come_from_the_vocabulary(facts: dict, page: BeautifulSoup) -> None:
    systems = vocabulary.OPERATING_SYSTEMS
    assert facts["os"]["labels"] == {term.value: term.label for term in systems}
    assert facts["os"]["mac"] == vocabulary.MACOS and facts["os"]["win"] == vocabulary.WINDOWS
    assert facts["driverSystems"] == list(vocabulary.DRIVER_SYSTEMS)
    for build in facts["drivers"].values():
        assert set(facts["driverSystems"]) <= set(build)
    offered = [
        (option["value"], option.text) for option in page.find("select", attrs={"name": "os"}).find_all("option")
    ]
    assert offered[1:] == [(term.value, term.label) for term in systems]


def test_cuda_versions_are_every_cuda_build_of_the_data(facts: dict) -> None:
    catalog = open_catalog(ROOT / "data")
    builds = {
        build.version
        for release in catalog.releases
        for build in release.platform.cuda.stable + release.platform.cuda.experimental
    }
    assert sorted(facts["cudaVersions"].values()) == sorted(builds)
    for variant, version in facts["cudaVersions"].items():
        assert variant == "cu" + version.replace(".", ""), variant  # the download index's naming
