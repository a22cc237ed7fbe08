"""``python -m studysite.page_heights [SITE_DIR]``: each page's height in Chromium at desktop and
phone width, as a reader first meets it (whole proofs and long outputs folded). Prints figures,
asserts nothing; ``make bench`` runs it. Without SITE_DIR it builds the site first (cached).

A topic page (one that answers questions) taller than `TOPIC_PAGE_GOAL_PX` at desktop width is
marked: past that, the gist of each answer is no longer what a reader scrolls through.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

WIDTHS = {"desktop": 1280, "phone": 390}
TOPIC_PAGE_GOAL_PX = 12_000
# Markup only a topic page holds: the short answer of a question.
TOPIC_MARK = 'class="admonition short-answer"'


def site_pages(site: Path) -> list[str]:
    """Every page of a built site as a path under its root (``guide/first-steps/``), in path order."""
    pages = []
    for html in sorted(site.rglob("index.html")):
        relative = html.parent.relative_to(site).as_posix()
        if relative.startswith(("assets", "search")):
            continue
        pages.append("" if relative == "." else relative + "/")
    return pages


def is_topic_page(site: Path, page: str) -> bool:
    return TOPIC_MARK in (site / page / "index.html").read_text(encoding="utf-8")


@contextmanager
def served(site: Path) -> Iterator[str]:
    """The site on a free port of 127.0.0.1, as its base URL."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()


def heights(site: Path, pages: list[str]) -> dict[str, dict[str, int]]:
    """page -> {width name: height in CSS px}."""
    from playwright.sync_api import sync_playwright  # the test extra: only where this runs

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    measured: dict[str, dict[str, int]] = {page: {} for page in pages}
    with served(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--headless", "--no-sandbox"])
        for name, width in WIDTHS.items():
            context = browser.new_context(viewport={"width": width, "height": 900}, is_mobile=width < 600)
            tab = context.new_page()
            for page in pages:
                tab.goto(base + page)
                tab.wait_for_load_state("load")
                measured[page][name] = tab.evaluate("document.documentElement.scrollHeight")
            context.close()
        browser.close()
    return measured


def _built_site(folder: Path) -> Path:
    site = folder / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--site-dir", str(site)], check=True, env=env)
    return site


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="page-heights-") as folder:
        site = Path(sys.argv[1]) if len(sys.argv) > 1 else _built_site(Path(folder))
        pages = site_pages(site)
        measured = heights(site, pages)
        goal = f"goal for topic pages: <= {TOPIC_PAGE_GOAL_PX:,}"
        print(f"Page heights in Chromium, proofs folded (CSS px; {goal})")
        print(f"   {'page':<58} {'1280 px':>9} {'390 px':>9}")
        over = 0
        for page in pages:
            desktop, phone = measured[page]["desktop"], measured[page]["phone"]
            topic = is_topic_page(site, page)
            mark = "  over the goal" if topic and desktop > TOPIC_PAGE_GOAL_PX else ""
            over += bool(mark)
            print(f"   {page or '(home)':<58} {desktop:>9,} {phone:>9,}{mark}")
        topics = [p for p in pages if is_topic_page(site, p)]
        print(f"   {over} of {len(topics)} topic pages over {TOPIC_PAGE_GOAL_PX:,} px at 1280 px")
        if topics:
            tallest = max(topics, key=lambda p: measured[p]["desktop"])
            height = measured[tallest]["desktop"]
            # What a page can still take (a drill section, a question) before it passes the goal.
            room = TOPIC_PAGE_GOAL_PX - height
            print(f"   tallest topic page: {tallest} at {height:,} px ({room:,} px to the goal)")


if __name__ == "__main__":
    main()
