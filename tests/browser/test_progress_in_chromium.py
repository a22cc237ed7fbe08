"""The reader's progress in Chromium: grades under answers, the Study page, export and import,
refused data, the two-step reveal and the mock interview, at phone width where it matters."""

from __future__ import annotations

import json
import mimetypes
import re
from pathlib import Path

import pytest

from studysite.study_pages import is_asked

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
KEY = "pytorch-foundations.progress"
AUTOGRAD = "/week-1/autograd/"
FIRST, SECOND = "gradient-accumulation", "parameter-freezing"  # the first two questions of AUTOGRAD
SETTLE_MS = 650  # a little over study.js's and mock.js's: a tap sooner after a change is ignored
AXE = Path(__file__).resolve().parents[2] / ".ci" / "node_modules" / "axe-core" / "axe.min.js"


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

    def open_(viewport: dict | None = None, color_scheme: str = "light"):
        context = browser.new_context(
            viewport=viewport or {"width": 1280, "height": 900},
            accept_downloads=True,
            color_scheme=color_scheme,
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
        == "Review again · next review in 10 minutes."
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
    assert autograd.all_inner_texts()[1:] == ["4", "2", "1", "1"], "the miss is due again today"

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
    # Due today (a miss comes back the same day) and missed; the renamed question in neither.
    assert page.locator(f".study-list li[data-question-id={FIRST}]").count() == 2
    assert page.locator(".study-list li").count() == 2
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
        # Asked in the interviewer's words, one of the card's phrasings; the heading comes with the answer.
        card = page.locator(f'.mock-card[data-question-id="{drawn[-1]}"]')
        asked = page.locator(".mock-asked").inner_text()
        assert asked in card.locator(".mock-card__asked li").all_inner_texts() and is_asked(asked)
        assert not page.locator(".mock-heading").count()
        page.locator("[data-action=reveal]").click()
        assert page.locator(".mock-answer .short-answer").is_visible()
        heading = page.locator(".mock-heading a")
        assert heading.inner_text() == card.locator(".mock-card__title").inner_text()
        assert heading.get_attribute("href").endswith(f"#{drawn[-1]}")
        page.wait_for_timeout(SETTLE_MS)  # a grade pressed at once would be taken for a double tap
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


def reveal_short_answer(page, question_id: str):
    """Self-test on, the question's short answer shown: its bar, as a reader reaches it."""
    page.locator(".selftest-switch").click()
    page.locator(f'article .answer-toggle:has(+ .answer[data-question-id="{question_id}"])').click()
    return bar(page, question_id)


def centre(locator) -> tuple[float, float]:
    """Where a finger taps ``locator``, brought on screen first if it is not."""
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    assert box, "not on screen"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def boxes(locator) -> list[dict]:
    return [button.bounding_box() for button in locator.all()]


def test_a_double_tap_at_phone_width_records_one_grade_at_most_and_undo_takes_it_back(open_page, site_url):
    page = open_page(PHONE)
    page.goto(site_url + AUTOGRAD)
    answer_bar = reveal_short_answer(page, FIRST)
    grades = answer_bar.locator("[data-grade]")
    more = answer_bar.locator("[data-step=full]")
    # The reader has read the short answer to its end: the bar holds to the bottom of the screen.
    page.evaluate(
        """id => { const short = document.querySelector(`.answer[data-question-id="${id}"] > .short-answer`);
        window.scrollTo(0, short.getBoundingClientRect().bottom + scrollY - innerHeight + 40); }""",
        FIRST,
    )
    page.wait_for_timeout(SETTLE_MS)
    before = boxes(grades)
    assert before[0]["y"] + before[0]["height"] <= PHONE["height"]

    # "Show full answer", tapped twice: the answer opens, and the second tap finds no grade there.
    tapped = centre(more)
    page.mouse.dblclick(*tapped)
    page.wait_for_timeout(SETTLE_MS)
    assert not more.is_visible() and page.locator(f'.answer[data-question-id="{FIRST}"]').evaluate(
        "a => a.classList.contains('revealed')"
    )
    assert boxes(grades) == before, "the grades stay where they were"
    assert page.evaluate("([x, y]) => !document.elementFromPoint(x, y).closest('[data-grade]')", tapped)
    assert stored(page) is None, "no grade recorded"

    # "Got it" tapped twice, then "Review again" at once: one grade, the first.
    page.mouse.dblclick(*centre(grades.first))
    page.mouse.click(*centre(grades.last))
    page.wait_for_selector(f'.answer[data-question-id="{FIRST}"] .answer-bar[data-graded=good]')
    page.wait_for_timeout(SETTLE_MS)
    entry = json.loads(stored(page))["questions"][FIRST]
    assert (entry["last_grade"], entry["reps"]) == ("good", 1)
    assert boxes(grades) == before, "recording a grade moves no button"

    undo = answer_bar.locator("[data-undo]")
    assert undo.is_visible() and undo.get_attribute("aria-label") == "Undo the grade Got it"
    undo.click()
    assert json.loads(stored(page))["questions"] == {}
    assert answer_bar.locator(".answer-bar__status").inner_text() == "Undone. Not graded yet."
    assert answer_bar.get_attribute("data-graded") is None and not undo.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_recorded_grade_keeps_readable_contrast_under_the_pointer_and_in_focus(open_page, site_url, scheme):
    if not AXE.is_file():
        pytest.skip(f"{AXE} is missing: `make workflows` installs axe-core")
    page = open_page(color_scheme=scheme)
    page.goto(site_url + AUTOGRAD)
    grade(page, FIRST, "good")
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    graded = bar(page, FIRST).locator("[data-grade=good]")
    contrast = """async (element) => {
      await Promise.all(document.getAnimations().map(a => a.finished));
      const result = await axe.run(element, {runOnly: ['color-contrast'], resultTypes: ['violations']});
      return result.violations.flatMap(v => v.nodes.map(n => n.failureSummary));
    }"""
    page.mouse.move(0, 0)
    assert graded.evaluate(contrast) == [], "at rest"
    graded.hover()
    assert graded.evaluate(contrast) == [], "under the pointer"
    colours = graded.evaluate("e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]")
    assert colours[0] != colours[1]
    page.mouse.move(0, 0)
    graded.focus()
    assert graded.evaluate(contrast) == [], "in focus"


def test_two_misses_are_due_again_today(open_page, site_url):
    page = open_page(PHONE)
    page.goto(site_url + AUTOGRAD)
    grade(page, FIRST, "again")
    grade(page, SECOND, "again")
    page.goto(site_url + "/study/")
    assert "2 due today · 2 missed" in summary(page)
    due = page.locator(".study-list").first
    assert {i.get_attribute("data-question-id") for i in due.locator("li").all()} == {FIRST, SECOND}
    assert "due in 10 minutes" in due.locator("li").first.inner_text()
    assert page.locator(f"a[data-question-id={FIRST}] + .study-badge").inner_text() == "due today"


STORAGE_STUB = """persisted => {
  window.persistAsked = 0;
  const storage = navigator.storage;
  storage.persisted = () => Promise.resolve(persisted);
  storage.persist = () => { window.persistAsked++; return Promise.resolve(persisted); };
}"""


def test_storage_is_asked_to_persist_and_where_refused_the_study_page_says_so_and_reminds_to_export(
    open_page, site_url, tmp_path
):
    page = open_page(PHONE)
    page.context.add_init_script(f"({STORAGE_STUB})(false)")
    page.goto(site_url + "/study/")
    assert page.evaluate("window.persistAsked") == 0, "nothing to keep yet, nothing asked"
    assert page.locator(".study-storage").inner_text() == ""
    page.goto(site_url + AUTOGRAD)
    grade(page, FIRST, "again")
    assert page.evaluate("window.persistAsked") == 1, "the first grade asks the browser to keep the storage"

    # A week of use, never exported: the reminder.
    page.evaluate(
        """key => { const data = JSON.parse(localStorage.getItem(key));
        const entry = data.questions["gradient-accumulation"];
        entry.last_review = new Date(Date.now() - 8 * 86400000).toISOString();
        entry.due = new Date(Date.now() - 8 * 86400000 + 600000).toISOString();
        localStorage.setItem(key, JSON.stringify(data)); }""",
        KEY,
    )
    page.goto(site_url + "/study/")
    line = page.locator(".study-storage")
    page.wait_for_selector(".study-storage[data-storage='not persistent']")
    assert "has not granted persistent storage" in line.inner_text()
    assert "You have not exported it yet, and your first review here was 8 days ago" in line.inner_text()
    due = page.locator(".study-list").first.locator("li").all_inner_texts()
    assert due, "the miss is due"
    with page.expect_download() as download:
        page.locator("[data-action=export]").click()
    exported = tmp_path / "progress.json"
    download.value.save_as(exported)
    page.wait_for_selector(".study-storage[data-storage='not persistent']")
    assert "export it now" not in line.inner_text(), "exported: no reminder for a week"

    # The browser clears the storage; the export brings the same queue back.
    page.evaluate("() => localStorage.clear()")
    page.reload()
    assert page.locator(".study-list").first.locator("li").count() == 0
    page.locator("input[data-action=import]").set_input_files(exported)
    page.wait_for_selector(".study-message--ok")
    assert page.locator(".study-list").first.locator("li").all_inner_texts() == due


def test_where_storage_is_persistent_the_study_page_says_so(open_page, site_url):
    page = open_page()
    page.context.add_init_script(f"({STORAGE_STUB})(true)")
    page.goto(site_url + AUTOGRAD)
    grade(page, FIRST, "good")
    assert page.evaluate("window.persistAsked") == 0, "already persistent: nothing to ask"
    page.goto(site_url + "/study/")
    page.wait_for_selector(".study-storage[data-storage=persistent]")
    assert "keeps your progress in persistent storage" in page.locator(".study-storage").inner_text()


def test_the_mock_asks_every_card_in_the_interviewers_words_and_a_double_tap_grades_once(open_page, site_url):
    page = open_page(PHONE)
    page.goto(site_url + "/mock-interview/")
    cards = page.locator(".mock-pool .mock-card")
    assert cards.count() > 70
    unasked = [
        card.get_attribute("data-question-id")
        for card in cards.all()
        if not card.locator(".mock-card__asked li").count()
        or not all(is_asked(text) for text in card.locator(".mock-card__asked li").all_inner_texts())
    ]
    assert unasked == []

    page.locator("input[name=count]").fill("2")
    page.locator("[data-action=start]").click()
    first = page.locator(".mock-question").get_attribute("data-question-id")
    page.wait_for_timeout(SETTLE_MS)
    page.mouse.dblclick(*centre(page.locator("[data-action=reveal]")))
    page.wait_for_timeout(SETTLE_MS)
    assert page.locator(".mock-answer").is_visible() and stored(page) is None, "the second tap graded nothing"
    page.mouse.dblclick(*centre(page.locator("[data-action=again]")))
    page.wait_for_selector(".mock-progress:has-text('Question 2 of 2')")
    page.wait_for_timeout(SETTLE_MS)
    assert not page.locator(".mock-answer").count(), "the second tap did not reveal the next answer"
    assert list(json.loads(stored(page))["questions"]) == [first]

    page.locator("[data-action=undo]").click()
    assert page.locator(".mock-question").get_attribute("data-question-id") == first
    assert page.locator(".mock-answer").is_visible(), "back at the question, its answer shown"
    assert json.loads(stored(page))["questions"] == {}
    page.wait_for_timeout(SETTLE_MS)
    page.locator("[data-action=good]").click()
    page.wait_for_selector(".mock-progress:has-text('Question 2 of 2')")
    assert json.loads(stored(page))["questions"][first]["last_grade"] == "good"
