"""The built site served on 127.0.0.1, one Chromium per worker, a page that records requests to other
hosts, and the walk over every page at each width that the page checks share (page_walk.py)."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from pathlib import Path
from urllib.parse import urlparse

import page_walk
import pytest

from studysite.page_heights import site_pages

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / ".ci" / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def site_url(built_site):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(built_site.path))

    class QuietHandler(handler.func):  # type: ignore[name-defined]
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(QuietHandler, **handler.keywords)
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    executable = chromium_path()
    if executable is None:
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail("Chromium is required (REQUIRE_BROWSER is set) but not installed; run `make browser`")
        pytest.skip("Chromium is not installed (Debian package 'chromium'; `make browser` installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, site_url):
    """A page that records every request leaving 127.0.0.1."""
    context = browser.new_context()
    page = context.new_page()
    page.outside_requests = []  # type: ignore[attr-defined]

    def record(request) -> None:  # type: ignore[no-untyped-def]
        host = urlparse(request.url).hostname
        if request.url.startswith(("http:", "https:")) and host != "127.0.0.1":
            page.outside_requests.append(request.url)  # type: ignore[attr-defined]

    page.on("request", record)
    yield page
    context.close()


@pytest.fixture(scope="session")
def axe_source() -> str | None:
    """axe-core, bundled from `.ci/node_modules` (`make workflows` installs it): nothing is fetched.
    None where it is missing, so that the other checks of the walk still run."""
    if not AXE.is_file():
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(f"{AXE.relative_to(ROOT)} is missing: run `make workflows` (npm ci in .ci)")
        return None
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def walk(browser, site_url, built_site, axe_source):
    """``walk(width)``: every page's measurements at that width, each page loaded once for every
    check (page_walk.py); made once per worker and width. The tests that read one width's walk are
    one class, which pytest-xdist's loadscope gives to one worker."""
    walks: dict[int, dict[str, page_walk.Seen]] = {}

    def at(width: int) -> dict[str, page_walk.Seen]:
        if width not in walks:
            pages = site_pages(Path(built_site.path))
            walks[width] = page_walk.walk(browser, site_url, pages, width, axe_source)
        return walks[width]

    return at
