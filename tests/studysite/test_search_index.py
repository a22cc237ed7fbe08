import json

from material.plugins.search.plugin import Parser

from studysite.search_index import (
    DRILL_BOOST,
    PAGE_ENTRY_BOOST,
    SUPPORTING_PAGE_BOOST,
    exclude_code_and_outputs,
    reshape,
)

SEPARATOR = r"""[\s\-,:!?=\[\]()"'`/*^~+<>\\_]+|\.(?!\d)|&[lg]t;"""  # mkdocs.yml's
SNIPPET = """<h2 id="q">A question</h2>
<p>Prose that stays.</p>
<div id="s" class="docexec-source highlight"><span class="filename">snippets/a/b.py</span>
<pre><span></span><code>import torch
</code></pre></div>
<details class="note"><summary>The whole program</summary>
<div class="highlight"><pre><code>x = 1</code></pre></div></details>
<div class="docexec-output highlight"><span class="filename">Output</span>
<pre><code>tensor([1.])</code></pre></div>
<div class="admonition info docexec-needs-gpu"><p class="admonition-title">Needs a GPU</p>
<p>This code runs only on a machine with a CUDA GPU.</p></div>
<details class="docexec-proof">
<summary>The whole proof (26 lines)</summary>
<div class="highlight"><pre><code>y = 2</code></pre></div></details>
<p>More prose.</p>"""


def indexed_text(html: str) -> str:
    """What Material's own indexer keeps of the HTML."""
    parser = Parser()
    parser.feed(html)
    parser.close()
    return " ".join("".join(section.text) for section in parser.data if not section.is_excluded())


def test_materials_indexer_skips_code_outputs_and_their_titles_but_keeps_the_prose():
    assert "import torch" in indexed_text(SNIPPET)  # as it was
    kept = indexed_text(exclude_code_and_outputs(SNIPPET))
    assert "Prose that stays." in kept and "More prose." in kept
    gone = ("import torch", "x = 1", "tensor([1.])", "snippets/a/b.py", "Output", "whole proof", "y = 2")
    gone += ("Needs a GPU", "CUDA")
    for text in gone:
        assert text not in kept


def write_index(tmp_path, docs):
    path = tmp_path / "search_index.json"
    config = {"lang": ["en"], "separator": SEPARATOR, "pipeline": ["stopWordFilter"], "fields": {}}
    path.write_text(json.dumps({"config": config, "docs": docs}))
    return path


QUESTION_TEXT = (
    '<p>Asked as: "What is a view?" (Day 1, Q1)</p> <p>Short answer</p> <p>A view shares '
    "<code>storage</code> with its base.</p> <p>The full answer: strides, offsets and "
    "<code>storage</code> again, and contiguity, 2 or 0.5 of x.</p>"
)


def test_a_question_keeps_its_short_answer_as_text_and_the_rest_as_words_once(tmp_path):
    path = write_index(
        tmp_path,
        [
            {"location": "views/", "title": "Views", "text": "<p>Intro.</p>"},
            {"location": "views/#view", "title": "What is a view?", "text": QUESTION_TEXT},
            {"location": "views/#notes", "title": "Notes", "text": "<p>The full answer, not a question.</p>"},
        ],
    )
    reshape(path, {"views/#view"})
    page, question, notes = json.loads(path.read_text())["docs"]
    assert question["text"].endswith("with its base.</p>") and "strides" not in question["text"]
    # Each word once, none already shown ("answer", "storage"), no stop words ("and"), no numbers or
    # single characters ("2", "0.5", "x").
    assert question["words"] == "full strides offsets again contiguity"
    assert "boost" not in question
    assert page["boost"] == PAGE_ENTRY_BOOST
    assert notes["text"] == "<p>The full answer, not a question.</p>" and "words" not in notes


