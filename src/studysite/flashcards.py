"""Every question with its short answer as an Anki deck (genanki writes the .apkg format).

A note is keyed by the question's stable id (``Question.id``, its anchor): its guid and its note id
are derived from it, so that importing a newer deck updates the reader's notes (and keeps their
review history) instead of adding copies, even when a question has moved to another page.

Cards are filed by the curriculum (``curriculum.Place``): a subdeck per topic page under its phase,
week and day, as the site's navigation names them ("PyTorch Foundations::Phase 1 — Foundations::
Week 1 — The Engine::Autograd"), and tagged with the page's topics, its week and day, and where the
question comes from (``source::day-6::q19``, or ``source::not-in-the-notes``), so that a learner can
study one topic or one day. A source tag such as "(Day 6, Q19)" reads "question 19 of the Day 6
notes" on the card, linked to its entry on the site's Sources page.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import tempfile
import time
import zipfile
from io import BytesIO
from pathlib import Path
from urllib.parse import urlparse

import genanki
import markdown

from studysite.curriculum import Place
from studysite.questions import SOURCE_TAG, Question
from studysite.reading import SOURCES_PAGE, source_anchor

# Fixed ids: a reader who imports a newer deck updates their cards instead of getting copies.
MODEL_ID = 1_624_090_301
DECK_ID = 1_624_090_302  # the top deck; each subdeck's id is derived from its name
DECK_NAME = "PyTorch Foundations"
# Anki updates an imported note only from a newer one: a deck is dated no earlier than the last
# change to what a card holds (here, 2026-11-27: subdecks, tags and explained source tags), so that
# a reader who imported an older deck gets the change although no page changed since.
CARDS_CHANGED = 1_795_737_600
# Note ids are derived from the question's id, in a range below the millisecond timestamps (after
# 2001-09-09) that Anki gives the notes it creates itself, so they never meet a reader's own notes.
NOTE_IDS_FROM = 10**11
NOTE_IDS_SPAN = 9 * 10**11
MODEL = genanki.Model(
    MODEL_ID,
    "PyTorch Foundations question",
    fields=[{"name": "Question"}, {"name": "Asked as"}, {"name": "Short answer"}, {"name": "Link"}],
    templates=[
        {
            "name": "Card",
            "qfmt": "<h3>{{Question}}</h3><p class=asked>{{Asked as}}</p>",
            "afmt": '{{FrontSide}}<hr id=answer>{{Short answer}}<p><a href="{{Link}}">Full answer</a></p>',
        }
    ],
    css=".card { font-family: sans-serif; font-size: 18px; } .asked { color: #666; font-size: 14px; }",
)


def note_id(question_id: str) -> int:
    """The Anki note id of a question: derived from its id, never 0, the same in every build."""
    digest = int.from_bytes(hashlib.sha256(question_id.encode("utf-8")).digest()[:8], "big")
    return NOTE_IDS_FROM + digest % NOTE_IDS_SPAN


class QuestionNote(genanki.Note):
    """A note whose id comes from its question. genanki numbers notes and cards from the package's
    timestamp instead (a timestamp of 0 gave the first note id 0, which Anki's database check
    rejects); its cards take the ids that follow the note's."""

    def __init__(self, question_id: str, **kwargs: object) -> None:
        super().__init__(guid=genanki.guid_for(question_id), **kwargs)
        self.id = note_id(question_id)

    def write_to_db(self, cursor, timestamp: float, deck_id: int, id_gen) -> None:  # type: ignore[no-untyped-def]
        super().write_to_db(cursor, timestamp, deck_id, itertools.count(self.id))


def _html(text: str) -> str:
    return markdown.markdown(text)


def subdeck(place: Place) -> str:
    """The deck a page's cards go in: its place in the curriculum under the top deck."""
    return "::".join((DECK_NAME, *(part.replace("::", ":") for part in place.path)))


def _tag(text: str) -> str:
    """A tag word (Anki splits tags at spaces): "data loading" -> "data_loading"."""
    return "_".join(text.replace("::", ":").split())


