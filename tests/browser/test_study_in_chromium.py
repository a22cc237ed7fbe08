"""Studying in the browser: self-test mode and the corrections index. (Search by each question's
asked-as phrase: tests/site/test_search_ranking.py; each question page's height: the page walk,
tests/browser/test_pages_fit_in_chromium.py.)"""

from __future__ import annotations

import pytest

from studysite.questions import parse

pytestmark = pytest.mark.browser
WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


def all_questions(root):
    found = []
    for path in sorted((root / "docs").rglob("*.md")):
        found += parse(path.read_text(encoding="utf-8"), path.relative_to(root / "docs").as_posix())
    return found


def visible_answers(page) -> list[bool]:
    return page.locator("article .answer").evaluate_all("els => els.map(e => e.offsetParent !== null)")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_question_is_two_clicks_from_the_home_page(page, site_url, width):
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site_url}/")
    page.locator("article a[href*='week-1/day-1/']").first.click()
    page.wait_for_url("**/week-1/day-1/")
    page.locator("article a[href*='memory-and-views']").first.click()
    page.wait_for_url("**/week-1/day-1/memory-and-views/")
    assert page.locator("h2#view-vs-copy").is_visible()


@pytest.mark.parametrize("width", WIDTHS)
def test_self_test_hides_answers_reveals_one_and_is_remembered(page, site_url, width):
    page.set_viewport_size(WIDTHS[width])
    page.goto(f"{site_url}/week-1/autograd/")
    assert all(visible_answers(page)), "with the mode off every answer is shown"
    page.locator(".selftest-switch").click()
    assert not any(visible_answers(page))
    toggles = page.locator("article .answer-toggle")
    assert toggles.count() == len(visible_answers(page)) > 1
    toggles.first.click()
    assert visible_answers(page)[0] and not any(visible_answers(page)[1:])
    page.reload()
    assert not any(visible_answers(page)), "the choice survives a reload"
    # Instant navigation (no full page load) keeps the mode too.
    page.locator("a.md-footer__link--next, a.md-footer__link--prev").first.click()
    page.wait_for_function("() => !location.pathname.endsWith('/week-1/autograd/')")
    page.wait_for_selector("article .answer-toggle")
    assert not any(visible_answers(page))
    page.locator(".selftest-bar [data-reveal=all]").click()
    assert all(visible_answers(page))
    page.locator(".selftest-bar [data-reveal=off]").click()
    page.reload()
    assert all(visible_answers(page)), "switched off, every answer is shown again"


def test_the_review_page_reveals_each_answer_in_place(page, site_url):
    page.goto(f"{site_url}/review/")
    answered = len(visible_answers(page))
    assert answered >= 10 and all(visible_answers(page))
    page.locator(".selftest-switch").click()
    assert not any(visible_answers(page))
    page.locator("article .answer-toggle").nth(1).click()
    assert [i for i, shown in enumerate(visible_answers(page)) if shown] == [1]


def test_without_javascript_every_answer_is_shown(browser, site_url):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{site_url}/week-1/autograd/")
    assert all(visible_answers(page))
    context.close()


def test_each_link_of_the_corrections_index_lands_on_its_correction(page, site_url, root):
    expected = sum(len(q.corrections) for q in all_questions(root))
    page.goto(f"{site_url}/corrections/")
    links = page.locator("article .answer a[href*='#correction-']")
    assert links.count() == expected > 0
    page.locator(".selftest-switch").click()  # the index hides what is true, and so do the pages
    for index in range(links.count()):
        page.goto(f"{site_url}/corrections/")
        page.locator("article .answer-toggle").nth(index).click()
        link = links.nth(index)
        anchor = link.get_attribute("href").split("#")[1]
        link.click()
        target = page.locator(f"#{anchor}")
        target.wait_for(state="visible")
        assert target.evaluate("e => e.classList.contains('correction')")
        box = target.bounding_box()
        assert box and 0 <= box["y"] < 900, f"#{anchor} is not on screen after the jump"


def test_the_header_names_the_question_being_read(page, site_url):
    page.set_viewport_size(WIDTHS["desktop"])
    page.goto(f"{site_url}/week-1/autograd/")
    heading = page.locator("article h2[id]").nth(1)
    page.evaluate(
        "h => window.scrollTo(0, h.getBoundingClientRect().top + scrollY - 60)", heading.element_handle()
    )
    title = heading.inner_text().rstrip("¶").strip()
    topic = '.md-header__topic[data-md-component="header-topic"] .md-ellipsis'
    page.wait_for_function("([sel, t]) => document.querySelector(sel).textContent === t", arg=[topic, title])
    assert page.locator(topic).inner_text() == title
