"""Browser tests of the plan ("the newest PyTorch that runs this machine") on the built site.

Every output of the corpus (tests/js/corpus/) is pasted into the guide a reader would open and
into the guide index, in chromium. The plan box must come first in the answer, say what
`python -m macros doctor --to B` says for the same output (query/collect_env.py,
query/planner.py, render/doctor.py: the command line's code, run here), and the guide's install
box must offer only B's wheel that runs the machine, or no command and the reason. Where the
corpus has a plan worked out by hand (`plan` in expected.json) the page must give it. The time
from the paste to the painted plan is measured and reported (test-artifacts/plan_timing.txt),
not asserted: the machine is shared.
"""

from __future__ import annotations

import json
import statistics

from browserkit import Watch, browser, context, site_url  # noqa: F401 (fixtures)
from conftest import ROOT
from corpuskit import CORPUS, guide_for

from macros.query.catalog import open_catalog
from macros.query.collect_env import machine_of, parse_collect_env
from macros.query.planner import evaluate, plan, plan_tables
from macros.render.doctor import sentences

#: Paste as a reader does (the value arrives whole, one input event), then time until the next frame.
PASTE_AND_TIME = """(text) => new Promise((done) => {
  const box = document.querySelector('[name=collect_env]');
  const start = performance.now();
  box.value = text;
  box.dispatchEvent(new Event('input', {bubbles: true}));
  const script = performance.now() - start;
  requestAnimationFrame(() => {
    const plan = document.querySelector('.atlas-plan');
    done({ms: performance.now() - start, script, shown: !plan.hidden && plan.textContent.length > 0});
  });
})"""

#: What the plan box says, sentence by sentence, as a reader reads it.
PLAN_TEXT = """() => {
  const box = document.querySelector('.atlas-plan');
  const parts = [];
  box.querySelectorAll('.atlas-plan-head, pre.atlas-plan-command code, li').forEach((node) => {
    parts.push(node.matches('li') ? node.firstChild.textContent : node.textContent);
  });
  return parts;
}"""


def _open_paste(page, url: str) -> None:
    page.goto(url, wait_until="load")
    page.locator(".atlas-setup-paste summary").first.click()


def test_the_plan_comes_first_and_says_what_the_command_line_says(context, site_url) -> None:
    catalog = open_catalog(ROOT / "data")
    tables = plan_tables(catalog)
    versions = [release.version for release in catalog.releases]
    cases = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))["cases"]
    page = context.new_page()
    watch = Watch(page)
    wrong: dict[str, list[str]] = {}
    timings: list[float] = []
    scripts: list[float] = []
    right_by_hand, by_hand = [], []
    for name, case in cases.items():
        text = (CORPUS / f"{name}.txt").read_text(encoding="utf-8")
        reading = parse_collect_env(text)
        if not reading.os:
            continue
        start, end = guide_for(case["expect"]["torch"], versions)
        machine = machine_of(reading, catalog.gpus)
        answer = plan(machine, tables)
        said = sentences(answer, machine, tables, to=end, torch=reading.torch_full, build=reading.build)
        _open_paste(page, f"{site_url}upgrade/{start}-to-{end}.html")
        timed = page.evaluate(PASTE_AND_TIME, text)
        timings.append(timed["ms"])
        scripts.append(timed["script"])
        page.wait_for_function("() => !document.querySelector('.atlas-env-read').hidden")
        why = []
        if not timed["shown"]:
            why.append("no plan painted in the frame after the paste")
        first = page.evaluate("() => document.querySelector('.atlas-answer').firstElementChild.className")
        if first != "atlas-plan":
            why.append(f"the answer box starts with {first}, not the plan")
        shown = page.evaluate(PLAN_TEXT)
        if shown != said:
            why.append(f"page says {shown}, the command line {said}")
        rows = page.eval_on_selector_all(
            ".atlas-install tr[data-variant]", "rs => rs.filter(r => !r.hidden).map(r => r.dataset.variant)"
        )
        step = evaluate(next(r for r in tables["releases"] if r["version"] == end), machine, tables)
        if not step.wheel:
            if rows:
                why.append(f"{end} does not run here, yet the install box offers {rows}")
        elif machine.os != "macos" and rows != [step.wheel]:
            why.append(f"install box offers {rows}, the plan's {end} wheel is {step.wheel}")
        hand = case.get("plan")
        if hand is not None:
            by_hand.append(name)
            newest = answer.newest
            got = {"newest": newest.patch if newest else None, "wheel": newest.wheel if newest else None}
            if got == hand and f"{got['newest']} (wheel {got['wheel']})" in (shown[0] if shown else ""):
                right_by_hand.append(name)
            else:
                why.append(f"plan {got}, worked out by hand {hand}")
        if why:
            wrong[name] = why
    lines = [
        f"{len(timings) - len(wrong)} of {len(timings)} pastes: the page's plan is the command line's",
        f"{len(right_by_hand)} of {len(by_hand)} plans worked out by hand given",
        f"paste to the frame that paints the plan: median {statistics.median(timings):.1f} ms,"
        f" 90th percentile {statistics.quantiles(timings, n=10)[-1]:.1f} ms, max {max(timings):.1f} ms;"
        f" of which reading and planning (script): median {statistics.median(scripts):.1f} ms,"
        f" max {max(scripts):.1f} ms, over {len(timings)} pastes",
    ]
    lines += [f"- {name}: {'; '.join(why)}" for name, why in wrong.items()]
    artifacts = ROOT / "test-artifacts"
    artifacts.mkdir(parents=True, exist_ok=True)
    (artifacts / "plan_timing.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    assert not wrong, "\n".join(lines)
    assert watch.errors == [] and watch.external == [], watch.errors + watch.external
    assert by_hand, "the corpus has no plan worked out by hand"


def test_the_guide_index_answers_first_and_its_links_carry_the_machine(context, site_url) -> None:
    page = context.new_page()
    watch = Watch(page)
    _open_paste(page, f"{site_url}upgrade/index.html")
    text = (CORPUS / "pt144536-4xv100-nightly-2.6.txt").read_text(encoding="utf-8")
    page.evaluate(PASTE_AND_TIME, text)
    head = page.locator(".atlas-plan .atlas-plan-head").inner_text()
    assert head == "The newest PyTorch that runs this machine: 2.14.1 (wheel cu126)."
    assert page.locator(".atlas-plan pre code").inner_text().endswith("/whl/cu126")
    href = page.locator('.md-content a[href*="2.6-to-2.15"]').first.get_attribute("href")
    assert "driver=560.35.03" in href and "gpu=7.0" in href
    # The guide opened from the index reads the machine from the address: the same plan, no paste.
    page.goto(f"{site_url}upgrade/{href}", wait_until="load")
    assert (
        page.locator(".atlas-plan .atlas-plan-head")
        .inner_text()
        .startswith("The newest PyTorch that runs this machine: 2.14.1 (wheel cu126).")
    )
    assert (
        page.eval_on_selector_all(
            ".atlas-install tr[data-variant]", "rs => rs.filter(r => !r.hidden).map(r => r.dataset.variant)"
        )
        == []
    )
    release_link = page.locator('.md-content a[href*="releases/2.14.html"]').first.get_attribute("href")
    assert "driver=560.35.03" in release_link
    assert watch.errors == [] and watch.external == []
