from studysite.questions import correction_anchor, parse, plain_text

PAGE = """# Day 1 — Memory

Prose.

## View vs. copy { #view-vs-copy }

*Asked as:* "What is a view?" (Day 1, Q1) ·
"clone vs view?" (Review, Q2)

/// html | div.answer

!!! short-answer "Short answer"
    A view shares storage. A copy does not.

Full answer.

%run snippets/a/b.py

!!! correction "`clone()` does not copy the graph"
    **Claimed:** it does.

    **True:** it does not.

    **Shown by:** [`b.py`](#b)

///

## Further reading

Not a question.

```markdown
## An example in a fence { #example }

*Asked as:* "not real" (Day 1, Q9)
```
"""


def test_a_question_is_read_with_its_parts():
    (question,) = parse(PAGE, "week-1/memory.md")
    assert (question.anchor, question.title, question.line) == ("view-vs-copy", "View vs. copy", 5)
    assert question.sources == [("Day 1", 1), ("Review", 2)]
    assert question.short_answer == "A view shares storage. A copy does not."
    (correction,) = question.corrections
    assert correction.title == "`clone()` does not copy the graph"
    assert correction.anchor == "correction-clone-does-not-copy-the-graph"
    assert correction.body.startswith("**Claimed:** it does.\n\n**True:**")
    assert correction.line == 19


def test_headings_without_asked_as_and_fenced_examples_are_not_questions():
    assert [q.anchor for q in parse(PAGE, "p.md")] == ["view-vs-copy"]
    assert "Not a question" not in parse(PAGE, "p.md")[0].body


def test_site_paths_follow_directory_urls():
    (question,) = parse(PAGE, "week-1/memory.md")
    assert question.site_path == "week-1/memory/#view-vs-copy"
    (index_question,) = parse(PAGE, "week-1/day-1/index.md")
    assert index_question.site_path == "week-1/day-1/#view-vs-copy"


def test_plain_text_and_anchor_match_what_the_reader_sees():
    assert plain_text("`x += y` *in place*") == "x += y in place"
    assert correction_anchor("x += y <in place>") == "correction-x-y-in-place"


def test_a_page_without_questions_gives_none():
    assert parse("# Title\n\nText.\n", "p.md") == []


def test_a_correction_gives_its_claim_as_the_notes_put_it():
    text = """## Q { #q }

*Asked as:* "q?" (Day 1, Q1)

/// html | div.answer

!!! correction "Views need strides, not contiguity"
    **Claimed:** `.view()` requires the tensor
    to be contiguous.

    **True:** it requires compatible strides.

!!! correction "No claim here"
    Just prose.

///
"""
    first, second = parse(text, "p.md")[0].corrections
    assert first.claim == "`.view()` requires the tensor to be contiguous."
    assert second.claim == ""


NOT_IN_NOTES = """## Why does a second backward fail? { #retain-graph }

*A common interview question, not in the notes:* "What does `retain_graph=True` do?" ·
"Trying to backward through the graph a second time?"

/// html | div.answer

!!! short-answer "Short answer"
    Backward frees the saved tensors. A second one finds them gone.

///
"""


def test_a_question_no_note_asks_says_so_in_place_of_asked_as():
    (question,) = parse(NOT_IN_NOTES, "week-1/autograd.md")
    assert question.anchor == "retain-graph" and question.short_answer.startswith("Backward frees")
    assert not question.in_notes and question.sources == []
    assert question.asked_as_plain_label.startswith('A common interview question, not in the notes: "What')
    (cited,) = parse(PAGE, "week-1/memory.md")
    assert cited.in_notes and cited.asked_as_plain_label.startswith('Asked as: "What is a view?"')


def test_the_phrasings_are_the_quoted_questions_without_quotes_or_tags():
    page = PAGE.replace(
        '"What is a view?" (Day 1, Q1)',
        '"What is "a view"? Give `x.t()` as an example." (Day 1, Q1) · "Is it a copy?" (Review, Q2)',
    )
    (cited,) = parse(page, "week-1/memory.md")
    assert cited.phrasings == [
        'What is "a view"? Give `x.t()` as an example.',
        "Is it a copy?",
        "clone vs view?",
    ]
    (reader,) = parse(NOT_IN_NOTES, "week-1/autograd.md")
    assert reader.phrasings == [
        "What does `retain_graph=True` do?",
        "Trying to backward through the graph a second time?",
    ]
