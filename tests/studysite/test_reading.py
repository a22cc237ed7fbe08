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

## `DataParallel` vs. DDP { #dp-vs-ddp }

*Not in the notes:* a common interview question, asked as "DP vs. DDP?"

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
    questions = ["views.md#view-vs-copy", "views.md#view-error", "views.md#dp-vs-ddp"]
    assert links == ["views.md", *questions, "other.md"]
    assert "kept" in html and "errors" not in html


def test_a_page_opens_with_the_list_of_its_questions_and_the_review_page_too():
    html = render(TOPIC, "week-1/day-1/views.md")
    assert html.index("<h1") < html.index('<details class="study-on-this-page">') < html.index("<h2")
    assert re.findall(r'<li><a href="(#[^"]+)">', html) == ["#view-vs-copy", "#view-error", "#dp-vs-ddp"]
    review = "# Review\n\n### 1. First { #q1 }\n\nText.\n\n### 2. Second { #q2 }\n\nText.\n"
    html = render(review, "review.md")
    assert '<details class="study-on-this-page">' in html
    assert re.findall(r'<li><a href="(#[^"]+)">([^<]+)</a>', html) == [("#q1", "First"), ("#q2", "Second")]


def test_the_asked_as_text_that_flash_cards_use_has_no_escaped_quote():
    assert FOUND[0].asked_as.startswith('*Asked as:* "What is "a view"?"')


def test_a_question_no_note_asks_links_its_mark_and_is_listed_apart_on_the_sources_page():
    html = render(TOPIC, "week-1/day-1/views.md")
    assert '<em><a href="../../sources.md#not-in-the-notes">Not in the notes</a>:</em> a common' in html
    sources = markdown.markdown(sources_page(FOUND), extensions=["tables", "attr_list"])
    listed = sources.split('<h2 id="not-in-the-notes">Not in the notes</h2>', 1)
    assert len(listed) == 2 and "dp-vs-ddp" not in listed[0]
    assert re.findall(r'<li><a href="([^"]+)">', listed[1]) == ["week-1/day-1/views.md#dp-vs-ddp"]
