"""Ways to a question: the Sources page, source tags that link to it, day tables and a phone's
list of the page's questions that link to every question.

- ``*Asked as:*`` paragraphs: a tag such as "(Day 9, Q14)" links to its entry on the Sources page,
  and ``\\"`` (a quote escaped inside a quote in the notes) is shown as the quote it stands for.
- A table whose second column is headed "questions" (a day's index) lists, for each page it links
  in its first column, that page's questions, each linked to its heading.
- A page with questions (and the review page) opens with a folded list of them, shown where the
  side contents are hidden (a phone).
"""

from __future__ import annotations

import posixpath
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from studysite.questions import ASKED_AS, NOT_IN_NOTES_LABEL, SOURCE_TAG, Question

SOURCES_PAGE = "sources.md"
# The Sources page's section of the questions that none of the notes asks.
NOT_IN_NOTES_ANCHOR = "not-in-the-notes"
REVIEW_PAGE = "review.md"
# The study notes the questions come from (the project's source documents), by the name a tag uses.
NOTES = {
    "Day 1": "Day 1: PyTorch Tensors — tensors, memory, optimization. Twenty interview questions.",
    "Day 6": "Day 6: Data Engineering — I/O, sampling, parallelism. Twenty interview questions "
    "(a second Day 6 note, on theory and implementation, feeds the same pages without numbers).",
    "Day 9": "Day 9: Debugging — troubleshooting, profiling, visualization. Twenty interview questions.",
    "Review": "Cross-topic review: tensors and devices, autograd, nn.Module and optimization, "
    "Dataset and DataLoader, integration. Fifteen questions in five sections.",
}
_REVIEW_HEADING = re.compile(r"^\d+\.\s*(?P<title>.+?)\s*\{\s*#(?P<anchor>q\d+)\s*\}$")
_ESCAPED_QUOTE = '\\"'


def source_anchor(source: str, number: int) -> str:
    """``("Day 9", 14)`` -> ``day-9-q14``: the entry's id on the Sources page."""
    return f"{source.lower().replace(' ', '-')}-q{number}"


def _relative(target: str, page: str) -> str:
    return posixpath.relpath(target, posixpath.dirname(page) or ".")


def sources_page(found: list[Question], page_titles: dict[str, str] | None = None) -> str:
    """The Sources page: each study note, and for each of its numbered questions where it is
    answered; then the questions no note asks, each with its page (by its title in ``page_titles``)."""
    cited: dict[str, dict[int, list[Question]]] = {}
    for question in found:
        for source, number in question.sources:
            cited.setdefault(source, {}).setdefault(number, []).append(question)
    example = next((f"({s}, Q{n})" for s in sorted(cited) for n in sorted(cited[s])), "(Day 1, Q1)")
    lines = [
        "# Sources",
        "",
        "The questions on this site come from study notes: lists of interview questions with the",
        f"answers people usually give. A tag such as *{example[1:-1]}* after a question's *Asked as* line",
        "names the note and the question's number in it. The notes are not always right: every claim",
        "was checked by running code, and where a note is wrong the page says so in a correction box",
        "(all of them are listed under [Corrections](corrections.md)).",
        "",
    ]
    others = [question for question in found if not question.in_notes]
    if others:
        lines += [
            "Other questions are common in interviews but asked by none of the notes: they say so where",
            f"the others quote a note, and are [listed apart](#{NOT_IN_NOTES_ANCHOR}), after the notes.",
            "",
        ]
    for source in sorted(cited, key=lambda s: (s == "Review", int(s.split()[-1]) if s[-1].isdigit() else 0)):
        lines += [f"## {source} {{ #{source.lower().replace(' ', '-')} }}", "", NOTES.get(source, ""), ""]
        lines += ["| question | answered in |", "| --- | --- |"]
        for number in sorted(cited[source]):
            answers = " · ".join(f"[{q.title}]({q.url})" for q in cited[source][number])
            label = f"[Q{number}]({REVIEW_PAGE}#q{number})" if source == "Review" else f"Q{number}"
            lines.append(f'| <span id="{source_anchor(source, number)}"></span>{label} | {answers} |')
        lines.append("")
    if others:
        lines += [f"## Not in the notes {{ #{NOT_IN_NOTES_ANCHOR} }}", ""]
        lines += [
            f"Each of these says *{NOT_IN_NOTES_LABEL}* in place of *Asked as*: interviewers",
            "ask it and none of the notes does. Its answer is proven like the others; there is no",
            "note's claim to check.",
            "",
            "| question | page |",
            "| --- | --- |",
        ]
        for question in others:
            page = (page_titles or {}).get(question.page, question.page.removesuffix(".md"))
            lines.append(f"| [{question.title}]({question.url}) | [{page}]({question.page}) |")
        lines.append("")
    return "\n".join(lines)


