"""Every source question is on the site: under its own heading with a stable anchor, quoted in its
own words (so search finds it), answered with at least one executed snippet."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

# (source tag, numbers) of every question whose answer has landed. Week 2 pages add theirs.
SOURCES = {
    "Day 1": range(1, 21),
    "Review": range(1, 11),
}
ASKED_AS = re.compile(r"^\*Asked as:\*(?P<text>.*(?:\n.*\S.*)*)", re.M)  # the whole paragraph
TAG = re.compile(r"\((Day \d+|Review), Q(\d+)\)")
HEADING = re.compile(r"^## (?P<title>.+?) \{ #(?P<anchor>[a-z0-9-]+) \}$", re.M)


def without_code_blocks(text: str) -> str:
    """The text with fenced blocks blanked out (examples of the format are not questions)."""
    lines = text.split("\n")
    for token in MarkdownIt("commonmark").parse(text):
        if token.type == "fence" and token.map:
            start, end = token.map
            lines[start:end] = [""] * (end - start)
    return "\n".join(lines)


def questions(root: Path) -> list[dict]:
    """One entry per question section of every page: its page, anchor, tags and body."""
    found = []
    for page in sorted((root / "docs").rglob("*.md")):
        text = without_code_blocks(page.read_text(encoding="utf-8"))
        headings = list(HEADING.finditer(text))
        for index, heading in enumerate(headings):
            end = headings[index + 1].start() if index + 1 < len(headings) else len(text)
            body = text[heading.end() : end]
            asked = ASKED_AS.search(body)
            if asked:
                found.append(
                    {
                        "page": page.relative_to(root / "docs").as_posix(),
                        "anchor": heading["anchor"],
                        "title": heading["title"],
                        "tags": TAG.findall(asked["text"]),
                        "asked": asked["text"],
                        "body": body,
                    }
                )
    return found


def test_every_source_question_is_answered_exactly_once(root):
    homes: dict[tuple[str, int], list[str]] = {}
    for question in questions(root):
        for source, number in question["tags"]:
            homes.setdefault((source, int(number)), []).append(f"{question['page']}#{question['anchor']}")
    for source, numbers in SOURCES.items():
        for number in numbers:
            places = homes.get((source, number), [])
            assert len(places) == 1, f"({source}, Q{number}) is answered in {places or 'no place'}"


def test_each_question_has_an_answer_block_with_an_executed_snippet(root):
    for question in questions(root):
        where = f"{question['page']}#{question['anchor']}"
        assert "/// html | div.answer" in question["body"], (
            f"{where}: the answer is not in a div.answer block"
        )
        assert re.search(r"^\s*%run snippets/", question["body"], re.M), (
            f"{where}: no snippet proves the answer"
        )


def test_anchors_are_unique_site_wide(root):
    anchors = [(q["page"], q["anchor"]) for q in questions(root)]
    assert len(anchors) == len(set(anchors))


def test_every_correction_cites_a_snippet_that_its_page_runs(root):
    for page in sorted((root / "docs").rglob("*.md")):
        text = without_code_blocks(page.read_text(encoding="utf-8"))
        ran = set(re.findall(r"^\s*%run (\S+)", text, re.M))
        assert not re.search(r'^\s*!!! \w+ "Correction', text.replace("!!! correction", "")), (
            f"{page.name}: a Correction box must use the `correction` admonition type"
        )
        for block in re.findall(r'!!! correction "Correction[^"]*"\n((?:    .*\n|\n)+)', text):
            cited = set(re.findall(r"`(snippets/[^`]+\.py)`", block))
            assert cited, f"{page.name}: a correction cites no snippet:\n{block}"
            assert cited <= ran, (
                f"{page.name}: a correction cites {sorted(cited - ran)}, which the page does not run"
            )


@pytest.fixture(scope="module")
def search_index(built_site) -> list[dict]:
    return json.loads((built_site.path / "search" / "search_index.json").read_text())["docs"]


def phrasings(asked: str) -> list[str]:
    """The quoted source questions of an *Asked as:* paragraph, without Markdown marks."""
    chunks = TAG.split(asked)[::3]  # text before each tag (split also returns the tag's groups)
    cleaned = [re.sub(r"[`*\\]", "", chunk).strip(' ·\n"') for chunk in chunks]
    return [" ".join(chunk.split()) for chunk in cleaned if chunk]


def normalized(html_text: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", html_text)).replace("\\", "").split())


def test_search_indexes_every_question_under_its_anchor_with_each_phrasing(root, search_index):
    by_location = {doc["location"]: doc for doc in search_index}
    for question in questions(root):
        location = question["page"].removesuffix(".md") + "/#" + question["anchor"]
        assert location in by_location, f"{location} is not in the search index"
        indexed = normalized(by_location[location]["text"])
        for phrasing in phrasings(question["asked"]):
            opening = " ".join(phrasing.split()[:6])
            assert opening in indexed, f"{location}: search cannot find {opening!r}"


def test_the_review_page_links_each_question_to_where_it_is_answered(root):
    homes = {
        (source, int(number)): f"{q['page']}#{q['anchor']}"
        for q in questions(root)
        for source, number in q["tags"]
    }
    review = (root / "docs" / "review.md").read_text(encoding="utf-8")
    items = dict(re.findall(r"^(\d+)\. (.+)$", review, re.M))
    assert sorted(map(int, items)) == list(range(1, 16)), "the review page lists all 15 questions"
    for number in SOURCES["Review"]:
        link = re.search(r"\]\(([^)]+)\)", items[str(number)])
        assert link and link[1] == homes[("Review", number)], f"review Q{number} links to {link and link[1]}"
