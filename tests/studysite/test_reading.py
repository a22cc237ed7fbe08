"""Ways to a question: source tags, the Sources page, day tables and the page's list of questions."""

import re

import markdown

from studysite.questions import parse
from studysite.reading import ReadingExtension, sources_page

TOPIC = """# Views

## View vs. copy { #view-vs-copy }

*Asked as:* "What is \\"a view\\"?" (Day 1, Q1) ·
"and a copy?" (Review, Q2)

Body.

## Why `view()` fails { #view-error }

*Asked as:* "Why does it fail?" (Day 1, Q2)

Body.
"""
FOUND = parse(TOPIC, "week-1/day-1/views.md")


def render(text: str, page: str) -> str:
    extensions = ["tables", "attr_list", "toc", ReadingExtension(lambda: FOUND, lambda: page)]
    return markdown.markdown(text, extensions=extensions)


def test_source_tags_link_to_the_sources_page_and_escaped_quotes_read_as_quotes():
    html = render(TOPIC, "week-1/day-1/views.md")
    assert '"What is "a view"?"' in html and '\\"' not in html
    assert '(<a href="../../sources.md#day-1-q1">Day 1, Q1</a>)' in html
    assert '(<a href="../../sources.md#review-q2">Review, Q2</a>)' in html


def test_the_sources_page_lists_each_notes_questions_with_where_they_are_answered():
    html = markdown.markdown(sources_page(FOUND), extensions=["tables", "attr_list"])
    assert re.search(r'<h2 id="day-1">Day 1</h2>\s*<p>Day 1: PyTorch Tensors', html)
    assert html.index('id="day-1"') < html.index('id="review"')  # numbered days first
    row = re.search(r'<span id="day-1-q2"></span>Q2</td>\s*<td>(.*?)</td>', html)
    assert row and row[1] == '<a href="week-1/day-1/views.md#view-error">Why <code>view()</code> fails</a>'
    assert '<a href="review.md#q2">Q2</a>' in html


def test_a_day_table_links_every_question_of_the_pages_it_lists():
    table = "| topic | questions |\n| --- | --- |\n"
    table += "| [Views](views.md) | views · errors |\n| [Other](other.md) | kept |\n"
    html = render(table, "week-1/day-1/index.md")
    links = re.findall(r'<a href="([^"]+)">', html)
    assert links == ["views.md", "views.md#view-vs-copy", "views.md#view-error", "other.md"]
    assert "kept" in html and "errors" not in html


def test_a_page_opens_with_the_list_of_its_questions_and_the_review_page_too():
    html = render(TOPIC, "week-1/day-1/views.md")
    assert html.index("<h1") < html.index('<details class="study-on-this-page">') < html.index("<h2")
    assert re.findall(r'<li><a href="(#[^"]+)">', html) == ["#view-vs-copy", "#view-error"]
    review = "# Review\n\n### 1. First { #q1 }\n\nText.\n\n### 2. Second { #q2 }\n\nText.\n"
    html = render(review, "review.md")
    assert '<details class="study-on-this-page">' in html
    assert re.findall(r'<li><a href="(#[^"]+)">([^<]+)</a>', html) == [("#q1", "First"), ("#q2", "Second")]


def test_the_asked_as_text_that_flash_cards_use_has_no_escaped_quote():
    assert FOUND[0].asked_as.startswith('*Asked as:* "What is "a view"?"')


def test_the_sources_page_lists_the_questions_no_note_asks_apart_with_their_page():
    other = parse(
        '# Graphs\n\n## Backward twice { #retain-graph }\n\n'
        '*A common interview question, not in the notes:* "retain_graph?"\n\nBody.\n',
        "week-1/autograd-graphs.md",
    )
    html = markdown.markdown(
        sources_page(FOUND + other, {"week-1/autograd-graphs.md": "The autograd graph"}),
        extensions=["tables", "attr_list"],
    )
    assert '<a href="#not-in-the-notes">listed apart</a>' in html
    assert html.index('id="review"') < html.index('<h2 id="not-in-the-notes">Not in the notes</h2>')
    section = html.split('id="not-in-the-notes"')[1]
    rows = re.findall(r"<tr>\s*<td>(.*?)</td>\s*<td>(.*?)</td>", section)
    assert rows == [
        (
            '<a href="week-1/autograd-graphs.md#retain-graph">Backward twice</a>',
            '<a href="week-1/autograd-graphs.md">The autograd graph</a>',
        )
    ]
    assert "view-vs-copy" not in section  # a question of the notes stays under its note


def test_a_site_whose_questions_all_come_from_the_notes_has_no_such_section():
    assert "not-in-the-notes" not in sources_page(FOUND)
