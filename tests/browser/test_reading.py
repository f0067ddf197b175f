"""Reading the tables and pictures as people do, measured by geometry in a real browser.

At 1280 x 800 the newest release is in view without scrolling sideways; at 390 x 844 a table keeps its
heading row and first column in view while it scrolls, API names wrap only at dots, and the
lifecycle picture keeps legible labels, a legend and a link on every bar.
"""

from __future__ import annotations

import pytest
from browserkit import Watch, browser, screenshot, site_url  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

WIDE = {"width": 1280, "height": 800}
NARROW = {"width": 390, "height": 844}


def open_at(browser, url: str, viewport: dict, scheme: str = "light"):
    context = browser.new_context(viewport=viewport, color_scheme=scheme)
    page = context.new_page()
    watch = Watch(page)
    page.goto(url, wait_until="load")
    return context, page, watch


@pytest.mark.parametrize("name", ["platforms", "feature-status"])
def test_newest_release_is_in_view_without_scrolling_sideways(browser, site_url, name: str) -> None:
    context, page, watch = open_at(browser, f"{site_url}compare/{name}.html", WIDE)
    heading = page.locator(".atlas-table thead th", has_text="2.13").first
    box = heading.bounding_box()
    wrap = page.locator(".atlas-table .md-typeset__scrollwrap").first
    frame = wrap.bounding_box()
    assert box is not None and frame is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= min(WIDE["width"], frame["x"] + frame["width"]) + 1, box
    assert wrap.evaluate("el => el.scrollLeft") == 0
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        screenshot(page, f"reading-{name}-1280-{scheme}")
    assert watch.external == [] and watch.errors == []
    context.close()


def test_table_keeps_heading_row_and_first_column_in_view(browser, site_url) -> None:
    context, page, _ = open_at(browser, f"{site_url}compare/platforms.html", NARROW)
    wrap = page.locator(".atlas-table .md-typeset__scrollwrap").first
    frame = wrap.bounding_box()
    assert frame is not None
    assert wrap.evaluate("el => el.scrollWidth > el.clientWidth"), "the table should need to scroll at 390 px"
    wrap.evaluate("el => el.scrollTo(300, 0)")
    first = page.locator(".atlas-table tbody tr").first.locator("td").first.bounding_box()
    assert first is not None and abs(first["x"] - frame["x"]) <= 2, (first, frame)
    screenshot(page, "reading-platforms-390-scrolled")
    context.close()

    context, page, _ = open_at(browser, f"{site_url}compare/lifecycle.html", NARROW)
    wrap = page.locator(".atlas-table .md-typeset__scrollwrap").first
    wrap.scroll_into_view_if_needed()
    wrap.evaluate("el => el.scrollTo(0, 400)")
    frame = wrap.bounding_box()
    header = page.locator(".atlas-table thead th").first.bounding_box()
    assert frame is not None and header is not None
    assert abs(header["y"] - frame["y"]) <= 2, (header, frame)
    context.close()


# Positions where a code element's text moves to a new line, and the character before each.
LINE_BREAKS = """
codes => codes.flatMap(code => {
  const breaks = [];
  let lastTop = null, previous = '';
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange();
      range.setStart(node, i); range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (!rect || node.data[i].trim() === '') { previous = node.data[i]; continue; }
      if (lastTop !== null && rect.top > lastTop + 2) breaks.push([code.textContent, previous]);
      lastTop = rect.top; previous = node.data[i];
    }
  }
  return breaks;
})
"""


def test_api_names_wrap_only_at_dots(browser, site_url) -> None:
    context, page, _ = open_at(browser, f"{site_url}compare/lifecycle.html", NARROW)
    breaks = page.eval_on_selector_all(".atlas-table td code", LINE_BREAKS)
    assert breaks, "at 390 px some long API name should wrap"
    assert all(before in {".", " ", "-", "/", ","} for _, before in breaks), [b for b in breaks if b[1] != "."][:5]
    context.close()


def test_status_cells_are_colour_coded_and_still_say_their_status(browser, site_url) -> None:
    for scheme in ("light", "dark"):
        context, page, _ = open_at(browser, f"{site_url}compare/feature-status.html", WIDE, scheme)
        cells = page.eval_on_selector_all(
            ".atlas-table td .atlas-cell",
            "els => els.map(el => [el.innerText.split(' (+')[0], getComputedStyle(el).backgroundColor])",
        )
        by_label: dict[str, set[str]] = {}
        for label, colour in cells:
            by_label.setdefault(label, set()).add(colour)
        # Each status shown is written out and has one colour of its own (removed and changed share red).
        assert {"api-unstable", "prototype", "not labelled"} <= by_label.keys(), by_label.keys()
        assert all(len(colours) == 1 for colours in by_label.values()), by_label
        statuses = [
            s for s in ("stable", "beta", "prototype", "api-unstable", "not labelled", "deprecated") if s in by_label
        ]
        colours = [next(iter(by_label[s])) for s in statuses]
        assert len(set(colours)) == len(colours), by_label
        assert "rgba(0, 0, 0, 0)" not in colours
        context.close()


def test_lifecycle_picture_is_legible_explained_and_linked(browser, site_url) -> None:
    context, page, _ = open_at(browser, f"{site_url}compare/lifecycle.html", NARROW)
    labels = page.locator("svg.atlas-chart text.atlas-label")
    heights = labels.evaluate_all("els => els.map(el => el.getBoundingClientRect().height)")
    font = labels.first.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
    assert font >= 12 and min(heights) >= 12, (font, min(heights))
    legend = page.locator("figure.atlas-figure figcaption").inner_text()
    assert "dashed" in legend and "still deprecated" in legend
    bars = page.locator("svg.atlas-chart a")
    rows = page.locator(".atlas-table tbody tr").count()
    assert bars.count() == rows
    href = bars.first.get_attribute("href")
    assert href and href.startswith("../releases/") and ".html#" in href
    bars.first.scroll_into_view_if_needed()
    bars.first.click()
    page.wait_for_url("**/releases/**")
    assert page.url.endswith(href.removeprefix(".."))
    context.close()


def test_install_commands_have_copy_buttons(browser, site_url) -> None:
    context = browser.new_context(viewport=WIDE, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(f"{site_url}releases/2.9.html#install", wait_until="load")
    commands = page.locator(".atlas-install td code")
    assert commands.count() >= 4
    button = commands.first.locator("xpath=..").locator(".atlas-copy")
    box = button.bounding_box()
    assert box is not None and box["width"] >= 24 and box["height"] >= 24
    button.click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == commands.first.inner_text()
    assert "torchaudio==2.9.0" in copied
    context.close()