def test_a_question_no_note_asks_keeps_its_phrasing_and_short_answer_as_text(tmp_path):
    text = QUESTION_TEXT.replace("Asked as:", "A common interview question, not in the notes:")
    text = text.replace(" (Day 1, Q1)", "")
    path = write_index(tmp_path, [{"location": "views/#view", "title": "What is a view?", "text": text}])
    reshape(path, {"views/#view"})
    (question,) = json.loads(path.read_text())["docs"]
    assert question["text"].startswith("<p>A common interview question, not in the notes:")
    assert question["text"].endswith("with its base.</p>") and "strides" in question["words"]


def test_entries_lose_their_code_marks_and_plural_twins_and_keep_their_characters(tmp_path):
    full = "Gradients · gradient — losses, loss and batches, naïvely:"
    text = QUESTION_TEXT.replace("The full answer:", full)
    path = write_index(tmp_path, [{"location": "views/#view", "title": "What is a view?", "text": text}])
    reshape(path, {"views/#view"})
    raw = path.read_bytes()
    (question,) = json.loads(raw)["docs"]
    assert question["text"] == (
        '<p>Asked as: "What is a view?" (Day 1, Q1)</p> <p>Short answer</p> '
        "<p>A view shares storage with its base.</p>"
    )
    # "gradients" and "losses" stem as "gradient" and "loss" do; "batches" has no twin here.
    words = question["words"].split()
    assert {"gradient", "loss", "batches", "strides"} <= set(words)
    assert not {"gradients", "losses"} & set(words)
    # A lone "—" is no word a reader searches by; "naïvely" keeps its "ï" as UTF-8.
    assert "naïvely" in words and "ï".encode() in raw and b"\\u00ef" not in raw


def test_pages_without_questions_weigh_less_than_questions(tmp_path):
    path = write_index(
        tmp_path,
        [
            {"location": "review/", "title": "Review", "text": ""},
            {"location": "review/#q1", "title": "1. Views", "text": "<p>Short answer again.</p>"},
            {"location": "views/#view", "title": "What is a view?", "text": QUESTION_TEXT, "boost": 2},
        ],
    )
    reshape(path, {"views/#view"})
    review, review_q1, question = json.loads(path.read_text())["docs"]
    assert review["boost"] == SUPPORTING_PAGE_BOOST * PAGE_ENTRY_BOOST
    assert review_q1["boost"] == SUPPORTING_PAGE_BOOST
    assert question["boost"] == 2  # a page's own front-matter boost is kept


def test_a_drill_is_found_below_the_question_it_practises(tmp_path):
    path = write_index(
        tmp_path,
        [
            {"location": "views/#view", "title": "What is a view?", "text": QUESTION_TEXT},
            {"location": "views/#drill-is-view", "title": "Practice: a view?", "text": "<p>Task.</p>"},
        ],
    )
    reshape(path, {"views/#view"})
    question, drill = json.loads(path.read_text())["docs"]
    assert "boost" not in question
    assert drill["boost"] == DRILL_BOOST < 1


def test_a_pages_entry_keeps_its_first_paragraph_the_rest_as_words_an_api_object_its_first_only(tmp_path):
    intro = "<p>How a page begins.</p> <p>Second paragraph with strides.</p>"
    docstring = "<p>Bases: <code>Sampler</code></p> <p>Batches of similar lengths.</p> <p>Pools shuffled.</p>"
    path = write_index(
        tmp_path,
        [
            {"location": "views/", "title": "Views", "text": intro},
            {"location": "reference/data/#torchguide.data.Bucket", "title": "Bucket", "text": docstring},
            {"location": "views/#notes", "title": "Notes", "text": intro},
        ],
    )
    reshape(path, set())
    page, api, section = json.loads(path.read_text())["docs"]
    assert page["text"] == "<p>How a page begins.</p>" and page["words"] == "second paragraph strides"
    assert api["text"].endswith("<p>Batches of similar lengths.</p>") and "words" not in api
    assert section["text"] == intro and "words" not in section  # a heading's section keeps its text
    assert "strides" in indexed_words(page)  # still found by a later word
    assert "shuffled" not in indexed_words(api)


def indexed_words(doc: dict) -> str:
    return " ".join((doc["title"], doc["text"], doc.get("words", ""))).lower()
