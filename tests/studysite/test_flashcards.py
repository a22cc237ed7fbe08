import io
import os
import sqlite3
import time
import zipfile
from pathlib import Path

import genanki
import pytest
from anki.collection import Collection
from anki.import_export_pb2 import ImportAnkiPackageRequest
from mkdocs.commands.build import build
from mkdocs.config import load_config

from studysite.flashcards import CARDS_CHANGED, DECK_ID, MODEL, QuestionNote, build_deck, note_id
from studysite.questions import parse

SITE = "https://example.org/site/"
PAGE = """## What is a view? { #view }

*Asked as:* "What is a view?" (Day 1, Q1)

/// html | div.answer

!!! short-answer "Short answer"
    A view shares **storage**. Writing through it changes the base.

///
"""
PHASE = "PyTorch Foundations::Phase 1 — Foundations"  # the site's curriculum, its first phase
SECOND = PAGE.replace("{ #view }", "{ #copy }").replace("a view?", "a copy?")


def notes(deck: bytes, tmp_path) -> list[list[str]]:
    database = tmp_path / "collection.anki2"
    database.write_bytes(zipfile.ZipFile(io.BytesIO(deck)).read("collection.anki2"))
    return [row[0].split("\x1f") for row in sqlite3.connect(database).execute("select flds from notes")]


def test_each_question_becomes_a_card_with_its_short_answer_and_link(tmp_path):
    deck = build_deck(parse(PAGE, "week-1/day-1/index.md"), SITE, 1.7e9)
    ((front, asked, back, link),) = notes(deck, tmp_path)
    assert front == "What is a view?"
    # The source tag says what it is, linked to its entry on the Sources page.
    assert '(<a href="https://example.org/site/sources/#day-1-q1">question 1 of the Day 1 notes</a>)' in asked
    assert "(Day 1, Q1)" not in asked
    assert "<strong>storage</strong>" in back
    assert link == "https://example.org/site/week-1/day-1/#view"


def test_the_same_questions_give_the_same_file(monkeypatch):
    questions = parse(PAGE, "p.md")
    first = build_deck(questions, SITE, 1.7e9)
    # An hour later by the clock: the archive must not carry the time it was written.
    later = time.time() + 3600
    monkeypatch.setattr(time, "time", lambda: later)
    assert build_deck(questions, SITE, 1.7e9) == first


def test_no_questions_give_an_empty_deck(tmp_path):
    assert notes(build_deck([], SITE, 1.7e9), tmp_path) == []


def test_a_deck_without_the_sites_address_is_refused():
    with pytest.raises(ValueError, match="site_url"):
        build_deck(parse(PAGE, "p.md"), "/", 1.7e9)


def test_note_ids_come_from_the_question_id_whatever_its_page(tmp_path):
    # The page moved, the id did not: the note (and the reader's history in Anki) stays the same.
    ids = {}
    for page in ("week-1/day-1/index.md", "week-2/other.md"):
        database = tmp_path / f"{page.replace('/', '-')}.anki2"
        deck = build_deck(parse(PAGE, page), SITE, 1.7e9)
        database.write_bytes(zipfile.ZipFile(io.BytesIO(deck)).read("collection.anki2"))
        ids[page] = sqlite3.connect(database).execute("select id, guid from notes").fetchall()
    assert ids["week-1/day-1/index.md"] == ids["week-2/other.md"]
    ((id_, _guid),) = ids["week-2/other.md"]
    assert id_ == note_id("view") > 0


# Importing into Anki's own engine (the `anki` package: the desktop app's Rust backend).


def import_into(collection: Collection, deck: Path):
    options = collection._backend.get_import_anki_package_presets()  # the app's defaults
    request = ImportAnkiPackageRequest(package_path=str(deck), options=options)
    return collection.import_anki_package(request).log


def assert_database_check_passes(collection: Collection) -> None:
    problems, ok = collection.fix_integrity()
    assert ok, problems


def write_project(root: Path, pages: dict[str, str], nav: str = "") -> Path:
    for name, text in pages.items():
        (root / "docs" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "docs" / name).write_text(text, encoding="utf-8")
    plugins = "plugins: [docexec, studysite]"  # the study plugin reads the pages docexec planned
    (root / "mkdocs.yml").write_text(f"site_name: Deck test\nsite_url: {SITE}\n{plugins}\n{nav}")
    return root / "mkdocs.yml"


def build_site_deck(config_file: Path, site_dir: Path) -> Path:
    """A real MkDocs build of the project with the study plugin; the deck it writes."""
    build(load_config(str(config_file), site_dir=str(site_dir)))
    return site_dir / "study" / "pytorch-foundations.apkg"


