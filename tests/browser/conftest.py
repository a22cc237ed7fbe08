"""The built site served on 127.0.0.1 and a Chromium page that records requests to other hosts."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from urllib.parse import urlparse

import pytest

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


@pytest.fixture(scope="module")
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


@pytest.fixture(scope="module")
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

