"""Studying in the browser: self-test mode, the corrections index, search by question, page sizes."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from studysite.questions import parse, plain_text

pytestmark = pytest.mark.browser
WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
# lunr's English stop words (lunr.stopWordFilter), which the site's search leaves out of its index.
_LUNR_STOP_WORDS = """
a able about across after all almost also am among an and any are as at be because been but by can
cannot could dear did do does either else ever every for from get got had has have he her hers him his
how however i if in into is it its just least let like likely may me might most must my neither no nor
not of off often on only or other our own rather said say says she should since so some than that the
their them then there these they this tis to too twas us wants was we were what when where which while
who whom why will with would yet you your
"""
LUNR_STOP_WORDS = frozenset(_LUNR_STOP_WORDS.split())
RESULT_PAGES_READ = 5  # pages of search results a reader looks through, each with its sections
MAX_PAGE_HEIGHT = 20_000  # CSS px at 1280 px wide: about six questions


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


def _results_for(page, box, phrase: str) -> list[str]:
    """The result links for ``phrase``. Material searches on key-up, which ``fill`` does not send,
    and keeps the last results shown until a new search ends: clear them first, or they are read."""
    box.fill("")
    box.press("End")
    page.wait_for_function("() => !document.querySelector('.md-search-result__item')")
    box.fill(phrase)
    box.press("End")
    try:
        page.wait_for_selector(".md-search-result__item", timeout=10_000)
    except PlaywrightTimeout:
        return []
    # Per page found, its links (the page's, then its sections'), without the highlighting
    # query (?h=...) that Material adds to each.
    return page.locator(".md-search-result__item").evaluate_all(
        "items => items.map(i => [...i.querySelectorAll('a')].map(a => a.pathname + a.hash))"
    )


def test_search_for_each_asked_as_phrase_lands_on_its_question(page, site_url, root):
    page.goto(f"{site_url}/")
    page.locator("label.md-search__icon, .md-search__input").first.click()
    box = page.locator("input.md-search__input")
    # The index loads in a web worker; until then the search answers nothing.
    page.wait_for_function(
        "() => !/Initializing/.test(document.querySelector('.md-search-result__meta').textContent)",
        timeout=60_000,
    )
    misses = []
    for question in all_questions(root):
        # The first quote, whole: it may quote a term itself ("What is "Pinned Memory"?" (Day 1, Q16)).
        # A question no note asks quotes a reader's phrasings instead, without a tag.
        tail = r"\s*\((?:Day \d+|Review), Q\d+\)" if question.in_notes else r"\s*(?:·|$)"
        quote = re.search(rf'"(.+?)"{tail}', plain_text(question.asked_as))
        asked = quote[1].replace('\\"', '"') if quote else plain_text(question.title)
        # The quote's own words: Material makes every query word a prefix ("a" finds every word that
        # starts with a), so stop words rank noise; quotes would make every word required.
        words = [w for w in asked.replace('"', " ").split() if w.lower() not in LUNR_STOP_WORDS]
        phrase = " ".join(words[:6])
        wanted = f"/{question.site_path}"
        pages_found = _results_for(page, box, phrase)
        if not any(wanted in links for links in pages_found[:RESULT_PAGES_READ]):
            misses.append((phrase, wanted, [links[0] for links in pages_found[:3]]))
    assert not misses, misses


def test_no_question_page_is_taller_than_the_limit(page, site_url, root):
    page.set_viewport_size(WIDTHS["desktop"])
    too_tall = {}
    for site_page in sorted({q.site_path.split("#")[0] for q in all_questions(root)}):
        page.goto(f"{site_url}/{site_page}")
        height = page.evaluate("document.documentElement.scrollHeight")
        if height > MAX_PAGE_HEIGHT:
            too_tall[site_page] = height
    assert not too_tall, f"pages over {MAX_PAGE_HEIGHT} px: {too_tall}"


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
