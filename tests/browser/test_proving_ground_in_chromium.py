"""The proving ground page in Chromium: its outputs and figures render from 127.0.0.1 alone, and
markup a snippet prints is shown as text, never run."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_the_proving_ground_renders_outputs_figures_and_no_outside_request(page, site_url):
    page.goto(f"{site_url}/how-this-site-works/")
    page.wait_for_load_state("networkidle")
    assert "strides (1, 3)" in page.inner_text("article")
    figure = page.locator("a.docexec-figure > img").first
    figure.scroll_into_view_if_needed()  # figures load lazily
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=figure.element_handle())
    assert page.outside_requests == []  # type: ignore[attr-defined]


def test_printed_markup_is_shown_as_text_and_never_runs(page, site_url):
    page.goto(f"{site_url}/how-this-site-works/")
    assert page.title() != "injected"
    assert page.get_by_text("<script>document.title = 'injected'</script>").count() >= 1
