"""The generated study pages, from parsed questions."""

from __future__ import annotations

from studysite.questions import parse
from studysite.study_pages import (
    corrections_index,
    interviewer_phrasings,
    is_asked,
    mock_page,
    study_page,
)

PAGE = """# Day 1 — Memory

## View vs. copy { #view-vs-copy }

*Asked as:* "What is a view?" (Day 1, Q1)

/// html | div.answer

!!! short-answer "Short answer"
    A view shares storage.

!!! correction "`view()` needs strides, not contiguity"
    **Claimed:** `.view()` requires a contiguous tensor.

    **True:** it requires compatible strides.

!!! correction "A box without its claim"
    Only prose.

///
"""
TITLES = {"week-1/memory.md": "Day 1 — Memory"}


def questions():
    return parse(PAGE, "week-1/memory.md")


def test_the_corrections_quiz_lists_the_claim_and_hides_the_truth_in_an_answer_block():
    warnings: list[str] = []
    text = corrections_index(questions(), TITLES, warnings.append)
    assert "**Claimed:** `.view()` requires a contiguous tensor." in text
    claim_at = text.index("`.view()` requires a contiguous tensor.")
    anchor = "correction-view-needs-strides-not-contiguity"
    truth_at = text.index(f"[`view()` needs strides, not contiguity](week-1/memory.md#{anchor})")
    assert claim_at < text.index("/// html | div.answer", claim_at) < truth_at
    assert warnings == [
        "docs/week-1/memory.md:17: correction box without a '**Claimed:**' first paragraph: "
        "the corrections quiz lists it by its title"
    ]
    assert "**Claimed:** A box without its claim" in text


def test_the_study_page_lists_every_question_by_topic_with_its_id():
    text = study_page(questions(), TITLES)
    assert '/// html | div.study-topic[data-topic="Day 1 — Memory"]' in text
    assert '- [View vs. copy](week-1/memory.md#view-vs-copy){ data-question-id="view-vs-copy" }' in text
    assert text.startswith("---\nsearch:\n  exclude: true\n---\n")


def test_the_mock_pool_holds_each_question_with_its_short_answer():
    text = mock_page(questions(), TITLES)
    assert '//// html | div.mock-card[data-question-id="view-vs-copy" data-topic="Day 1 — Memory"]' in text
    assert '!!! short-answer "Short answer"\n    A view shares storage.' in text
    assert "[Full answer, with the code that proves it](week-1/memory.md#view-vs-copy)" in text


def test_the_mock_asks_in_the_interviewers_words_never_a_quoted_error_message():
    page = PAGE.replace(
        '"What is a view?" (Day 1, Q1)',
        '"What is a view?" (Day 1, Q1) · "Tensors share storage. Explain `x.t()`." (Review, Q1) · '
        '"RuntimeError: view size is not compatible" (Review, Q2)',
    )
    text = mock_page(parse(page, "week-1/memory.md"), TITLES)
    asked = text.split("/// html | div.mock-card__asked\n\n", 1)[1].split("\n\n///", 1)[0]
    assert asked.split("\n") == ["- What is a view?", "- Tensors share storage. Explain `x.t()`."]
    assert is_asked("Name two tensors you forgot to move.") and is_asked("Is it *contiguous*?")
    assert not is_asked("Expected to have finished reduction in the prior iteration")


def test_every_question_on_the_site_can_be_asked_in_the_interviewers_words(root):
    found = []
    for path in sorted((root / "docs").rglob("*.md")):
        found += parse(path.read_text(encoding="utf-8"), path.relative_to(root / "docs").as_posix())
    assert len(found) > 70
    assert [q.url for q in found if not interviewer_phrasings(q)] == []
