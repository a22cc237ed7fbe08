"""Every question with its short answer as an Anki deck (genanki writes the .apkg format).

A note is keyed by the question's stable id (``Question.id``, its anchor): its guid and its note id
are derived from it, so that importing a newer deck updates the reader's notes (and keeps their
review history) instead of adding copies, even when a question has moved to another page.
"""

from __future__ import annotations

import hashlib
import itertools
import tempfile
import time
import zipfile
from io import BytesIO
from pathlib import Path
from urllib.parse import urlparse

import genanki
import markdown

from studysite.questions import Question

# Fixed ids: a reader who imports a newer deck updates their cards instead of getting copies.
MODEL_ID = 1_624_090_301
DECK_ID = 1_624_090_302
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


def build_deck(questions: list[Question], site_url: str, timestamp: float) -> bytes:
    """The .apkg file's bytes. ``timestamp`` (seconds) is every note's modification time: Anki
    updates an imported note only from a newer one, and the same timestamp gives the same file."""
    if urlparse(site_url).scheme not in ("http", "https"):
        raise ValueError(f"the deck's links need the site's absolute address (site_url), not {site_url!r}")
    deck = genanki.Deck(DECK_ID, "PyTorch Foundations")
    owners: dict[int, str] = {}
    for question in questions:
        note = QuestionNote(
            question.id,
            model=MODEL,
            fields=[
                _html(question.title).removeprefix("<p>").removesuffix("</p>"),
                _html(question.asked_as_plain_label),
                _html(question.short_answer),
                site_url.rstrip("/") + "/" + question.site_path,
            ],
        )
        if note.id in owners:
            raise ValueError(f"questions {owners[note.id]!r} and {question.id!r} give the same note id")
        owners[note.id] = question.id
        deck.add_note(note)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deck.apkg"
        genanki.Package(deck).write_to_file(path, timestamp=timestamp)
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
