"""The reader's progress in Chromium: grades under answers, the Study page, export and import,
refused data, the two-step reveal and the mock interview, at phone width where it matters."""

from __future__ import annotations

import json
import mimetypes
import re

import pytest

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
KEY = "pytorch-foundations.progress"
AUTOGRAD = "/week-1/autograd/"
FIRST, SECOND = "gradient-accumulation", "parameter-freezing"  # the first two questions of AUTOGRAD


@pytest.fixture(scope="module")
def site_url(root) -> str:
    """The site's own address (``site_url``), served from the built site by the browser context.
    Material's instant navigation only takes over links listed in sitemap.xml, which names this
    address: on 127.0.0.1 every click would be a full page load."""
    match = re.search(r"^site_url: *(\S+?)/?$", (root / "mkdocs.yml").read_text(encoding="utf-8"), re.M)
    assert match, "mkdocs.yml has no site_url"
    return match[1]


@pytest.fixture
def open_page(browser, built_site, site_url):
    """``open_page(viewport=None)``: a page in a fresh profile, served the built site at its own
    address, that records console errors and requests to any other host; both are checked empty
    when the test ends."""
    contexts, pages = [], []

    def serve(route) -> None:  # type: ignore[no-untyped-def]
        path = route.request.url[len(site_url) :].split("?")[0].split("#")[0].lstrip("/")
        file = built_site.path / path
        if file.is_dir():
            file = file / "index.html"
        if not file.is_file():
            route.fulfill(status=404, body="")
            return
        kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        route.fulfill(status=200, body=file.read_bytes(), content_type=kind)

    def open_(viewport: dict | None = None):
        context = browser.new_context(
            viewport=viewport or {"width": 1280, "height": 900}, accept_downloads=True
        )
        context.route(site_url + "/**", serve)
        page = context.new_page()
        page.errors, page.outside = [], []  # type: ignore[attr-defined]
        page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.on(
            "request",
            lambda r: (
                page.outside.append(r.url)
                if r.url.startswith(("http:", "https:")) and not r.url.startswith(site_url + "/")
                else None
            ),
        )
        contexts.append(context)
        pages.append(page)
        return page

    yield open_
    for page in pages:
        assert page.errors == [], page.errors
        assert page.outside == [], page.outside
    for context in contexts:
        context.close()


def bar(page, question_id: str):
    return page.locator(f'article .answer[data-question-id="{question_id}"] > .answer-bar')


def grade(page, question_id: str, verdict: str) -> None:
    """Clicks a grade and waits until it is saved: the first grade waits for the scheduler's script,
    which a page fetches only then (progress.js)."""
    bar(page, question_id).locator(f"[data-grade={verdict}]").click()
    page.wait_for_selector(
        f'article .answer[data-question-id="{question_id}"] > .answer-bar[data-graded={verdict}]'
    )


def stored(page) -> str | None:
    return page.evaluate("key => localStorage.getItem(key)", KEY)


def summary(page) -> str:
    return page.locator(".study-summary").inner_text()


def test_grades_survive_reload_instant_navigation_and_an_import_into_a_fresh_profile(
    open_page, site_url, tmp_path
):
    page = open_page()
    page.goto(site_url + AUTOGRAD)
    assert bar(page, FIRST).locator(".answer-bar__status").inner_text() == "Not graded yet."
    grade(page, FIRST, "good")
    grade(page, SECOND, "again")
    assert (
        bar(page, SECOND).locator(".answer-bar__status").inner_text()
        == "Review again · next review tomorrow."
    )

    page.reload()
    assert bar(page, FIRST).locator(".answer-bar__status").inner_text().startswith("Got it · next review in ")
    assert "Review again" in bar(page, SECOND).locator(".answer-bar__status").inner_text()

    # Instant navigation: the window (and this marker) survives, the Study page is rendered anyway.
    page.evaluate("window.sameDocument = true")
    page.locator(".md-nav a[href$='study/']").first.click()
    page.wait_for_selector(".study-summary")
    assert page.evaluate("window.sameDocument === true"), "Material's instant navigation was not used"
    assert summary(page).startswith("2 of ")
    assert page.locator(".study-list").nth(1).locator(f"li[data-question-id={SECOND}]").count() == 1
    autograd = page.locator(".study-topics tr[data-topic='Autograd and backpropagation'] td")
    assert autograd.all_inner_texts()[1:] == ["4", "2", "0", "1"]

    with page.expect_download() as download:
        page.locator("[data-action=export]").click()
    exported = tmp_path / download.value.suggested_filename
    download.value.save_as(exported)
    data = json.loads(exported.read_text())
    assert data["format"] == "pytorch-foundations/progress" and data["version"] == 1
    assert set(data["questions"]) == {FIRST, SECOND}

    other = open_page(PHONE)  # another device
    other.goto(site_url + "/study/")
    assert summary(other).startswith("0 of ")
    other.locator("input[data-action=import]").set_input_files(exported)
    other.wait_for_selector(".study-message--ok")
    assert other.locator(".study-message").inner_text().startswith("Imported: 2 new, 0 updated")
    assert summary(other).startswith("2 of ")
    assert other.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    other.goto(site_url + AUTOGRAD)
    assert bar(other, FIRST).locator(".answer-bar__status").inner_text().startswith("Got it")


