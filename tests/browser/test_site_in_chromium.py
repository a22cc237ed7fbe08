"""The built site in a real browser (Debian's Chromium driven by Playwright), served on 127.0.0.1.

(Search by a phrase from a question: tests/site/test_search_ranking.py, over the built index.)"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


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
