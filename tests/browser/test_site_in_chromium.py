"""The built site in a real browser (Debian's Chromium driven by Playwright), served on 127.0.0.1."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.browser


def search(page, site_url: str, phrase: str) -> list[str]:
    page.goto(f"{site_url}/")
    page.locator("label.md-search__icon, .md-search__input").first.click()
    box = page.locator("input.md-search__input")
    # The index loads in a web worker; a query typed before it is ready finds nothing, so type again.
    for _ in range(4):
        box.fill("")
        box.type(phrase)
        try:
            page.wait_for_selector(".md-search-result__item", timeout=10_000)
            break
        except PlaywrightTimeout:
            continue
    return page.locator(".md-search-result__item a").evaluate_all("links => links.map(a => a.href)")


@pytest.mark.parametrize(
    ("phrase", "anchor"),
    [
        ("Why does x.view() sometimes fail", "week-1/day-1/memory-and-views/"),
        ("Channels Last memory format", "week-1/day-1/memory-and-views/"),
        ("initializing all weights to exactly zero", "week-1/modules-and-optimization/"),
        ("BCEWithLogitsLoss preferred", "week-1/modules-and-optimization/"),
        ("effective batch size accumulation", "week-1/autograd/"),
    ],
)
def test_search_finds_a_question_by_a_phrase_from_it(page, site_url, phrase, anchor):
    hrefs = search(page, site_url, phrase)
    assert any(anchor in href for href in hrefs), hrefs
    assert page.outside_requests == []  # type: ignore[attr-defined]


def test_the_lab_shows_cell_outputs_and_offers_the_notebook(page, site_url):
    page.goto(f"{site_url}/labs/broadcasting/")
    assert "strides of the expanded view: (1, 0)" in page.inner_text("body")
    link = page.locator("a[href$='broadcasting.ipynb']").first
    response = page.request.get(f"{site_url}/labs/broadcasting/{link.get_attribute('href').split('/')[-1]}")
    assert response.ok and '"cells"' in response.text()


def test_instant_navigation_reaches_the_tensors_page(page, site_url):
    page.goto(f"{site_url}/")
    page.locator("article a[href*='week-1/day-1/']").first.click()
    page.wait_for_url("**/week-1/day-1/")
    assert page.locator("h1").first.inner_text().startswith("Day 1")
