"""The accessibility gate: axe-core over every built page, in the light and the dark scheme, at
desktop and phone width, and in the states a learner brings a page into (self-test on with the
answers hidden, an answer revealed with its grades, the mock interview running, search results
open, a drill's hints unfolded, a figure open full screen). Any violation fails, but those in
`EXCEPTIONS`, each with its reason and the upstream issue it waits for.

axe-core is bundled from `.ci/node_modules` (`make workflows` installs it from `.ci/package-lock.json`),
injected into each page: nothing is fetched. The WCAG 2.2 AA tags are named one by one: axe runs
only the rules of the tags it is given, and without `wcag22aa` it never checks the size of tap
targets."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studysite.page_heights import site_pages

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / ".ci" / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
SCHEMES = ["light", "dark"]
WIDTHS = {"desktop": 1280, "phone": 390}
# (rule, a fragment of the offending element's markup): why it is accepted, and what it waits for.
EXCEPTIONS: dict[tuple[str, str], str] = {}

RUN_AXE = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return result.violations.map(v => ({
    rule: v.id, help: v.help,
    nodes: v.nodes.map(n => ({
      target: n.target.join(' '), html: n.html.slice(0, 160), why: n.failureSummary,
    })),
  }));
}"""


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.is_file():
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(f"{AXE.relative_to(ROOT)} is missing: run `make workflows` (npm ci in .ci)")
        pytest.skip(f"{AXE.relative_to(ROOT)} is missing: `make workflows` installs it")
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def tabs(browser):
    """One tab per scheme and width, reused over every page (each page is loaded afresh)."""
    opened = {}

    def tab(scheme: str, width: str):
        if (scheme, width) not in opened:
            context = browser.new_context(
                viewport={"width": WIDTHS[width], "height": 900},
                is_mobile=width == "phone",
                color_scheme=scheme,
            )
            opened[scheme, width] = context.new_page()
        return opened[scheme, width]

    yield tab
    for page in opened.values():
        page.context.close()


def violations(page, axe_source: str) -> list[str]:
    """What axe finds on ``page`` as it is now, less the accepted exceptions: one line per element."""
    # Colours are read as they are drawn: a transition under way (a button just pressed) is
    # neither its old nor its new colour, so wait for it to end.
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(content=axe_source)
    found = []
    for violation in page.evaluate(RUN_AXE, TAGS):
        for node in violation["nodes"]:
            if any(rule == violation["rule"] and part in node["html"] for rule, part in EXCEPTIONS):
                continue
            found.append(f"{violation['rule']} ({violation['help']}): {node['target']}: {node['why']}")
    return found


def _open(page, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state("load")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_page_passes_axe(tabs, site_url, built_site, axe_source, scheme, width):
    page = tabs(scheme, width)
    failures = {}
    for path in site_pages(Path(built_site.path)):
        _open(page, f"{site_url}/{path}")
        found = violations(page, axe_source)
        if found:
            failures[path] = found[:5] + ([f"... and {len(found) - 5} more"] if len(found) > 5 else [])
    assert not failures, "\n".join(f"{path}:\n  " + "\n  ".join(lines) for path, lines in failures.items())


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
@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("state", LEARNER_STATES)
def test_what_a_learner_brings_a_page_to_passes_axe(tabs, site_url, axe_source, scheme, width, state):
    page = tabs(scheme, width)
    _bring(page, site_url, state)
    found = violations(page, axe_source)
    assert not found, f"{state} ({scheme}, {width}):\n  " + "\n  ".join(found)


def test_a_question_can_be_revealed_graded_and_hidden_with_the_keyboard_alone(tabs, site_url):
    page = tabs("light", "desktop")
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