class AskedAsPreprocessor(Preprocessor):
    """Links the source tags of *Asked as* paragraphs and shows escaped quotes as quotes."""

    def __init__(self, md: Markdown, page: Callable[[], str]) -> None:
        super().__init__(md)
        self.page = page

    def run(self, lines: list[str]) -> list[str]:
        sources = _relative(SOURCES_PAGE, self.page())
        output, inside = [], False
        for line in lines:
            inside = bool(ASKED_AS.match(line)) or (inside and bool(line.strip()))
            if inside:
                line = line.replace(_ESCAPED_QUOTE, '"')
                line = SOURCE_TAG.sub(
                    lambda m: f"([{m[1]}, Q{m[2]}]({sources}#{source_anchor(m[1], int(m[2]))}))", line
                )
            output.append(line)
        return output


class QuestionLinks(Treeprocessor):
    """Day tables link every question; a page opens with the list of its questions. Runs before
    the inline patterns (priority above 20), so the Markdown links it writes are rendered."""

    def __init__(
        self, md: Markdown, questions: Callable[[], list[Question]], page: Callable[[], str]
    ) -> None:
        super().__init__(md)
        self.questions, self.page = questions, page

    def run(self, root: ET.Element) -> None:
        page = self.page()
        by_page: dict[str, list[Question]] = {}
        for question in self.questions():
            by_page.setdefault(question.page, []).append(question)
        for table in root.iter("table"):
            self._link_table(table, page, by_page)
        self._list_questions(root, page, by_page.get(page, []))

    def _link_table(self, table: ET.Element, page: str, by_page: dict[str, list[Question]]) -> None:
        headers = ["".join(th.itertext()).strip().lower() for th in table.iter("th")]
        if headers[1:2] != ["questions"]:
            return
        for row in table.iter("tr"):
            cells = row.findall("td")
            link = re.match(r"\[[^\]]+\]\(([^)#\s]+\.md)\)", (cells[0].text or "").strip()) if cells else None
            if not link or len(cells) < 2:
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(page), link[1]))
            listed = by_page.get(target, [])
            if listed:
                for child in list(cells[1]):
                    cells[1].remove(child)
                cells[1].text = " · ".join(f"[{q.title}]({link[1]}#{q.anchor})" for q in listed)

    def _list_questions(self, root: ET.Element, page: str, listed: list[Question]) -> None:
        entries = [(q.title, q.anchor) for q in listed]
        if page == REVIEW_PAGE:  # its numbered questions; attr_list has not yet moved "{ #q1 }" to the id
            headings = [_REVIEW_HEADING.match("".join(h.itertext()).strip()) for h in root.iter("h3")]
            entries = [(match["title"], match["anchor"]) for match in headings if match]
        title = next(iter(root.iter("h1")), None)
        if len(entries) < 2 or title is None:
            return
        box = ET.Element("details", {"class": "study-on-this-page"})
        ET.SubElement(box, "summary").text = f"The {len(entries)} questions on this page"
        items = ET.SubElement(box, "ol")
        for text, anchor in entries:
            ET.SubElement(items, "li").text = f"[{text}](#{anchor})"
        children = list(root)
        root.insert(children.index(title) + 1 if title in children else 0, box)


class ReadingExtension(Extension):
    def __init__(self, questions: Callable[[], list[Question]], page: Callable[[], str]) -> None:
        self.questions, self.page = questions, page
        super().__init__()

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's API name
        md.preprocessors.register(AskedAsPreprocessor(md, self.page), "study_asked_as", 15)
        md.treeprocessors.register(QuestionLinks(md, self.questions, self.page), "study_question_links", 25)