def test_progress_of_a_question_the_site_no_longer_has_is_left_out_without_error(open_page, site_url):
    page = open_page()
    page.goto(site_url + AUTOGRAD)
    grade(page, FIRST, "again")
    # The entry holds the schedule only, not where the question was: a moved question keeps it.
    entry = json.loads(stored(page))["questions"][FIRST]
    assert not {key for key in entry if "page" in key or "url" in key}
    page.evaluate(
        """key => { const data = JSON.parse(localStorage.getItem(key));
        data.questions["a-question-since-renamed"] = data.questions["gradient-accumulation"];
        localStorage.setItem(key, JSON.stringify(data)); }""",
        KEY,
    )
    page.goto(site_url + "/study/")
    assert summary(page).startswith("1 of ")
    assert page.locator(".study-list li").count() == 1  # missed, not twice, and not due today
    page.goto(site_url + "/mock-interview/")
    page.locator("[data-action=start]").click()
    assert page.locator(".mock-question").get_attribute("data-question-id") == FIRST, "the missed one first"


def test_corrupt_saved_progress_is_refused_and_never_written_over(open_page, site_url, tmp_path):
    page = open_page()
    page.goto(site_url + AUTOGRAD)
    entry = '{"view-vs-copy": {"due": "soon"}}'
    corrupt = f'{{"format": "pytorch-foundations/progress", "version": 1, "questions": {entry}}}'
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [KEY, corrupt])
    page.reload()
    status = bar(page, FIRST).locator(".answer-bar__status")
    assert "cannot be read" in status.inner_text()
    bar(page, FIRST).locator("[data-grade=good]").click()
    page.wait_for_function("window.FSRS")  # the grade went as far as the scheduler, then was refused
    assert "cannot be read" in status.inner_text()
    assert stored(page) == corrupt

    page.goto(site_url + "/study/")
    assert "cannot be read" in page.locator(".study-problem").inner_text()
    assert page.locator("[data-action=export]").is_disabled()
    valid = tmp_path / "valid.json"
    valid.write_text('{"format": "pytorch-foundations/progress", "version": 1, "questions": {}}')
    page.locator("input[data-action=import]").set_input_files(valid)
    page.wait_for_selector(".study-message--error")
    assert "Set it aside first" in page.locator(".study-message").inner_text()
    assert stored(page) == corrupt
    with page.expect_download() as download:
        page.locator("[data-action=download-unreadable]").click()
    assert open(download.value.path()).read() == corrupt  # noqa: PTH123, SIM115 - Playwright's file

    page.locator("[data-action=set-aside]").click()
    assert stored(page) is None
    kept = page.evaluate(
        "key => Object.keys(localStorage).filter(k => k.startsWith(key + '.unreadable.'))", KEY
    )
    assert len(kept) == 1 and page.evaluate("k => localStorage.getItem(k)", kept[0]) == corrupt
    assert summary(page).startswith("0 of ")


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("PK\x03\x04 an Anki deck, not progress", "it is not JSON"),
        ('{"notes": [{"id": 1}]}', "it is not a progress file of this site"),
        ('{"format": "pytorch-foundations/progress", "version": 2, "questions": {}}', "format version 2"),
    ],
)
def test_a_foreign_import_file_is_refused_without_touching_the_progress(
    open_page, site_url, tmp_path, content, reason
):
    page = open_page(PHONE)
    page.goto(site_url + AUTOGRAD)
    grade(page, FIRST, "good")
    before = stored(page)
    page.goto(site_url + "/study/")
    foreign = tmp_path / "progress.json"
    foreign.write_text(content)
    page.locator("input[data-action=import]").set_input_files(foreign)
    page.wait_for_selector(".study-message--error")
    message = page.locator(".study-message").inner_text()
    assert reason in message and "unchanged" in message
    assert stored(page) == before
    assert summary(page).startswith("1 of ")


