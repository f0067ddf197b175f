"""What only a browser shows: no external requests or console errors, search, anchors, copy
link, table sorting and filtering, the upgrade picker, the colour scheme, accessibility."""

from __future__ import annotations

import json

import pytest
from browserkit import (  # noqa: F401 (fixtures)
    AXE,
    Watch,
    browser,
    context,
    offline_site,
    screenshot,
    serve_url,
    site_url,
)
from weight import format_report, measure, over_budget

pytestmark = pytest.mark.browser

PAGES = {
    "home": "index.html",
    "release": "releases/2.12.html",
    "compare-platforms": "compare/platforms.html",
    "compare-companions": "compare/companions.html",
    "compare-lifecycle": "compare/lifecycle.html",
    "compare-feature-status": "compare/feature-status.html",
    "compare-release-facts": "compare/release-facts.html",
    "guide": "upgrade/2.8-to-2.12.html",
    "guide-index": "upgrade/index.html",
    "api": "api.html",
}


def open_page(context, url: str):
    page = context.new_page()
    watch = Watch(page)
    page.goto(url, wait_until="load")
    return page, watch


@pytest.mark.parametrize("name", PAGES)
def test_page_loads_locally_without_errors_and_passes_axe(context, site_url, name) -> None:
    for scheme in ("default", "slate"):
        page, watch = open_page(context, site_url + PAGES[name])
        page.evaluate(f"document.body.setAttribute('data-md-color-scheme', '{scheme}')")
        page.wait_for_timeout(400)  # let Material's colour transitions finish before measuring
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa']}})")
        serious = [
            {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"][:3]]}
            for v in result["violations"]
            if v["impact"] in {"serious", "critical"}
        ]
        assert serious == [], f"{name} ({scheme}): {json.dumps(serious, indent=1)}"
        screenshot(page, f"{name}-{'light' if scheme == 'default' else 'dark'}")
        assert watch.external == [], f"{name} requested {watch.external}"
        assert watch.errors == [], f"{name} logged {watch.errors}"
        page.close()


def test_no_page_type_requests_anything_outside_the_site(context, site_url) -> None:
    # Kept apart from the accessibility test so that it can run alone against another build of
    # the site (ATLAS_SITE: the CI job that builds the materialized tree with a successor).
    for name, path in PAGES.items():
        page, watch = open_page(context, site_url + path)
        page.wait_for_timeout(300)
        assert watch.external == [], f"{name} requested {watch.external}"
        page.close()


def search(page, query: str, expect: str) -> list[tuple[str, str]]:
    """Type `query` in the search box and wait for a result whose link or text contains `expect`."""
    box = page.locator("input.md-search__input")
    if not box.is_visible():  # narrow screens: the search field hides behind a button
        page.locator("label.md-header__button[for=__search]").click()
    box.click()
    box.fill("")
    box.press_sequentially(query, delay=20)  # real key events, as Material listens for them
    page.wait_for_function(
        "x => [...document.querySelectorAll('.md-search-result__item a')]"
        ".some(a => a.href.includes(x) || a.textContent.includes(x))",
        arg=expect,
        timeout=10000,
    )
    return page.eval_on_selector_all(
        ".md-search-result__item a", "els => els.map(e => [e.getAttribute('href'), e.textContent])"
    )


def test_search_finds_dotted_names_and_torchscript(context, site_url) -> None:
    page, watch = open_page(context, site_url + "index.html")
    results = search(page, "compile", "torch.compile")
    assert any("torch.compile" in text for _, text in results)
    results = search(page, "TorchScript", "#torchscript-deprecated")
    assert any("2.10.html" in href and "#torchscript-deprecated" in href for href, _ in results), [
        h for h, _ in results if "2.10" in h
    ]
    # People type CamelCase names in lower case: each must still find its item.
    for query, anchor in [
        ("torchscript", "2.10.html#torchscript-deprecated"),
        ("flexattention", "2.10.html#flex-attention-flash-backend"),
        ("linearcrossentropyloss", "2.13.html#linear-cross-entropy-loss"),
    ]:
        results = search(page, query, anchor)
        assert any(anchor in href for href, _ in results), (query, results[:5])
    assert watch.external == []


def test_anchor_scrolls_highlights_and_copy_link_copies_the_full_url(browser, site_url) -> None:
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    url = site_url + "releases/2.12.html#cuda-12-8-wheels-removed"
    # Arriving from search leaves ?h=... in the address; the copied link must not carry it.
    page.goto(site_url + "releases/2.12.html?h=cuda#cuda-12-8-wheels-removed", wait_until="load")
    heading = page.locator("#cuda-12-8-wheels-removed")
    assert heading.is_visible()
    box = heading.bounding_box()
    assert box is not None and 0 <= box["y"] < 900
    background = heading.evaluate("el => getComputedStyle(el).backgroundColor")
    assert background not in {"rgba(0, 0, 0, 0)", "transparent"}
    target = heading.locator(".atlas-copy").bounding_box()
    assert target is not None and target["width"] >= 24 and target["height"] >= 24, target
    heading.locator(".atlas-copy").click()
    assert page.evaluate("navigator.clipboard.readText()") == url
    assert heading.locator(".atlas-copy").text_content() == "Copied"
    context.close()


def test_copy_link_is_reachable_by_keyboard(context, site_url) -> None:
    page, _ = open_page(context, site_url + "releases/2.12.html")
    button = page.locator("#adagrad-fused .atlas-copy")
    button.focus()
    assert "atlas-copy" in page.evaluate("document.activeElement.className")


def test_tables_sort_and_filter(context, site_url) -> None:
    page, watch = open_page(context, site_url + "compare/lifecycle.html")
    rows = page.locator(".atlas-table tbody tr")
    total = rows.count()
    page.fill(".atlas-table-controls input", "torchscript")
    visible = page.locator(".atlas-table tbody tr:not([hidden])")
    assert 0 < visible.count() < total
    assert "torchscript" in visible.first.text_content().lower()
    page.fill(".atlas-table-controls input", "")
    page.select_option(".atlas-table-controls select >> nth=0", "onnx")
    assert all("onnx" in visible.nth(i).locator("td").nth(1).text_content() for i in range(visible.count()))
    page.select_option(".atlas-table-controls select >> nth=0", "")
    page.click("th:nth-child(3) button")  # "Removed in"
    first = page.locator(".atlas-table tbody tr").first.locator("td").nth(3).text_content()
    page.keyboard.press("Enter")  # the focused sort button toggles the order
    last = page.locator(".atlas-table tbody tr").first.locator("td").nth(3).text_content()
    assert first != last
    assert page.locator("th:nth-child(3)").get_attribute("aria-sort") == "descending"
    assert watch.errors == []


def test_upgrade_picker_opens_guides_and_refuses_downgrades(context, site_url) -> None:
    page, _ = open_page(context, site_url + "upgrade/index.html")
    page.select_option("#upgrade-picker select[name=from]", "2.12")
    page.select_option("#upgrade-picker select[name=to]", "2.8")
    page.click("#upgrade-picker button")
    assert "Downgrades are not covered" in page.text_content(".atlas-picker-message")
    page.select_option("#upgrade-picker select[name=to]", "2.12")
    page.click("#upgrade-picker button")
    assert "already on 2.12" in page.text_content(".atlas-picker-message")
    page.select_option("#upgrade-picker select[name=from]", "2.8")
    page.click("#upgrade-picker button")
    page.wait_for_url("**/upgrade/2.8-to-2.12.html")
    assert "Upgrade from PyTorch 2.8 to 2.12" in page.text_content("h1")


def test_dark_mode_is_kept_across_pages(context, site_url) -> None:
    page, _ = open_page(context, site_url + "index.html")
    page.click("form[data-md-component=palette] label:visible")
    assert page.get_attribute("body", "data-md-color-scheme") == "slate"
    page.goto(site_url + "releases/2.9.html", wait_until="load")
    assert page.get_attribute("body", "data-md-color-scheme") == "slate"


@pytest.mark.parametrize("name", PAGES)
def test_page_loads_under_mkdocs_serve(context, serve_url, name) -> None:
    page, watch = open_page(context, serve_url + PAGES[name])  # `load`: live reload long-polls
    assert page.locator("h1").count() == 1
    assert page.title().endswith("PyTorch Release Atlas")
    assert watch.external == [], f"{name} requested {watch.external}"
    assert watch.errors == [], f"{name} logged {watch.errors}"


def test_offline_build_works_from_disk(context, offline_site) -> None:
    base = offline_site.as_uri() + "/"
    for name, path in PAGES.items():
        page, watch = open_page(context, base + path)
        assert page.locator("h1").count() == 1, name
        assert watch.external == [], f"{name} requested {watch.external}"
        assert watch.errors == [], f"{name} logged {watch.errors}"
        page.close()
    page, watch = open_page(context, base + "index.html")
    results = search(page, "compile", "torch.compile")
    assert any("torch.compile" in text for _, text in results)
    page.locator(".md-search-result__item a:visible").first.click()
    page.wait_for_url("file://**/releases/*.html*")
    assert page.locator("h1").text_content().startswith("PyTorch 2.")
    page, watch = open_page(context, base + "upgrade/index.html")
    page.select_option("#upgrade-picker select[name=from]", "2.9")
    page.select_option("#upgrade-picker select[name=to]", "2.11")
    page.click("#upgrade-picker button")
    page.wait_for_url("file://**/upgrade/2.9-to-2.11.html")
    assert watch.external == [] and watch.errors == []


def test_pages_stay_within_weight_budgets(browser, real_site, site_url) -> None:
    weights = measure(browser, real_site.site, site_url)
    assert {weight.kind for weight in weights} >= {"home", "release", "compare", "guide", "guide-index", "api"}
    assert over_budget(weights) == [], format_report(weights)
    release = next(weight for weight in weights if weight.kind == "release")
    assert release.requests > 3  # the visit counted the assets and the search index, not the HTML alone


def tab_to(page, selector: str, limit: int = 400) -> None:
    """Press Tab until the focused element matches `selector`: proves it is reachable by keyboard."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"{selector} is not reachable with Tab")


def test_upgrade_picker_works_by_keyboard(context, site_url) -> None:
    page, _ = open_page(context, site_url + "upgrade/index.html")
    tab_to(page, "#upgrade-picker select[name=from]")
    page.keyboard.press("Home")
    start = page.input_value("#upgrade-picker select[name=from]")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.name") == "to"
    page.keyboard.press("End")
    end = page.input_value("#upgrade-picker select[name=to]")
    assert start != end
    tab_to(page, "#upgrade-picker button", limit=3)
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/upgrade/{start}-to-{end}.html")


def test_table_filters_and_sorting_work_by_keyboard(context, site_url) -> None:
    page, watch = open_page(context, site_url + "compare/lifecycle.html")
    rows = page.locator(".atlas-table tbody tr")
    visible = page.locator(".atlas-table tbody tr:not([hidden])")
    total = rows.count()
    tab_to(page, ".atlas-table-controls input")
    page.keyboard.type("torchscript")
    assert 0 < visible.count() < total
    page.keyboard.press("Control+A")
    page.keyboard.press("Backspace")
    assert visible.count() == total
    tab_to(page, ".atlas-table-controls select", limit=3)
    page.keyboard.press("ArrowDown")  # a closed select changes its value with the arrow keys
    chosen = page.evaluate("document.activeElement.value")
    assert chosen and 0 < visible.count() < total
    page.keyboard.press("Home")
    assert visible.count() == total
    tab_to(page, ".atlas-table th button")
    page.keyboard.press("Enter")
    assert page.locator(".atlas-table th[aria-sort=ascending]").count() == 1
    assert watch.errors == []