def tags(question: Question, place: Place) -> list[str]:
    """The note's tags: its page's topics, week and day, and its sources."""
    found = [f"topic::{_tag(topic)}" for topic in place.topics]
    found += [f"{unit}::{number}" for unit, number in place.numbered().items() if unit != "phase"]
    found += [f"source::{source.lower().replace(' ', '-')}::q{number}" for source, number in question.sources]
    if not question.in_notes:
        found.append("source::not-in-the-notes")
    return sorted(set(found))


def explained_sources(html: str, site_url: str) -> str:
    """Each source tag, "(Day 6, Q19)", as words that say what it is, linked to its entry on the
    Sources page: "(question 19 of the Day 6 notes)"."""
    sources = site_url.rstrip("/") + "/" + SOURCES_PAGE.removesuffix(".md") + "/"

    def explained(match: re.Match[str]) -> str:
        source, number = match[1], int(match[2])
        notes = "the cross-topic review" if source == "Review" else f"the {source} notes"
        link = f'<a href="{sources}#{source_anchor(source, number)}">question {number} of {notes}</a>'
        return f"({link})"

    return SOURCE_TAG.sub(explained, html)


def deck_id(name: str) -> int:
    """The top deck's fixed id, or one derived from a subdeck's name, the same in every build."""
    if name == DECK_NAME:
        return DECK_ID
    digest = int.from_bytes(hashlib.sha256(("deck " + name).encode("utf-8")).digest()[:8], "big")
    return NOTE_IDS_FROM + digest % NOTE_IDS_SPAN


def build_deck(
    questions: list[Question], site_url: str, timestamp: float, places: dict[str, Place] | None = None
) -> bytes:
    """The .apkg file's bytes. ``timestamp`` (seconds) is every note's modification time: Anki
    updates an imported note only from a newer one, and the same timestamp gives the same file.
    ``places``: each page's place in the curriculum, by its path under docs/; a page without one
    is filed under its path."""
    if urlparse(site_url).scheme not in ("http", "https"):
        raise ValueError(f"the deck's links need the site's absolute address (site_url), not {site_url!r}")
    timestamp = max(timestamp, CARDS_CHANGED)
    decks = {DECK_NAME: genanki.Deck(DECK_ID, DECK_NAME)}
    owners: dict[int, str] = {}
    for question in questions:
        place = (places or {}).get(question.page) or Place((), question.page.removesuffix(".md"))
        note = QuestionNote(
            question.id,
            model=MODEL,
            fields=[
                _html(question.title).removeprefix("<p>").removesuffix("</p>"),
                explained_sources(_html(question.asked_as_plain_label), site_url),
                _html(question.short_answer),
                site_url.rstrip("/") + "/" + question.site_path,
            ],
            tags=tags(question, place),
        )
        if note.id in owners:
            raise ValueError(f"questions {owners[note.id]!r} and {question.id!r} give the same note id")
        owners[note.id] = question.id
        name = subdeck(place)
        parts = name.split("::")
        for depth in range(2, len(parts) + 1):  # the parents too, so that each has a stable id
            parent = "::".join(parts[:depth])
            decks.setdefault(parent, genanki.Deck(deck_id(parent), parent))
        decks[name].add_note(note)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deck.apkg"
        genanki.Package(list(decks.values())).write_to_file(path, timestamp=timestamp)
        return _stamped(path.read_bytes(), timestamp)


def _stamped(apkg: bytes, timestamp: float) -> bytes:
    """The archive with every member dated ``timestamp``: genanki dates them with the clock, so two
    builds a second apart differed."""
    date_time = time.gmtime(max(timestamp, 315_532_800))[:6]  # zip dates start in 1980
    out = BytesIO()
    with zipfile.ZipFile(BytesIO(apkg)) as source, zipfile.ZipFile(out, "w") as target:
        for member in source.infolist():
            stamped = zipfile.ZipInfo(member.filename, date_time)
            stamped.compress_type, stamped.external_attr = member.compress_type, member.external_attr
            target.writestr(stamped, source.read(member))
    return out.getvalue()
