"""The guide answers first, on any screen (issue: "The guide answers first").

A reader with a setup sees on the first screen how many changes reach it and how, whether the
target's wheel runs their GPU, and the command that installs the one that does. No page scrolls
sideways on a phone; guide rows become cards whose "What to do" needs no panning; tables with a
column per release show the range of releases the reader picks. Every expectation comes from
the data, not from the page.
"""

from __future__ import annotations

from collections import Counter

import pytest
from browserkit import browser, site_url  # noqa: F401 (fixtures)
from conftest import ROOT
from test_pages import NARROW, PAGES, WIDE

from macros.query.catalog import open_catalog
from macros.query.gpu import gpu_support, known_gpus
from macros.query.guide import upgrade_guide
from macros.query.install import install_variants

pytestmark = pytest.mark.browser

START, END = "2.9", "2.12"
SETUP = {"variant": "cu128", "os": "linux", "gpu": "7.0"}
GUIDE = f"upgrade/{START}-to-{END}.html?" + "&".join(f"{name}={value}" for name, value in SETUP.items())


def _applies(item, setup: dict[str, str]) -> bool:
    """The personal guide's rule, from the model: a field of applies_to that names values must
    name the reader's (a CUDA variant also matches "cuda")."""
    applies = item.applies_to
    if applies is None:
        return True
    variant = setup["variant"]
    family = {"cuda"} if variant.startswith("cu") else {"rocm"} if variant.startswith("rocm") else set()
    checks = [
        (applies.variants, {setup["variant"], *family}),
        (applies.os, {setup["os"]}),
        (applies.gpu, {setup["gpu"]}),
    ]
    return all(not values or not any(mine) or bool(set(values) & mine) for values, mine in checks)


def expected_answer() -> tuple[int, int, Counter, str]:
    catalog = open_catalog(ROOT / "data")
    guide = upgrade_guide(catalog, START, END)
    reaching = [entry for entry in guide.changes if _applies(entry.item, SETUP)]
    target = catalog.release(END)
    support = gpu_support(target, known_gpus(catalog.gpus))
    running = [v for v in support.variants if support.runs(v, SETUP["gpu"]).ok]
    command = next(v.command for v in install_variants(target, latest_patch=True) if v.variant in running)
    return len(guide.changes), len(reaching), Counter(entry.item.effect for entry in reaching), command


def test_with_a_setup_the_first_screen_answers_counts_gpu_and_install(browser, site_url) -> None:
    total, reaching, by_effect, command = expected_answer()
    assert reaching < total, "pick a setup some changes do not reach"
    page = browser.new_page(viewport=WIDE)
    page.goto(site_url + GUIDE)
    answer = page.locator(".atlas-answer")
    assert page.locator(".atlas-answer-counts").inner_text().startswith(f"{reaching} of the {total} changes reach")
    shown = {
        item.get_attribute("data-effect"): int(item.locator("strong").inner_text())
        for item in answer.locator(".atlas-answer-effects li[data-effect]").all()
        if item.is_visible()
    }
    assert shown == {effect: count for effect, count in by_effect.items() if count}
    gpu = page.locator(".atlas-gpu-answer")
    assert gpu.is_visible() and "7.0" in gpu.inner_text()
    assert page.locator(".atlas-answer-install code").inner_text() == command
    # All of it within the first 800 px: no scrolling needed.
    for selector in (".atlas-answer-counts", ".atlas-gpu-answer", ".atlas-answer-install pre"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["y"] + box["height"] <= WIDE["height"], f"{selector} is below the first screen"
    page.close()


def test_without_a_setup_the_answer_gives_the_whole_range(browser, site_url) -> None:
    total, _, _, _ = expected_answer()
    page = browser.new_page(viewport=WIDE)
    page.goto(site_url + f"upgrade/{START}-to-{END}.html")
    counts = page.locator(".atlas-answer-counts").inner_text()
    assert counts.startswith(f"{total} changes reach code or installs that move from {START} to {END}")
    assert not page.locator(".atlas-answer-install").is_visible()
    page.close()


@pytest.mark.parametrize("name", [*PAGES, "guide-with-setup"])
def test_no_page_scrolls_sideways_on_a_phone(browser, site_url, name: str) -> None:
    page = browser.new_page(viewport=NARROW)
    page.goto(site_url + (GUIDE if name == "guide-with-setup" else PAGES[name]))
    page.wait_for_timeout(100)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= NARROW["width"], f"{name} is {width} px wide at {NARROW['width']} px"
    page.close()


def test_guide_rows_are_cards_on_a_phone_with_what_to_do_in_view(browser, site_url) -> None:
    page = browser.new_page(viewport=NARROW)
    page.goto(site_url + f"upgrade/{START}-to-{END}.html")
    cells = page.locator("table.atlas-changes td.atlas-todo").all()[:10]
    assert cells
    for cell in cells:
        cell.scroll_into_view_if_needed()
        box = cell.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= NARROW["width"]
        assert cell.evaluate("e => getComputedStyle(e, '::before').content") == '"What to do: "'
    page.close()


def test_a_table_with_a_column_per_release_shows_the_chosen_range(browser, site_url) -> None:
    versions = [release.version for release in open_catalog(ROOT / "data").releases]
    low, high = versions[-3], versions[-1]
    page = browser.new_page(viewport=WIDE)
    page.goto(site_url + "compare/platforms.html")
    page.select_option("[aria-label='Releases from']", low)
    page.select_option("[aria-label='Releases up to']", high)
    headers = [th.inner_text().strip() for th in page.locator(".atlas-table thead th").all() if th.is_visible()]
    assert headers[1:] == list(reversed(versions[-3:]))
    page.close()


def test_a_table_whose_every_row_is_folded_does_not_show_its_heading_row_alone(browser, site_url) -> None:
    catalog = open_catalog(ROOT / "data")
    setup = {"variant": "mps", "os": "macos", "gpu": ""}
    # Guides with a section none of whose entries concern a Mac (from the data, not the page).
    candidates = []
    for start, end in [(r.version, n.version) for r, n in zip(catalog.releases, catalog.releases[1:], strict=False)]:
        guide = upgrade_guide(catalog, start, end)
        sections = [guide.install, guide.regressions, guide.silent()]  # not plan_for: it is folded anyway
        if any(entries and not any(_applies(e.item, setup) for e in entries) for entries in sections):
            candidates.append((start, end))
    assert candidates, "some guide has a section that concerns no Mac"
    page = browser.new_page(viewport=WIDE)
    for start, end in candidates[:3]:
        page.goto(site_url + f"upgrade/{start}-to-{end}.html?variant=mps&os=macos")
        tables = page.locator("table.atlas-guide").all()
        folded_whole = 0
        for table in tables:
            rows = table.locator("tbody tr").count()
            folded = table.locator("tbody tr.atlas-not-yours").count()
            if rows and folded == rows:
                folded_whole += 1
                assert not table.is_visible(), f"{start}-to-{end}: a table of folded rows still shows"
                toggle = table.locator("xpath=following-sibling::button[1]")
                toggle.click()
                assert table.is_visible() and table.locator("tbody tr").first.is_visible()
                toggle.click()
                assert not table.is_visible()
        assert folded_whole, f"{start}-to-{end}: expected a wholly folded table"
    page.close()
