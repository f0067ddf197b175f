"""Weight report: for each page type, the HTML size and what a first visit transfers, measured in
chromium with an empty cache, checked against the budgets.

    make weight                                  (builds the site into a temporary folder)
    .venv/bin/python tests/browser/weight.py --site site

For each type the heaviest page is the one visited. Exit status 1 when a budget is exceeded.
The browser tests call `measure` and `over_budget` on the real site too.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[2]))  # the project's `macros` package
from chromium import launch, serve_directory

from macros.query.site import ASSET_BUDGET, FIRST_VISIT_BUDGET, KB, PAGE_TYPES, type_of

# Page types, their order and their budgets come from the page-type registry (macros/query/site.py).
ORDER = [page_type.name for page_type in PAGE_TYPES]
# 404.html links its assets from the hosted site's root (site_url), so it is skipped here.
SKIPPED = {"404.html"}


def page_type(relative: str) -> str:
    return type_of(relative).name


@dataclass(frozen=True)
class PageWeight:
    kind: str
    pages: int
    heaviest: str  # path of the page visited, relative to the site root
    html_bytes: int
    visit_bytes: int  # transferred (compressed as the host sends it)
    visit_raw_bytes: int  # the same responses uncompressed
    requests: int
    largest_asset: tuple[str, int]  # (path, bytes) of the biggest response in the visit
    external: tuple[str, ...]  # requests that left the machine (must stay empty)


def heaviest_pages(site: Path) -> dict[str, tuple[int, Path]]:
    """Per page type: how many pages it has and the largest one."""
    by_type: dict[str, list[Path]] = {}
    for path in sorted(site.rglob("*.html")):
        relative = path.relative_to(site).as_posix()
        if relative not in SKIPPED and "assets" not in path.relative_to(site).parts:
            by_type.setdefault(page_type(relative), []).append(path)
    return {
        kind: (len(pages), max(pages, key=lambda path: path.stat().st_size))
        for kind, pages in sorted(by_type.items(), key=lambda entry: ORDER.index(entry[0]))
    }


def first_visit(browser, url: str) -> tuple[int, int, int, tuple[str, int], tuple[str, ...]]:
    """Bytes transferred by a visit with an empty cache, including what scripts fetch after load
    (the search index), the same uncompressed, the request count, the largest response (as
    transferred) and external requests."""
    context = browser.new_context()
    finished: list = []
    external: list[str] = []

    def route(route) -> None:
        host = urlparse(route.request.url).hostname
        if urlparse(route.request.url).scheme in {"data", "blob"} or host in {"127.0.0.1", "localhost"}:
            route.continue_()
        else:
            external.append(route.request.url)
            route.abort()

    context.route("**/*", route)
    context.on("requestfinished", lambda request: finished.append(request))
    page = context.new_page()
    page.goto(url, wait_until="load")
    page.wait_for_load_state("networkidle")
    sizes = [(urlparse(request.url).path, request.sizes()["responseBodySize"]) for request in finished]
    raw = sum(len(response.body()) for request in finished if (response := request.response()) is not None)
    context.close()
    largest = max(sizes, key=lambda entry: entry[1], default=("", 0))
    return sum(size for _, size in sizes), raw, len(sizes), largest, tuple(external)


def measure(browser, site: Path, base_url: str) -> list[PageWeight]:
    weights = []
    for kind, (count, path) in heaviest_pages(site).items():
        relative = path.relative_to(site).as_posix()
        total, raw, requests, largest, external = first_visit(browser, base_url + relative)
        weights.append(PageWeight(kind, count, relative, path.stat().st_size, total, raw, requests, largest, external))
    return weights


def over_budget(weights: list[PageWeight]) -> list[str]:
    problems = []
    for weight in weights:
        html_budget = type_of(weight.heaviest).html_budget
        if html_budget is not None and weight.html_bytes > html_budget:
            problems.append(f"{weight.heaviest}: HTML {kb(weight.html_bytes)} > {kb(html_budget)}")
        if weight.visit_bytes > FIRST_VISIT_BUDGET:
            problems.append(f"{weight.heaviest}: first visit {kb(weight.visit_bytes)} > {kb(FIRST_VISIT_BUDGET)}")
        path, size = weight.largest_asset
        if size > ASSET_BUDGET:
            problems.append(f"{weight.heaviest}: {path} is {kb(size)} > {kb(ASSET_BUDGET)}")
        problems.extend(f"{weight.heaviest}: external request {url}" for url in weight.external)
    return problems


def kb(size: int) -> str:
    return f"{size / KB:.1f} KB"


def format_report(weights: list[PageWeight]) -> str:
    header = (
        "page type",
        "pages",
        "heaviest page",
        "HTML",
        "first visit",
        "(uncompressed)",
        "requests",
        "largest response",
    )
    rows = [
        (
            weight.kind,
            str(weight.pages),
            weight.heaviest,
            kb(weight.html_bytes),
            kb(weight.visit_bytes),
            kb(weight.visit_raw_bytes),
            str(weight.requests),
            f"{kb(weight.largest_asset[1])} {weight.largest_asset[0].rsplit('/', 1)[-1]}",
        )
        for weight in weights
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)) for row in [header, *rows]]
    html_budgets = ", ".join(f"{t.name} HTML <= {kb(t.html_budget)}" for t in PAGE_TYPES if t.html_budget is not None)
    budgets = (
        f"Budgets: {html_budgets}, first visit <= {kb(FIRST_VISIT_BUDGET)} and no "
        f"response > {kb(ASSET_BUDGET)}, as transferred (text gzip-compressed, as the host sends it)."
    )
    return "\n".join([*lines, "", budgets])


def build_site(destination: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(destination)],
        cwd=root,
        check=True,
        capture_output=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="an already built site (default: build one now)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as temporary:
        site = args.site
        if site is None:
            site = Path(temporary) / "site"
            build_site(site)
        with serve_directory(site, hosted_like=True) as base_url, sync_playwright() as playwright:
            browser = launch(playwright)
            weights = measure(browser, site, base_url)
            browser.close()
    print(format_report(weights))
    problems = over_budget(weights)
    for problem in problems:
        print(f"OVER BUDGET: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