def test_a_rebuilt_deck_updates_the_readers_notes_instead_of_adding_copies(tmp_path):
    config_file = write_project(tmp_path / "project", {"views.md": PAGE, "copies.md": SECOND})
    first = build_site_deck(config_file, tmp_path / "first")
    collection = Collection(str(tmp_path / "collection.anki2"))
    try:
        log = import_into(collection, first)
        assert (len(log.new), len(log.updated)) == (2, 0)
        assert_database_check_passes(collection)
        ids = set(collection.db.list("select id from notes"))
        assert ids == {note_id("view"), note_id("copy")}

        # The page is edited later (its modification time moves on) and the site is built again.
        page = config_file.parent / "docs" / "views.md"
        page.write_text(PAGE.replace("shares **storage**", "shares **memory**"), encoding="utf-8")
        later = page.stat().st_mtime + 60
        os.utime(page, (later, later))
        second = build_site_deck(config_file, tmp_path / "second")
        log = import_into(collection, second)
        assert len(log.new) == 0 and len(log.updated) >= 1
        assert collection.note_count() == 2
        assert set(collection.db.list("select id from notes")) == ids
        (updated,) = collection.db.list("select flds from notes where id = ?", note_id("view"))
        assert "<strong>memory</strong>" in updated and "storage" not in updated
        assert_database_check_passes(collection)
    finally:
        collection.close()


def test_the_same_pages_build_the_same_deck(tmp_path):
    config_file = write_project(tmp_path / "project", {"views.md": PAGE})
    first = build_site_deck(config_file, tmp_path / "first").read_bytes()
    assert build_site_deck(config_file, tmp_path / "second").read_bytes() == first


def test_the_sites_deck_imports_into_anki_and_passes_its_database_check(built_site, root, tmp_path):
    deck = built_site.path / "study" / "pytorch-foundations.apkg"
    questions = []
    for page in sorted((root / "docs").rglob("*.md")):
        questions += parse(page.read_text(encoding="utf-8"), page.relative_to(root / "docs").as_posix())
    site_url = load_config(str(root / "mkdocs.yml")).site_url
    collection = Collection(str(tmp_path / "collection.anki2"))
    try:
        log = import_into(collection, deck)
        assert len(log.new) == len(questions) > 40
        assert_database_check_passes(collection)
        rows = collection.db.execute("select id, flds from notes")
        links = {nid: fields.split("\x1f")[3] for nid, fields in rows}
        assert links == {note_id(q.id): site_url + q.site_path for q in questions}
        # A subdeck per topic page, under its phase, week (and day) as the navigation names them.
        decks: dict[str, set[int]] = {}
        for card in map(collection.get_card, collection.find_cards("")):
            decks.setdefault(collection.decks.name(card.did), set()).add(card.nid)
        pages = {q.page for q in questions}
        assert len(decks) == len(pages)
        assert {len(ids) for ids in decks.values()} == {
            sum(q.page == page for q in questions) for page in pages
        }
        week_1 = f"{PHASE}::Week 1 — The Engine"
        day_6 = f"{PHASE}::Week 2 — Data & Workflow::Day 6 — Data engineering"
        autograd = {note_id(q.id) for q in questions if q.page == "week-1/autograd.md"}
        loaders = {note_id(q.id) for q in questions if q.page == "week-2/day-6/datasets-and-loaders.md"}
        assert decks[f"{week_1}::Autograd"] == autograd
        assert decks[f"{day_6}::Datasets and the loader"] == loaders
        # Each note tagged with its topics, its week and where it comes from.
        for note in map(collection.get_note, collection.find_notes("")):
            prefixes = {tag.split("::")[0] for tag in note.tags}
            assert {"topic", "week", "source"} <= prefixes, note.tags
        assert len(collection.find_notes("tag:source::not-in-the-notes")) == sum(
            not q.in_notes for q in questions
        )
        # Imported again unchanged: nothing is added.
        again = import_into(collection, deck)
        assert len(again.new) == 0 and collection.note_count() == len(questions)
        assert_database_check_passes(collection)
    finally:
        collection.close()


def test_a_question_no_note_asks_says_so_on_its_card(tmp_path):
    page = PAGE.replace("*Asked as:*", "*A common interview question, not in the notes:*").replace(
        " (Day 1, Q1)", ""
    )
    ((_front, asked, _back, _link),) = notes(build_deck(parse(page, "p.md"), SITE, 1.7e9), tmp_path)
    assert asked == '<p>A common interview question, not in the notes: "What is a view?"</p>'


