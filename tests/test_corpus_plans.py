"""The hand-worked plans of the collect_env corpus (tests/js/corpus/expected.json) are well formed.

Every case says what the newest PyTorch that runs the pasted machine is (`plan`), or why the paste
does not say enough (`plan_omitted`). The plans are worked out by hand, and the planner's tests
compare its answers with them, so a plan that names a release or a wheel the data does not have
would make those tests check against nothing. This test checks the form only, against the data:
the release is the newest patch of a covered release, the wheel is one that release publishes
(the macOS arm64 wheels are `mps` or `cpu`), and every plan gives its reason. It does not work
out any plan itself.
"""

from __future__ import annotations

import json
import re

import pytest
from conftest import ROOT

from macros.query.catalog import open_catalog
from macros.query.install import install_variants, newest_patch

CORPUS = ROOT / "tests" / "js" / "corpus"
CASES = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))["cases"]
CATALOG = open_catalog(ROOT / "data")
RELEASES = {newest_patch(release): release for release in CATALOG.releases}


def test_every_paste_has_a_case_and_every_case_a_paste() -> None:
    pastes = {path.stem for path in CORPUS.glob("*.txt")}
    unpaired = f"without a case: {sorted(pastes - set(CASES))}; without a paste: {sorted(set(CASES) - pastes)}"
    assert pastes == set(CASES), unpaired
    assert len(CASES) >= 80


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_case_has_a_plan_or_says_why_not(name: str) -> None:
    case = CASES[name]
    assert ("plan" in case) != ("plan_omitted" in case), f"{name}: exactly one of plan and plan_omitted"
    if "plan_omitted" in case:
        assert case["plan_omitted"].strip(), f"{name}: plan_omitted gives no reason"
        return
    plan = case["plan"]
    assert set(plan) == {"newest", "wheel", "why"}, f"{name}: plan keys {sorted(plan)}"
    assert plan["why"].strip() and "\n" not in plan["why"], f"{name}: why must be one line"
    if plan["newest"] is None:
        assert plan["wheel"] is None, f"{name}: no release, so no wheel"
        return
    assert re.fullmatch(r"2\.\d{1,2}\.\d+", plan["newest"]), f"{name}: newest {plan['newest']!r} is not X.Y.Z"
    release = RELEASES.get(plan["newest"])
    assert release, f"{name}: {plan['newest']} is not the newest patch of a release in data/releases"
    wheels = {variant.variant for variant in install_variants(release)}
    expect = case["expect"]
    if expect["os"] == "macos" and expect.get("arch") == "arm64":
        wheels = {"mps", "cpu"}
    assert plan["wheel"] in wheels, f"{name}: {release.version} has no {plan['wheel']!r} wheel ({sorted(wheels)})"
