"""A tapped figure opens full screen in the page (docs/assets/figure-view.js), on a phone and a
desktop, in light and dark: the same file as an <img> (never the SVG's markup in the page), fitted to
the screen, zoomable, closed by Escape or its button with focus back on the figure."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

PAGE = "how-this-site-works/"  # the proving ground: figures of every kind
SIZES = [pytest.param((390, 844), id="390px"), pytest.param((1280, 900), id="1280px")]

# The shown figure's drawn size: an <img> with object-fit: contain draws its picture at the largest
# scale that fits its box.
DRAWN = """img => {
  const box = img.getBoundingClientRect();
  const scale = Math.min(box.width / img.naturalWidth, box.height / img.naturalHeight);
  return {width: img.naturalWidth * scale, height: img.naturalHeight * scale,
          boxWidth: box.width, boxHeight: box.height};
}"""


def luminance(css_colour: str) -> float:
    """Relative luminance (WCAG) of an rgb()/rgba() colour."""
    red, green, blue = (float(part) / 255 for part in css_colour.split("(")[1].split(")")[0].split(",")[:3])

    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


@pytest.fixture
def tab(browser, site_url, request):
    width, height = request.param
    phone = width < 600
    viewport = {"width": width, "height": height}
    context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
    page = context.new_page()
    yield page
    context.close()


def _first_figure(tab, site_url):
    tab.goto(f"{site_url}/{PAGE}")
    link = tab.locator("a.docexec-figure").first
    link.scroll_into_view_if_needed()
    loaded = "img => img.complete && img.naturalWidth > 0"
    tab.wait_for_function(loaded, arg=link.locator("img").element_handle())
    return link


@pytest.mark.parametrize("tab", SIZES, indirect=True)
def test_a_tapped_figure_opens_full_screen_in_the_page_and_closes_back_to_it(tab, site_url):
    link = _first_figure(tab, site_url)
    before = tab.url
    inline = link.locator("img").bounding_box()
    if tab.viewport_size["width"] < 600:
        link.tap()  # a finger on a phone
    else:
        link.click()
    # A modal dialog, named by the figure's own description.
    dialog = tab.get_by_role("dialog", name=link.locator("img").get_attribute("alt"), exact=True)
    dialog.wait_for()
    assert tab.url == before  # the page stays; no raw file opened
    assert dialog.evaluate("d => d.open && d.matches(':modal')")
    # The same file, as an image: no SVG markup enters the page.
    shown = dialog.locator("img")
    assert shown.evaluate("img => img.currentSrc") == link.evaluate("a => a.href")
    assert dialog.evaluate("d => d.querySelector('svg, object, iframe, embed') === null")
    tab.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=shown.element_handle())
    # Full screen: the dialog covers the viewport, the figure as large as fits below its bar.
    box = dialog.bounding_box()
    viewport = tab.viewport_size
    assert (box["width"], box["height"]) == (viewport["width"], viewport["height"])
    # As large as fits: the full width, or the full height for a tall figure; never smaller than inline.
    drawn = shown.evaluate(DRAWN)
    assert drawn["width"] >= drawn["boxWidth"] - 1 or drawn["height"] >= drawn["boxHeight"] - 1
    assert drawn["width"] >= inline["width"] - 1
    if viewport["width"] < 600:
        assert drawn["boxWidth"] == viewport["width"]  # edge to edge on a phone
    # The close button has focus; Escape closes, focus goes back to the figure, the page did not move.
    assert tab.evaluate("document.activeElement.textContent") == "Close"
    tab.keyboard.press("Escape")
    tab.locator("dialog.figure-view").wait_for(state="detached")  # its close event comes a task later
    assert tab.evaluate("document.activeElement.classList.contains('docexec-figure')")
    assert tab.url == before


@pytest.mark.parametrize("tab", SIZES, indirect=True)
def test_a_figure_zooms_and_the_view_closes_by_keyboard_alone(tab, site_url):
    link = _first_figure(tab, site_url)
    link.focus()
    tab.keyboard.press("Enter")
    dialog = tab.locator("dialog.figure-view")
    dialog.wait_for()
    zoom = dialog.get_by_role("button", name="Zoom in")
    zoom.focus()
    tab.keyboard.press("Enter")
    assert dialog.get_by_role("button", name="Fit to screen").get_attribute("aria-pressed") == "true"
    frame = dialog.locator(".figure-view__frame")
    shown = dialog.locator("img").bounding_box()
    assert shown["width"] >= 2 * frame.evaluate("f => f.clientWidth") - 1
    assert frame.evaluate("f => f.scrollWidth > f.clientWidth")  # the zoomed figure scrolls
    # Focus stays in the dialog (the page behind is inert), and its Close button closes it.
    for _ in range(4):
        tab.keyboard.press("Tab")
        assert dialog.evaluate("d => d.contains(document.activeElement)")
    dialog.get_by_role("button", name="Close").focus()
    tab.keyboard.press("Enter")
    tab.locator("dialog.figure-view").wait_for(state="detached")  # its close event comes a task later
    assert tab.evaluate("document.activeElement.classList.contains('docexec-figure')")


@pytest.mark.parametrize("tab", [SIZES[0]], indirect=True)
def test_the_view_is_dark_in_the_dark_scheme_and_the_figure_inverted_as_on_the_page(tab, site_url):
    tab.add_init_script(
        "localStorage.setItem('/.__palette', JSON.stringify({index: 1, color: {scheme: 'slate'}}))"
    )
    link = _first_figure(tab, site_url)
    assert tab.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
    link.click()
    dialog = tab.locator("dialog.figure-view")
    dialog.wait_for()
    assert luminance(dialog.evaluate("d => getComputedStyle(d).backgroundColor")) < 0.05
    inline_filter = link.locator("img").evaluate("img => getComputedStyle(img).filter")
    assert inline_filter != "none"
    assert dialog.locator("img").evaluate("img => getComputedStyle(img).filter") == inline_filter


def test_a_click_with_a_modifier_still_opens_the_file_itself(browser, site_url):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    link = _first_figure(page, site_url)
    with context.expect_page() as opened:
        link.click(modifiers=["Control"])
    assert opened.value.url == link.evaluate("a => a.href")
    assert page.locator("dialog.figure-view").count() == 0
    context.close()
