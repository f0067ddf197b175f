"""Browser fixtures and helpers, imported by the browser tests.

Debian's chromium driven by Playwright; the built site served on 127.0.0.1.

Every request that leaves 127.0.0.1 (or file://) is aborted and recorded; tests assert none
happened. Screenshots go to test-artifacts/screenshots/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest
from chromium import ChromiumMissing, launch, serve_directory
from conftest import copy_project
from servekit import ServeFailed, mkdocs_serve

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "tests" / "browser" / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = ROOT / "test-artifacts" / "screenshots"


@pytest.fixture(scope="session")
def site_url(real_site) -> Iterator[str]:
    with serve_directory(real_site.site) as url:
        yield url


@pytest.fixture(scope="session")
def serve_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`mkdocs serve` (live reload included) on a copy of the project; yields the site's root URL."""
    project = copy_project(tmp_path_factory.mktemp("serve"), ROOT / "data")
    try:
        with mkdocs_serve(project) as url:
            yield url
    except ServeFailed as failure:
        pytest.fail(str(failure))


@pytest.fixture(scope="session")
def offline_site(offline_build) -> Path:
    """The documented offline flavour (`ATLAS_OFFLINE=true`), meant to be opened from file://."""
    return offline_build.site


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        try:
            browser = launch(playwright)
        except ChromiumMissing as missing:
            pytest.fail(str(missing))
        yield browser
        browser.close()


class Watch:
    """Records external requests and console errors of one page."""

    def __init__(self, page) -> None:
        self.external: list[str] = []
        self.errors: list[str] = []
        page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.route("**/*", self._route)

    def _route(self, route) -> None:
        url = urlparse(route.request.url)
        if url.scheme in {"file", "data", "blob", "about"} or url.hostname in {"127.0.0.1", "localhost"}:
            route.continue_()
        else:
            self.external.append(route.request.url)
            route.abort()


@pytest.fixture
def context(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context
    context.close()


def screenshot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)
