"""Python-Markdown parts of the study features.

- Every ``correction`` box gets an id from its title, so the corrections index can link to it.
- A question's heading and its answer block carry ``data-question-id`` (``Question.id``), which the
  reader's progress (study.js) is keyed by.
- A line ``%answer week-1/autograd.md#gradient-accumulation`` (used on the review page) becomes that
  question's short answer, in an answer block that self-test mode can hide, with a link to the
  full answer.
"""

from __future__ import annotations

import html
import posixpath
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor
from markdown.util import HTML_PLACEHOLDER_RE

from studysite.questions import Question, correction_anchor

ANSWER_DIRECTIVE = re.compile(r"^%answer[ \t]+(?P<target>\S+)[ \t]*$")


class CorrectionIds(Treeprocessor):
    def visible_text(self, element: ET.Element) -> str:
        """The element's text as a reader sees it: inline code that an extension stashed as raw
        HTML (pymdownx.inlinehilite does) is put back, without its tags."""
        text = "".join(element.itertext())
        stash = self.md.htmlStash.rawHtmlBlocks
        text = HTML_PLACEHOLDER_RE.sub(lambda m: re.sub(r"<[^>]+>", "", str(stash[int(m.group(1))])), text)
        return html.unescape(text).strip()

    def run(self, root: ET.Element) -> None:
        for box in root.iter("div"):
            classes = (box.get("class") or "").split()
            if "admonition" not in classes or "correction" not in classes or box.get("id"):
                continue
            title = next((p for p in box if "admonition-title" in (p.get("class") or "")), None)
            if title is not None:
                box.set("id", correction_anchor(self.visible_text(title)))


class QuestionIds(Treeprocessor):
    """Marks each question's heading, and the answer blocks under it, with the question's id."""

    def __init__(
        self, md: Markdown, lookup: Callable[[str], Question | None], page: Callable[[], str]
    ) -> None:
        super().__init__(md)
        self.lookup, self.page = lookup, page

    def run(self, root: ET.Element) -> None:
        current: Question | None = None
        for element in root:
            if element.tag in ("h1", "h2"):
                current = self.lookup(f"{self.page()}#{element.get('id', '')}") if element.get("id") else None
                if current is not None:
                    element.set("data-question-id", current.id)
            elif (
                current is not None
                and element.tag == "div"
                and "answer" in (element.get("class") or "").split()
            ):
                element.set("data-question-id", element.get("data-question-id") or current.id)


class AnswerPreprocessor(Preprocessor):
    """Expands ``%answer`` lines; an unknown target becomes a visible error and a build warning."""

    def __init__(
        self,
        md: Markdown,
        lookup: Callable[[str], Question | None],
        page: Callable[[], str],
        warn: Callable[[str], None],
    ) -> None:
        super().__init__(md)
        self.lookup, self.page, self.warn = lookup, page, warn

    def run(self, lines: list[str]) -> list[str]:
        output: list[str] = []
        for number, line in enumerate(lines, 1):
            match = ANSWER_DIRECTIVE.match(line)
            if not match:
                output.append(line)
                continue
            target = match["target"]
            question = self.lookup(target)
            if question is None:
                self.warn(f"{self.page()}:{number}: %answer {target}: no question there")
                output += ['!!! failure "Unknown question"', f"    `%answer {target}` names no question.", ""]
                continue
            link = posixpath.relpath(question.page, posixpath.dirname(self.page()) or ".")
            # A question without its short answer yet still links; the curriculum tests require one.
            body = ["    " + text if text else "" for text in question.short_answer.split("\n")]
            box = ['!!! short-answer "Short answer"', *body, ""] if question.short_answer else []
            output += [
                f'/// html | div.answer[data-question-id="{question.id}"]',
                "",
                *box,
                f"[Full answer, with the code that proves it]({link}#{question.anchor})",
                "",
                "///",
            ]
        return output


class StudyExtension(Extension):
    def __init__(
        self,
        lookup: Callable[[str], Question | None],
        page: Callable[[], str],
        warn: Callable[[str], None],
        **kwargs: object,
    ) -> None:
        self.lookup, self.page, self.warn = lookup, page, warn
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's API name
        md.preprocessors.register(
            AnswerPreprocessor(md, self.lookup, self.page, self.warn), "study_answer", 36
        )
        # After inline processing (20), so a title's `code` is already an element.
        md.treeprocessors.register(CorrectionIds(md), "study_correction_ids", 5)
        md.treeprocessors.register(QuestionIds(md, self.lookup, self.page), "study_question_ids", 4)