def test_two_step_reveal_and_hiding_from_where_the_reader_is_at_phone_width(open_page, site_url):
    page = open_page(PHONE)
    page.goto(site_url + AUTOGRAD)
    page.locator(".selftest-switch").click()
    answer = page.locator(f'article .answer[data-question-id="{FIRST}"]')
    toggle = page.locator(f'article .answer-toggle:has(+ .answer[data-question-id="{FIRST}"])')
    assert toggle.inner_text() == "Show short answer" and not answer.is_visible()
    toggle.click()
    assert answer.locator(":scope > .short-answer").is_visible()
    assert not answer.locator(":scope > p").first.is_visible(), "the rest waits for the second step"
    short = answer.locator(":scope > .short-answer")
    short_at = short.bounding_box()
    answer.locator(".answer-bar [data-step=full]").click()
    assert answer.locator(":scope > p").first.is_visible()
    assert abs(short.bounding_box()["y"] - short_at["y"]) < 2, "the reader stays at the short answer"
    assert not answer.locator(".answer-bar [data-step=full]").is_visible()

    # Deep in the answer, the bar is at hand, and hiding keeps the reader at this question.
    middle = answer.locator(":scope > p").nth(2)
    page.evaluate(
        "e => window.scrollTo(0, e.getBoundingClientRect().top + scrollY - 300)", middle.element_handle()
    )
    hide = answer.locator(".answer-bar [data-step=hidden]")
    box = hide.bounding_box()
    assert box and box["y"] > 0 and box["y"] + box["height"] <= PHONE["height"], "the bar follows the reader"
    scrolled = page.evaluate("scrollY")
    hide.click()
    assert not answer.is_visible()
    assert page.evaluate("scrollY") > 0 and page.evaluate("scrollY") < scrolled
    place = toggle.bounding_box()
    assert place and abs(place["y"] - box["y"]) < 2, (
        "the question's button takes the place of the one pressed"
    )
    assert toggle.inner_text() == "Show short answer"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_corrections_quiz_lists_claims_and_hides_what_is_true(open_page, site_url):
    page = open_page(PHONE)
    page.goto(site_url + "/corrections/")
    claims = page.locator("article .correction-claim")
    assert claims.count() >= 30
    assert all(text.startswith("Claimed:") for text in claims.all_inner_texts())
    page.locator(".selftest-switch").click()
    truth = page.locator("article .answer").first
    assert not truth.is_visible()
    page.locator("article .answer-toggle").first.click()
    assert truth.is_visible() and truth.inner_text().startswith("True:")


def test_a_mock_interview_at_phone_width_feeds_the_progress(open_page, site_url):
    page = open_page(PHONE)
    page.goto(site_url + "/mock-interview/")
    page.locator("input[name=count]").fill("3")
    page.locator("input[name=draw][value=topics]").check()
    for box in page.locator("input[name=topic]").all():
        if box.get_attribute("value") != "Autograd and backpropagation":
            box.uncheck()
    page.locator("[data-action=start]").click()
    drawn = []
    for number, verdict in enumerate(["good", "again", "good"], 1):
        question = page.locator(".mock-question")
        assert page.locator(".mock-progress").inner_text() == f"Question {number} of 3"
        assert page.locator(".mock-topic").inner_text() == "Autograd and backpropagation"
        page.wait_for_function(
            "() => /^0:0[1-9] \\/ 2:00$/.test(document.querySelector('.mock-timer').textContent)"
        )
        drawn.append(question.get_attribute("data-question-id"))
        assert not page.locator(".mock-answer").count()
        page.locator("[data-action=reveal]").click()
        assert page.locator(".mock-answer .short-answer").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.locator(f"[data-action={verdict}]").click()
    assert len(set(drawn)) == 3
    assert page.locator(".mock-score").inner_text().startswith("Got 2 of 3")
    assert page.locator(".mock-results li").count() == 3
    grades = json.loads(stored(page))["questions"]
    assert {k: v["last_grade"] for k, v in grades.items()} == dict(
        zip(drawn, ["good", "again", "good"], strict=True)
    )
    page.goto(site_url + "/study/")
    assert summary(page).startswith("3 of ") and "1 missed" in summary(page)
