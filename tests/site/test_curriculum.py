"""Every source question is on the site in the question structure (docs/contributing.md): under its
own heading with a stable anchor, quoted in its own words (so search finds it), with a short answer
first, answered with at least one executed snippet, and corrections that can be scanned."""

from __future__ import annotations

import html
import json
import re
import sqlite3
import zipfile
from pathlib import Path

import pytest

from studysite.questions import ASKED_AS, Question, parse, plain_text

# (source tag, numbers) of every question whose answer has landed.
SOURCES = {
    "Day 1": range(1, 21),
    "Day 6": range(1, 21),
    "Day 9": range(1, 21),
    "Review": range(1, 16),
}
MAX_QUESTIONS_PER_PAGE = 6
# What a candidate says in about 30 seconds; the details belong to the answer below the box.
MAX_SHORT_ANSWER_WORDS = 80
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*(\"])")


def questions(root: Path) -> list[Question]:
    found = []
    for page in sorted((root / "docs").rglob("*.md")):
        found += parse(page.read_text(encoding="utf-8"), page.relative_to(root / "docs").as_posix())
    return found


def sentences(markdown_text: str) -> list[str]:
    text = " ".join(plain_text(markdown_text).split())
    return [s for s in SENTENCE_END.split(text) if s.strip()]


def test_every_source_question_is_answered_exactly_once(root):
    homes: dict[tuple[str, int], list[str]] = {}
    for question in questions(root):
        for tag in question.sources:
            homes.setdefault(tag, []).append(question.url)
    for source, numbers in SOURCES.items():
        for number in numbers:
            places = homes.get((source, number), [])
            assert len(places) == 1, f"({source}, Q{number}) is answered in {places or 'no place'}"


def test_each_question_has_an_answer_block_with_an_executed_snippet(root):
    for question in questions(root):
        assert "/// html | div.answer" in question.body, (
            f"{question.url}: the answer is not in a div.answer block"
        )
        assert re.search(r"^\s*%run snippets/", question.body, re.M), (
            f"{question.url}: no snippet proves the answer"
        )


def test_each_question_starts_with_a_short_answer_of_two_to_four_sentences(root):
    for question in questions(root):
        assert question.short_answer, f"{question.url}: no short-answer box"
        opening = question.body.split("/// html | div.answer", 1)[-1].lstrip()
        assert opening.startswith('!!! short-answer "Short answer"'), (
            f"{question.url}: the short answer is not the first thing in the answer"
        )
        count = len(sentences(question.short_answer))
        assert 2 <= count <= 4, f"{question.url}: the short answer has {count} sentences"
        assert "](" not in question.short_answer and "%run" not in question.short_answer, (
            f"{question.url}: a short answer holds no links or snippets (it is also a flash card)"
        )


def test_each_short_answer_can_be_said_in_about_thirty_seconds(root):
    long = {
        question.url: count
        for question in questions(root)
        if (count := len(plain_text(question.short_answer).split())) > MAX_SHORT_ANSWER_WORDS
    }
    assert not long, f"short answers over {MAX_SHORT_ANSWER_WORDS} words (as the reader sees them): {long}"


def test_a_question_cites_its_notes_or_says_that_none_asks_it(root):
    # "Asked as" quotes a note, with its tag; a common interview question that no note asks says so
    # in its place, and quotes the reader's phrasings without a tag.
    for question in questions(root):
        if question.in_notes:
            assert question.sources, f"{question.url}: *Asked as* names no source (Day N, Qn)"
        else:
            assert not question.sources, f"{question.url}: cites a note yet says that no note asks it"
            assert len(phrasings(question.asked_as)) >= 2, (
                f"{question.url}: quote at least two phrasings a reader would search for"
            )


def test_no_page_holds_more_than_six_questions(root):
    per_page: dict[str, int] = {}
    for question in questions(root):
        per_page[question.page] = per_page.get(question.page, 0) + 1
    crowded = {page: n for page, n in per_page.items() if n > MAX_QUESTIONS_PER_PAGE}
    assert not crowded, f"pages over {MAX_QUESTIONS_PER_PAGE} questions: {crowded}"


def test_anchors_are_unique_site_wide(root):
    # The anchor is the question's id (deck notes, reading progress): unique across pages, not only
    # within one.
    ids = [q.id for q in questions(root)]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})


def test_every_correction_is_titled_by_its_claim_and_links_its_evidence(root):
    for question in questions(root):
        page_text = (root / "docs" / question.page).read_text(encoding="utf-8")
        ran = {Path(p).stem for p in re.findall(r"^\s*%run (\S+)", page_text, re.M)}
        for correction in question.corrections:
            where = f"{question.page}:{correction.line}"
            assert correction.title and correction.title.lower() != "correction", (
                f"{where}: a correction is titled by what it corrects"
            )
            paragraphs = [p.strip() for p in correction.body.split("\n\n")]
            labels = [p.split(":**", 1)[0] + ":**" for p in paragraphs]
            assert labels == ["**Claimed:**", "**True:**", "**Shown by:**"], (
                f"{where}: a correction holds three paragraphs, Claimed, True and Shown by; found {labels}"
            )
            links = re.findall(r"\]\(([^)]*)#([\w-]+)\)", paragraphs[2])
            assert links, f"{where}: Shown by links to the snippet's output (#file_stem)"
            for page, anchor in links:
                if not page:
                    assert anchor in ran, f"{where}: #{anchor} is no snippet this page runs"


