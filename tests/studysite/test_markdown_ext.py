import markdown

from studysite.markdown_ext import StudyExtension
from studysite.questions import parse

SOURCE = """## Q { #q }

*Asked as:* "q?" (Day 1, Q1)

/// html | div.answer

!!! short-answer "Short answer"
    It is so. Really.

///
"""


def render(text, page="review.md"):
    questions = {q.url: q for q in parse(SOURCE, "week-1/p.md")}
    warnings = []
    md = markdown.Markdown(
        extensions=[
            "admonition",
            "attr_list",
            "pymdownx.blocks.html",
            StudyExtension(questions.get, lambda: page, warnings.append),
        ]
    )
    return md.convert(text), warnings


def test_a_correction_box_gets_the_id_of_its_title():
    html, _ = render('!!! correction "`clone()` keeps the graph"\n    Body.\n')
    assert '<div class="admonition correction" id="correction-clone-keeps-the-graph">' in html


def test_answer_lines_become_the_short_answer_with_a_relative_link():
    html, warnings = render("%answer week-1/p.md#q\n", page="review.md")
    assert warnings == []
    assert '<div class="answer" data-question-id="q">' in html and "It is so. Really." in html
    assert 'href="week-1/p.md#q"' in html
    html, _ = render("%answer week-1/p.md#q\n", page="week-2/day-6/index.md")
    assert 'href="../../week-1/p.md#q"' in html


def test_an_unknown_answer_target_is_a_visible_error_and_a_warning():
    html, warnings = render("text\n\n%answer week-1/p.md#nope\n")
    assert "names no question" in html
    assert warnings == ["review.md:3: %answer week-1/p.md#nope: no question there"]


def test_a_question_heading_and_its_answer_carry_the_question_id():
    html, _ = render(
        SOURCE + "\n## Prose { #notes }\n\n/// html | div.answer\n\nNot a question.\n\n///\n",
        page="week-1/p.md",
    )
    assert '<h2 data-question-id="q" id="q">' in html
    assert html.count('data-question-id="q"') == 2, "the heading and its answer, not the block under prose"


def test_a_heading_with_the_same_anchor_on_another_page_is_not_that_question():
    html, _ = render(SOURCE, page="week-2/other.md")
    assert "data-question-id" not in html


def test_a_question_moved_to_another_page_keeps_its_id():
    moved = {q.url: q for q in parse(SOURCE, "week-2/moved.md")}
    md = markdown.Markdown(
        extensions=[
            "attr_list",
            "pymdownx.blocks.html",
            StudyExtension(moved.get, lambda: "week-2/moved.md", print),
        ]
    )
    html = md.convert(SOURCE)
    assert '<h2 data-question-id="q" id="q">' in html and '<div class="answer" data-question-id="q">' in html
