"""Reads the questions of a page from its Markdown source.

Every question has the shape described in docs/contributing.md: a ``##`` heading with an explicit
anchor, an *Asked as* paragraph (or, for a question that none of the notes asks, a paragraph that
says so in its place), and an answer block that starts with a ``short-answer`` box and may
hold ``correction`` boxes. The site (corrections index, review page, flash cards) and the tests read
pages through this one parser, so they agree on what a question is.
"""

from __future__ import annotations

import functools
import html
import re
import textwrap
from dataclasses import dataclass, field

import markdown
from markdown.extensions.toc import slugify

from docexec.directives import outside_fences

HEADING = re.compile(r"^## (?P<title>.+?) \{ #(?P<anchor>[a-z0-9-]+) \}\s*$")
# The label of the paragraph that quotes a question's phrasings: the notes' own (with their source
# tags), or, for a common interview question that no source document asks, the reader's.
ASKED_AS_LABEL = "Asked as"
NOT_IN_NOTES_LABEL = "A common interview question, not in the notes"
ASKED_AS = re.compile(rf"^\*(?P<label>{re.escape(ASKED_AS_LABEL)}|{re.escape(NOT_IN_NOTES_LABEL)}):\*")
SOURCE_TAG = re.compile(r"\((Day \d+|Review), Q(\d+)\)")
ADMONITION = re.compile(r'^(?P<indent>[ \t]*)!!! (?P<kind>[\w-]+)(?: "(?P<title>[^"]*)")?\s*$')
CLAIM = re.compile(r"^\*\*Claimed:\*\*\s*(?P<claim>.+)", re.S)


@dataclass
class Correction:
    title: str  # Markdown, as written in the box's title
    anchor: str
    body: str
    line: int

    @property
    def claim(self) -> str:
        """The wrong claim as the notes put it (Markdown): the box's first paragraph, which starts
        with ``**Claimed:**``; empty when the box does not start that way."""
        match = CLAIM.match(self.body.split("\n\n")[0])
        return " ".join(match["claim"].split()) if match else ""


@dataclass
class Question:
    page: str  # path under docs/, e.g. "week-1/autograd.md"
    anchor: str
    title: str  # Markdown
    line: int
    asked_as: str = ""
    short_answer: str = ""  # Markdown, dedented
    corrections: list[Correction] = field(default_factory=list)
    body: str = ""

    @property
    def sources(self) -> list[tuple[str, int]]:
        """The (source, number) tags of the *Asked as* paragraph: ("Day 1", 3), ("Review", 2)."""
        return [(source, int(number)) for source, number in SOURCE_TAG.findall(self.asked_as)]

    @property
    def in_notes(self) -> bool:
        """Whether a source document asks it: its paragraph is *Asked as*, not the label of a common
        interview question that the notes leave out."""
        match = ASKED_AS.match(self.asked_as)
        return bool(match) and match["label"] == ASKED_AS_LABEL

    @property
    def asked_as_plain_label(self) -> str:
        """The *Asked as* paragraph with its label as plain text ("Asked as: ..."), as a card shows it."""
        return ASKED_AS.sub(lambda match: match["label"] + ":", self.asked_as, count=1)

    @property
    def phrasings(self) -> list[str]:
        """The questions the paragraph quotes, each as written (Markdown) without its quotes and tag:
        how an interviewer asks it."""
        quoted = re.split(r"\((?:Day \d+|Review), Q\d+\)|\s·\s", ASKED_AS.sub("", self.asked_as, count=1))
        found = []
        for chunk in quoted:
            text = " ".join(chunk.split()).strip(" ·")
            if len(text) > 1 and text[0] == text[-1] == '"':
                text = text[1:-1].strip()
            if text:
                found.append(text)
        return found

    @property
    def id(self) -> str:
        """The question's stable id: its anchor, unique site-wide. Flash cards and the reader's
        progress are keyed by it, so a question keeps its history when it moves to another page."""
        return self.anchor

    @property
    def url(self) -> str:
        """The page and anchor as a link in the docs writes them: ``week-1/autograd.md#anchor``."""
        return f"{self.page}#{self.anchor}"

    @property
    def site_path(self) -> str:
        """Where the built site serves it: ``week-1/autograd/#anchor``."""
        stem = self.page.removesuffix(".md")
        if stem == "index":
            return f"#{self.anchor}"
        return f"{stem.removesuffix('/index')}/#{self.anchor}"


@functools.lru_cache(maxsize=4096)  # every build asks again for each question's title, in a preview too
def plain_text(inline_markdown: str) -> str:
    """What a reader sees of a line of inline Markdown: `code` and *emphasis* without their marks."""
    rendered = markdown.markdown(inline_markdown)
    return html.unescape(re.sub(r"<[^>]+>", "", rendered)).strip()


def correction_anchor(title_text: str) -> str:
    """The id of a correction box, from its title as the reader sees it (shared with the Markdown
    extension that sets it, so that links built from the source land on the box)."""
    return "correction-" + slugify(title_text, "-")


def _indented_block(lines: list[str], start: int, indent: str) -> tuple[str, int]:
    """The body of an admonition opened on line ``start`` (its lines indented beyond ``indent``)."""
    body, index = [], start + 1
    while index < len(lines):
        line = lines[index]
        if line.strip() and not line.startswith(indent + "    "):
            break
        body.append(line)
        index += 1
    return textwrap.dedent("\n".join(body)).strip(), index


def page_title(text: str) -> str:
    """The page's ``# `` title, or an empty string."""
    match = re.search(r"^# (.+)$", "\n".join(outside_fences(text.split("\n"))), re.M)
    return match[1].strip() if match else ""


def parse(text: str, page: str) -> list[Question]:
    """The questions of one page, in order."""
    lines = outside_fences(text.split("\n"))
    questions: list[Question] = []
    for number, line in enumerate(lines):
        heading = HEADING.match(line)
        if heading:
            questions.append(Question(page, heading["anchor"], heading["title"], number + 1))
        elif line.startswith("## ") and questions:
            questions.append(Question(page, "", line[3:].strip(), number + 1))  # a heading of prose
    ends = [q.line - 1 for q in questions[1:]] + [len(lines)] if questions else []
    for question, end in zip(questions, ends, strict=True):
        body = lines[question.line : end]
        question.body = "\n".join(body)
        for index, line in enumerate(body):
            if ASKED_AS.match(line) and not question.asked_as:
                paragraph = []
                for follow in body[index:]:
                    if not follow.strip():
                        break
                    paragraph.append(follow)
                # A quote inside the notes' quote is escaped there (\"): a reader sees the quote.
                question.asked_as = " ".join(paragraph).replace('\\"', '"')
            admonition = ADMONITION.match(line)
            if not admonition:
                continue
            block, _ = _indented_block(body, index, admonition["indent"])
            if admonition["kind"] == "short-answer" and not question.short_answer:
                question.short_answer = block
            elif admonition["kind"] == "correction":
                title = admonition["title"] or ""
                question.corrections.append(
                    Correction(title, correction_anchor(plain_text(title)), block, question.line + index + 1)
                )
    return [q for q in questions if q.asked_as]
