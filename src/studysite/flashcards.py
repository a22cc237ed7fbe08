"""Every question with its short answer as an Anki deck (genanki writes the .apkg format)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import genanki
import markdown

from studysite.questions import Question

# Fixed ids: a reader who imports a newer deck updates their cards instead of getting copies.
MODEL_ID = 1_624_090_301
DECK_ID = 1_624_090_302
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


def _html(text: str) -> str:
    return markdown.markdown(text)


def build_deck(questions: list[Question], site_url: str, timestamp: float = 0.0) -> bytes:
    """The .apkg file's bytes. A fixed timestamp keeps the file identical between builds."""
    deck = genanki.Deck(DECK_ID, "PyTorch Foundations")
    for question in questions:
        fields = [
            _html(question.title).removeprefix("<p>").removesuffix("</p>"),
            _html(question.asked_as.replace("*Asked as:*", "Asked as:")),
            _html(question.short_answer),
            site_url.rstrip("/") + "/" + question.site_path,
        ]
        deck.add_note(genanki.Note(model=MODEL, fields=fields, guid=genanki.guid_for(question.url)))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deck.apkg"
        genanki.Package(deck).write_to_file(path, timestamp=timestamp)
        return path.read_bytes()
