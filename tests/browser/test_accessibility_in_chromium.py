"""The accessibility gate: axe-core over every built page, in the light and the dark scheme, at
desktop and phone width (on the page walk's one visit to each page: test_pages_fit_in_chromium.py),
and here in the states a learner brings a page into (self-test on with the answers hidden, an
answer revealed with its grades, the mock interview running, search results open, a drill's hints
unfolded, a figure open full screen), each brought once and checked in both schemes. Any violation
fails, but those in `AXE_EXCEPTIONS` (page_walk.py), each with its reason and the upstream issue it
waits for.

axe-core is bundled from `.ci/node_modules` (`make workflows` installs it from `.ci/package-lock.json`),
injected into each page: nothing is fetched. The WCAG 2.2 AA tags are named one by one: axe runs
only the rules of the tags it is given, and without `wcag22aa` it never checks the size of tap
targets."""

from __future__ import annotations

import page_walk
import pytest

pytestmark = pytest.mark.browser

WIDTHS = {"desktop": 1280, "phone": 390}


@pytest.fixture
def axe(axe_source) -> str:
    if axe_source is None:
        pytest.skip(".ci/node_modules/axe-core is missing: `make workflows` installs it")
    return axe_source


@pytest.fixture(scope="module")
def tabs(browser):
    """One tab per width, in the light scheme, reused over every state (each page is loaded afresh)."""
    opened = {}

    def tab(width: str):
        if width not in opened:
            context = browser.new_context(
                viewport={"width": WIDTHS[width], "height": 900},
                is_mobile=width == "phone",
                color_scheme="light",
            )
            opened[width] = context.new_page()
        return opened[width]

    yield tab
    for page in opened.values():
        page.context.close()


def violations(page, axe_source: str) -> list[str]:
    """What axe finds on ``page`` as it is now, less the accepted exceptions."""
    return page_walk.accepted(page_walk.axe_violations(page, axe_source))


def _open(page, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state("load")


LEARNER_STATES = [
    "answers hidden",
    "answer revealed with grades",
    "mock interview",
    "search results",
    "hints open",
    "figure full screen",
    "figure zoomed",
]


def _bring(page, site_url: str, state: str) -> None:
    """Bring a page into ``state`` as a learner would, by clicking."""
    if state in ("answers hidden", "answer revealed with grades"):
        _open(page, f"{site_url}/week-1/autograd/")
        page.evaluate("() => localStorage.clear()")
        _open(page, f"{site_url}/week-1/autograd/")
        page.locator(".selftest-switch").click()
        page.locator("article .answer").first.wait_for(state="hidden")
        if state == "answer revealed with grades":
            page.locator("article .answer-toggle").first.click()
            step = page.locator("article .answer").first.locator(".answer-bar [data-step=full]")
            if step.count():
                step.click()
            page.locator("article .answer").first.locator("[data-grade]").first.wait_for()
    elif state == "mock interview":
        _open(page, f"{site_url}/mock-interview/")
        page.locator("[data-action=start]").click()
        page.locator(".mock-question").wait_for()
    elif state == "search results":
        _open(page, f"{site_url}/")
        page.keyboard.press("/")  # Material's key for search, at any width
        box = page.locator("input.md-search__input")
        page.wait_for_function(
            "() => !/Initializing/.test(document.querySelector('.md-search-result__meta').textContent)",
            timeout=60_000,
        )
        box.fill("autograd")
        box.press("End")
        page.wait_for_selector(".md-search-result__item")
    elif state in ("figure full screen", "figure zoomed"):
        _open(page, f"{site_url}/how-this-site-works/")  # the proving ground: figures of every kind
        page.locator("a.docexec-figure").first.click()
        page.locator("dialog.figure-view img").wait_for()
        if state == "figure zoomed":
            page.locator(".figure-view__zoom").click()
    elif state == "hints open":
        _open(page, f"{site_url}/week-1/day-1/memory-and-views/")  # a page with drills
        assert page.locator("article details:has-text('Hint 1')").count() >= 1
        page.evaluate("() => document.querySelectorAll('article details').forEach(d => { d.open = true; })")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("state", LEARNER_STATES)
def test_what_a_learner_brings_a_page_to_passes_axe_in_either_scheme(tabs, site_url, axe, width, state):
    """Brought once, checked in the light scheme, then in the dark one as the reader's system and
    Material's palette switch it."""
    page = tabs(width)
    _bring(page, site_url, state)
    found = {"light": violations(page, axe)}
    page_walk.set_scheme(page, page_walk.DARK)
    found["dark"] = violations(page, axe)
    page_walk.set_scheme(page, page_walk.LIGHT)
    failing = {scheme: lines for scheme, lines in found.items() if lines}
    assert not failing, "\n".join(
        f"{state} ({scheme}, {width}):\n  " + "\n  ".join(lines) for scheme, lines in failing.items()
    )


def test_a_question_can_be_revealed_graded_and_hidden_with_the_keyboard_alone(tabs, site_url):
    page = tabs("desktop")
    _open(page, f"{site_url}/week-1/autograd/")
    page.evaluate("() => localStorage.clear()")
    _open(page, f"{site_url}/week-1/autograd/")
    page.locator(".selftest-switch").focus()
    page.keyboard.press("Enter")
    answer = page.locator("article .answer").first
    answer.wait_for(state="hidden")
    toggle = page.locator("article .answer-toggle").first
    _tab_to(page, toggle)
    page.keyboard.press("Enter")
    answer.locator(":scope > .short-answer").wait_for(state="visible")
    full = answer.locator(".answer-bar [data-step=full]")
    if full.count():
        _tab_to(page, full)
        page.keyboard.press("Enter")
    grade = answer.locator("[data-grade=good]")
    _tab_to(page, grade)
    page.keyboard.press("Enter")
    # A grade is recorded once the scheduler has loaded: wait for the bar to say it was.
    answer.locator(":scope > .answer-bar[data-graded=good]").wait_for()
    status = answer.locator(".answer-bar__status")
    assert status.inner_text().startswith("Got it")
    _tab_to(page, toggle, backwards=True)
    page.keyboard.press("Enter")
    answer.wait_for(state="hidden")


def _tab_to(page, target, backwards: bool = False, limit: int = 400) -> None:
    """Press Tab (Shift+Tab) until ``target`` has the keyboard focus; fails after ``limit`` presses."""
    handle = target.element_handle()
    for _ in range(limit):
        if page.evaluate("element => document.activeElement === element", handle):
            return
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
    pytest.fail(f"{target} never got the keyboard focus in {limit} presses of Tab")