def test_correction_anchors_are_unique_on_each_page(root):
    seen: dict[str, str] = {}
    for question in questions(root):
        for correction in question.corrections:
            key = f"{question.page}#{correction.anchor}"
            assert key not in seen, f"two corrections on {question.page} share the title {correction.title!r}"
            seen[key] = correction.title


def test_the_review_page_answers_each_question_from_its_home(root):
    homes = {tag: q.url for q in questions(root) for tag in q.sources}
    review = (root / "docs" / "review.md").read_text(encoding="utf-8")
    items = re.findall(r"^### (\d+)\. .+?\n(.*?)(?=^### |\Z)", review, re.M | re.S)
    assert [int(n) for n, _ in items] == list(range(1, 16)), "the review page lists all 15 questions"
    for number, body in items:
        target = re.search(r"^%answer (\S+)$", body, re.M)
        if int(number) in SOURCES["Review"]:
            assert target and target[1] == homes[("Review", int(number))], (
                f"review Q{number} shows the answer of {target and target[1]}"
            )


@pytest.fixture(scope="module")
def search_index(built_site) -> list[dict]:
    return json.loads((built_site.path / "search" / "search_index.json").read_text())["docs"]


def phrasings(asked: str) -> list[str]:
    """The quoted questions of an *Asked as:* paragraph (or of the one that says no note asks it),
    without Markdown marks."""
    chunks = re.split(r"\((?:Day \d+|Review), Q\d+\)|\s·\s", ASKED_AS.sub("", asked, count=1))
    cleaned = [re.sub(r"[`*\\]", "", chunk).strip(' ·\n"') for chunk in chunks]
    return [" ".join(chunk.split()) for chunk in cleaned if chunk]


def normalized(html_text: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", html_text)).replace("\\", "").split())


def test_search_indexes_every_question_under_its_anchor_with_each_phrasing(root, search_index):
    by_location = {doc["location"]: doc for doc in search_index}
    for question in questions(root):
        location = question.site_path
        assert location in by_location, f"{location} is not in the search index"
        indexed = normalized(by_location[location]["text"])
        for phrasing in phrasings(question.asked_as):
            opening = " ".join(phrasing.split()[:6])
            assert opening in indexed, f"{location}: search cannot find {opening!r}"
        opening = " ".join(plain_text(question.short_answer).split()[:6])
        assert opening in indexed, f"{location}: search cannot find its short answer {opening!r}"


def test_no_search_word_holds_a_query_operator(built_site):
    """lunr reads * ^ ~ + in a query as operators; an indexed word holding one (x**2) broke every
    query that starts like it ("x" found nothing), so the separator must split at them."""
    index = json.loads((built_site.path / "search" / "search_index.json").read_text())
    separator = re.compile(index["config"]["separator"])
    words = {
        word
        for doc in index["docs"]
        for word in separator.split(html.unescape(re.sub(r"<[^>]+>", " ", doc["title"] + " " + doc["text"])))
    }
    assert not {word for word in words if re.search(r"[*^~+]", word)}


def test_contributor_pages_stay_out_of_the_readers_search(search_index):
    locations = {doc["location"].split("#")[0] for doc in search_index}
    assert not {"contributing/", "how-this-site-works/"} & locations


def test_the_corrections_index_lists_every_correction_and_each_link_lands_on_it(root, built_site):
    index = (built_site.path / "corrections" / "index.html").read_text(encoding="utf-8")
    for question in questions(root):
        for correction in question.corrections:
            href = f"../{question.site_path.split('#')[0]}#{correction.anchor}"
            assert f'href="{href}"' in index, f"the corrections index lacks {href}"
            target = (built_site.path / question.site_path.split("#")[0] / "index.html").read_text()
            assert f'id="{correction.anchor}"' in target, f"{href} lands on no correction"


def test_the_flash_card_deck_holds_every_question(root, built_site):
    deck = built_site.path / "study" / "pytorch-foundations.apkg"
    with zipfile.ZipFile(deck) as archive:
        database = built_site.path.parent / "deck.anki2"
        database.write_bytes(archive.read("collection.anki2"))
    rows = sqlite3.connect(database).execute("select flds from notes").fetchall()
    fronts = [html.unescape(re.sub(r"<[^>]+>", "", row[0].split("\x1f")[0])) for row in rows]
    expected = [plain_text(q.title) for q in questions(root)]
    assert sorted(fronts) == sorted(expected)
    backs = [row[0].split("\x1f")[2] for row in rows]
    assert all(backs), "every card has its short answer"