# The curriculum, as a site's navigation names it: each topic page is a subdeck.
CURRICULUM_NAV = """nav:
  - Phase 1 — Foundations:
      - Week 1 — The Engine:
          - Day 1 — Tensors:
              - Memory and views: week-1/day-1/views.md
          - Autograd: week-1/autograd.md
      - Week 2 — Data & Workflow:
          - Day 6 — Data engineering:
              - Datasets and the loader: week-2/day-6/loaders.md
"""
CURRICULUM_PAGES = {
    "week-1/day-1/views.md": "---\ntags: [memory, performance]\n---\n# Views\n\n" + PAGE + "\n" + SECOND,
    "week-1/autograd.md": "---\ntags: [autograd]\n---\n# Autograd\n\n"
    + PAGE.replace("{ #view }", "{ #leaf }")
    .replace("*Asked as:*", "*A common interview question, not in the notes:*")
    .replace(" (Day 1, Q1)", ""),
    "week-2/day-6/loaders.md": "---\ntags: [data loading]\n---\n# Loaders\n\n"
    + PAGE.replace("{ #view }", "{ #loader }").replace("(Day 1, Q1)", "(Day 6, Q19) (Review, Q4)"),
}


def test_the_deck_has_a_subdeck_per_topic_and_tags_per_topic_week_and_source(tmp_path):
    config_file = write_project(tmp_path / "project", CURRICULUM_PAGES, CURRICULUM_NAV)
    deck = build_site_deck(config_file, tmp_path / "site")
    collection = Collection(str(tmp_path / "collection.anki2"))
    try:
        log = import_into(collection, deck)
        assert len(log.new) == 4
        assert_database_check_passes(collection)
        topics = {
            f"{PHASE}::Week 1 — The Engine::Day 1 — Tensors::Memory and views": {"view", "copy"},
            f"{PHASE}::Week 1 — The Engine::Autograd": {"leaf"},
            f"{PHASE}::Week 2 — Data & Workflow::Day 6 — Data engineering::Datasets and the loader": {
                "loader"
            },
        }
        names = {deck.name for deck in collection.decks.all_names_and_ids()}
        assert set(topics) <= names
        for name, ids in topics.items():
            cards = collection.find_cards(f'"deck:{name}" -"deck:{name}::*"')
            assert {collection.get_card(card).nid for card in cards} == {note_id(id_) for id_ in ids}, name
        # A week studied as a whole: its subdecks' cards together.
        assert len(collection.find_cards(f'"deck:{PHASE}::Week 1 — The Engine"')) == 3
        assert len(collection.find_cards('"deck:PyTorch Foundations"')) == 4

        def tagged(note: str) -> set[str]:
            return set(collection.get_note(note_id(note)).tags)

        assert tagged("view") == {
            "topic::memory", "topic::performance", "week::1", "day::1", "source::day-1::q1"
        }
        assert tagged("leaf") == {"topic::autograd", "week::1", "source::not-in-the-notes"}
        assert tagged("loader") == {
            "topic::data_loading", "week::2", "day::6", "source::day-6::q19", "source::review::q4"
        }
        # One topic studied across pages, by its tag.
        assert len(collection.find_cards("tag:topic::memory")) == 2
        assert len(collection.find_cards("tag:week::2")) == 1
    finally:
        collection.close()


def test_a_deck_imported_before_it_had_topics_gets_them_on_reimport(tmp_path):
    """A reader who imported the deck of one deck and no tags: the same notes, now tagged."""
    config_file = write_project(tmp_path / "project", CURRICULUM_PAGES, CURRICULUM_NAV)
    # The deck as it was before (one deck, no tags), dated before the change to its cards.
    deck = genanki.Deck(DECK_ID, "PyTorch Foundations")
    for page, text in CURRICULUM_PAGES.items():
        for question in parse(text, page):
            fields = [question.title, question.asked_as, question.short_answer, SITE + question.site_path]
            deck.add_note(QuestionNote(question.id, model=MODEL, fields=fields))
    old = tmp_path / "old.apkg"
    genanki.Package(deck).write_to_file(old, timestamp=CARDS_CHANGED - 86400)
    collection = Collection(str(tmp_path / "collection.anki2"))
    try:
        import_into(collection, old)
        log = import_into(collection, build_site_deck(config_file, tmp_path / "site"))
        assert (len(log.new), len(log.updated)) == (0, 4)
        assert collection.note_count() == 4
        assert "topic::memory" in collection.get_note(note_id("view")).tags
        # Anki leaves the cards of an updated note in the deck they are in (a reader's own choice,
        # kept): those imported before stay together, and are studied by topic through their tags.
        assert_database_check_passes(collection)
    finally:
        collection.close()
