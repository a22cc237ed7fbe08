import io
import sqlite3
import zipfile

from studysite.flashcards import build_deck
from studysite.questions import parse

PAGE = """## What is a view? { #view }

*Asked as:* "What is a view?" (Day 1, Q1)

/// html | div.answer

!!! short-answer "Short answer"
    A view shares **storage**. Writing through it changes the base.

///
"""


def notes(deck: bytes, tmp_path) -> list[list[str]]:
    database = tmp_path / "collection.anki2"
    database.write_bytes(zipfile.ZipFile(io.BytesIO(deck)).read("collection.anki2"))
    return [row[0].split("\x1f") for row in sqlite3.connect(database).execute("select flds from notes")]


def test_each_question_becomes_a_card_with_its_short_answer_and_link(tmp_path):
    deck = build_deck(parse(PAGE, "week-1/day-1/index.md"), "https://example.org/site/")
    ((front, asked, back, link),) = notes(deck, tmp_path)
    assert front == "What is a view?"
    assert "Day 1, Q1" in asked
    assert "<strong>storage</strong>" in back
    assert link == "https://example.org/site/week-1/day-1/#view"


def test_the_same_questions_give_the_same_file():
    questions = parse(PAGE, "p.md")
    assert build_deck(questions, "/") == build_deck(questions, "/")


def test_no_questions_give_an_empty_deck(tmp_path):
    assert notes(build_deck([], "/"), tmp_path) == []
