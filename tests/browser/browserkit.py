"""Browser fixtures and helpers, imported by the browser tests.

Debian's chromium driven by Playwright; the built site served on 127.0.0.1.

Every request that leaves 127.0.0.1 (or file://) is aborted and recorded; tests assert none
happened. Screenshots go to test-artifacts/screenshots/.
"""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "tests" / "browser" / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = ROOT / "test-artifacts" / "screenshots"


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def site_url(real_site) -> Iterator[str]:
    handler = functools.partial(Quiet, directory=str(real_site.site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium")
    if executable is None:
        pytest.fail("chromium is not installed: `apt-get install chromium` (.ci/run does this)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
                "--disable-sync",
            ],
        )
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
