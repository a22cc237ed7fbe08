"""Search as a reader uses it: a query typed the way one remembers a question, then Enter or a click
on the first result, must open that question's heading (its anchor in the URL, the heading on
screen), not the top of its page. A query about something the site does not cover opens nothing:
the results stay open under "No question matches". In self-test mode the results show no answers.

Here, a handful of each, typed in Chromium; the ranking over the site's full lists of queries (as
people remember the questions, phrasings no note asks, topics the site does not cover, short forms,
stop words) is checked over the built index in node, by tests/site/test_search_ranking.py."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from studysite.questions import parse, plain_text

pytestmark = pytest.mark.browser
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SELF_TEST_KEY = "pytorch-foundations.selftest"  # docs/assets/study.js keeps its switch there

# A handful of real landings, typed and then Enter or a click: the heading on screen under its
# anchor. The ranking behind every query of the site's lists (which result comes first, whether it
# answers the query) is checked over the built index in node: tests/site/test_search_ranking.py.
QUERIES = [
    ("bce logits", "week-1/modules-and-optimization/#bce-with-logits"),
    ("shm docker", "week-2/day-6/worker-memory-and-transfer/#bus-error"),
    ("gradcheck", "week-2/day-9/nan-loss-and-gradcheck/#gradcheck"),
    ("zero init weights", "week-1/modules-and-optimization/#symmetry-breaking"),
    ("pin mem", "week-2/day-6/worker-memory-and-transfer/#pin-memory-recommended"),
    ("NaN loss", "week-2/day-9/nan-loss-and-gradcheck/#nan-loss"),
    ("prefetch factor", "week-2/day-6/prefetching-seeding-and-main-guard/#prefetch-factor"),
]
DEBUGGING = "week-2/day-9/reproducibility-and-profiling"
# A topic the site does not cover, and a query of stop words alone: neither may open a question.
UNCOVERED_QUERIES = ["tensorrt export", "vs"]
NO_MATCH = "No question matches"
LEAVE_LANDING = "() => { scrollTo(0, 0); history.replaceState(history.state, '', location.pathname); }"
ON_SCREEN = """([path, id]) => {
    if (location.pathname !== "/" + path || location.hash !== "#" + id) return false;
    const heading = document.getElementById(id);
    if (!heading) return false;
    const box = heading.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= innerHeight;
}"""


def open_search(page):
    if page.viewport_size["width"] < 960:  # Material's header shows a search button instead of the box
        page.locator("label.md-header__button[for=__search]").click()
    else:
        page.locator(".md-search__input").click()
    box = page.locator("input.md-search__input")
    # The index loads in a web worker; until then the search answers nothing.
    page.wait_for_function(
        "() => !/Initializing/.test(document.querySelector('.md-search-result__meta').textContent)",
        timeout=60_000,
    )
    return box


def type_query(page, box, query: str, *, results: bool = True) -> None:
    """Material searches on key-up, which ``fill`` does not send, and keeps the last results shown
    until a new search ends: clear them first, or the previous query's results are read. Without
    ``results``, waits for the result count or the no-match line instead of a result."""
    box.fill("")
    box.press("End")
    page.wait_for_function("() => !document.querySelector('.md-search-result__item')")
    box.fill(query)
    box.press("End")
    if results:
        page.wait_for_selector(".md-search-result__item", timeout=10_000)
    else:
        page.wait_for_function(
            f"() => /matching|{NO_MATCH}/.test(document.querySelector('.md-search-result__meta').innerText)",
            timeout=10_000,
        )


def missed_landing(page, site_path: str) -> str | None:
    """None if the page shows the question's heading under its anchor (and it stays on screen once
    late content has loaded), else where the reader was taken."""
    path, anchor = site_path.split("#")
    try:
        page.wait_for_function(ON_SCREEN, arg=[path, anchor], timeout=8_000)
        page.wait_for_timeout(300)
        if page.evaluate(ON_SCREEN, [path, anchor]):
            return None
    except PlaywrightTimeout:
        pass
    where = page.evaluate("() => location.pathname + location.hash")
    return where + " (its heading off screen)" if where == f"/{site_path}" else where


def landing_misses(page, queries: list[tuple[str, str]]) -> list[str]:
    misses = []
    for query, site_path in queries:
        for how in ("Enter", "click on the first result"):
            # Leave the previous landing (top of the page, no anchor), so that only this one counts.
            page.evaluate(LEAVE_LANDING)
            box = open_search(page)
            type_query(page, box, query)
            if how == "Enter":
                box.press("Enter")
            else:
                page.locator(".md-search-result__link").first.click()
            where = missed_landing(page, site_path)
            if where:
                misses.append(f"{query!r} + {how}: expected /{site_path}, got {where}")
    return misses


def test_queries_as_people_remember_them_land_on_the_question(page, site_url):
    page.set_viewport_size(DESKTOP)
    page.goto(f"{site_url}/")
    misses = landing_misses(page, QUERIES[:4])
    assert not misses, "\n".join(misses)
    assert page.outside_requests == []  # type: ignore[attr-defined]


def test_a_query_about_something_the_site_does_not_cover_opens_nothing(page, site_url):
    page.set_viewport_size(DESKTOP)
    page.goto(f"{site_url}/week-1/autograd/")
    jumped, unsaid = [], []
    for query in UNCOVERED_QUERIES:
        box = open_search(page)
        type_query(page, box, query, results=False)
        box.press("Enter")
        page.wait_for_timeout(500)  # time for a page change that should not come
        where = page.evaluate("() => location.pathname + location.hash")
        if where != "/week-1/autograd/":
            jumped.append(f"{query!r} opened {where}")
            page.goto(f"{site_url}/week-1/autograd/")
            continue
        meta = page.locator(".md-search-result__meta").inner_text()
        if not meta.startswith(f"{NO_MATCH} “{query}”"):
            unsaid.append(f"{query!r}: {meta!r}")
        page.keyboard.press("Escape")
    assert not jumped, "\n".join(jumped)
    assert not unsaid, "the results do not say that no question matches:\n" + "\n".join(unsaid)


def result_links(page) -> list[str]:
    return page.locator(".md-search-result__link").evaluate_all(
        "links => links.map(a => a.pathname + a.hash)"
    )


def test_the_results_name_a_word_the_site_does_not_hold_and_still_list_what_it_has(page, site_url):
    page.set_viewport_size(DESKTOP)
    page.goto(f"{site_url}/")
    box = open_search(page)
    type_query(page, box, "distillation export trace")
    meta = page.locator(".md-search-result__meta").inner_text()
    held = "Nothing on this site holds “distillation”. Nearest results:"
    assert meta == f"{NO_MATCH} “distillation export trace”. {held}"
    assert page.locator(".md-search-result__meta").get_attribute("role") == "status"  # read aloud
    assert f"/{DEBUGGING}/#profiler-workflow" in result_links(page), "the profiler's trace export is listed"


def test_on_a_phone_the_first_result_opens_the_question_too(page, site_url):
    page.set_viewport_size(PHONE)
    page.goto(f"{site_url}/")
    misses = landing_misses(page, QUERIES[4:])
    assert not misses, "\n".join(misses)


def short_answer_words(root, site_path: str) -> str:
    page_file = site_path.split("/#")[0] + ".md"
    (question,) = [
        q
        for q in parse((root / "docs" / page_file).read_text(encoding="utf-8"), page_file)
        if q.site_path == site_path
    ]
    return " ".join(plain_text(question.short_answer).split()[:4])


@pytest.mark.parametrize("self_test", [False, True], ids=["answers shown", "self-test mode"])
def test_self_test_mode_keeps_answers_out_of_the_results(page, site_url, root, self_test):
    site_path = "week-2/day-9/nan-loss-and-gradcheck/#gradcheck"
    answer = short_answer_words(root, site_path)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{site_url}/")
    page.evaluate("([key, on]) => localStorage.setItem(key, on ? 'on' : 'off')", [SELF_TEST_KEY, self_test])
    page.reload()
    box = open_search(page)
    type_query(page, box, "gradcheck")
    results = page.locator(".md-search-result__list")
    shown = " ".join(results.inner_text().split())
    assert "testing a backward pass" in shown, "the question itself is listed either way"
    if self_test:
        assert answer not in shown, f"self-test mode shows the answer {answer!r} in the results"
    else:
        assert answer in shown, "with self-test off a result shows the short answer"
