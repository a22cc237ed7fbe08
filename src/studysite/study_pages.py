"""The generated study pages: the corrections quiz, the reader's Study page and the mock interview.

Each is Markdown that MkDocs renders like any page, so its links are checked by the strict build.
The questions' data travels in ``data-question-id`` and ``data-topic`` attributes, which the
scripts in docs/assets (study-page.js, mock.js) read; without JavaScript the pages still list the
questions.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from studysite.questions import Question, plain_text

CORRECTIONS_PAGE = "corrections.md"
STUDY_PAGE = "study.md"
MOCK_PAGE = "mock-interview.md"
# Generated pages list questions that are answered elsewhere: search should land on those.
NOT_IN_SEARCH = ["---", "search:", "  exclude: true", "---", ""]
# How an interviewer's request opens when it is not a question: "Explain ...", "Name two ...".
IMPERATIVES = frozenset(
    {"be", "compare", "describe", "explain", "give", "list", "name", "show", "state", "walk"}
)


def _attribute(text: str) -> str:
    """A value for pymdownx.blocks' ``[name="value"]`` selector syntax."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _topic(question: Question, titles: dict[str, str]) -> str:
    return plain_text(titles.get(question.page, question.page))


def is_asked(phrasing: str) -> bool:
    """Whether a phrasing is something an interviewer says: a question, or a request whose last
    sentence opens with an imperative ("... Give examples."). A quoted error message is neither."""
    text = plain_text(phrasing).strip()
    if text.endswith("?"):
        return True
    last = re.split(r"(?<=[.?!])\s+", text)[-1]
    return last.split(" ", 1)[0].lower() in IMPERATIVES


def interviewer_phrasings(question: Question) -> list[str]:
    """The phrasings a mock interview may ask the question in (Markdown), as the notes quote them."""
    return [phrasing for phrasing in question.phrasings if is_asked(phrasing)]


def _by_topic(found: list[Question], titles: dict[str, str]) -> dict[str, list[Question]]:
    topics: dict[str, list[Question]] = {}
    for question in found:
        topics.setdefault(_topic(question, titles), []).append(question)
    return topics


def corrections_index(found: list[Question], titles: dict[str, str], warn: Callable[[str], None]) -> str:
    """Every correction on the site as a quiz: listed by the wrong claim (the box's ``**Claimed:**``
    paragraph), with what is true (the box's title) in an answer block that self-test mode hides.
    A box without a claim is listed by its title, with a warning naming its file and line."""
    lines = [
        *NOT_IN_SEARCH,  # each claim is searchable in its box, on the page that corrects it
        "# Corrections",
        "",
        "Claims that common study notes get wrong, each corrected on its page with the code that proves",
        "it. A quiz in itself: read the claim, say what is wrong with it, then check. With *Self-test*",
        "on, what is true stays hidden until you ask.",
        "",
    ]
    by_page: dict[str, list[Question]] = {}
    for question in found:
        if question.corrections:
            by_page.setdefault(question.page, []).append(question)
    total = sum(len(q.corrections) for q in found)
    lines += [f"{total} corrections on {len(by_page)} pages.", ""]
    for page, page_questions in by_page.items():
        lines += [f"## {titles.get(page, page)}", ""]
        for question in page_questions:
            for correction in question.corrections:
                claim = correction.claim
                if not claim:
                    warn(
                        f"docs/{page}:{correction.line}: correction box without a '**Claimed:**' first "
                        "paragraph: the corrections quiz lists it by its title"
                    )
                lines += [
                    "/// html | div.correction-claim",
                    "",
                    f"**Claimed:** {claim or correction.title}",
                    "",
                    "///",
                    "",
                    '/// html | div.answer[data-reveal-label="Show what is true"]',
                    "",
                    f"**True:** [{correction.title}]({page}#{correction.anchor}) — in "
                    f"[{question.title}]({page}#{question.anchor})",
                    "",
                    "///",
                    "",
                ]
    return "\n".join(lines)


def study_page(found: list[Question], titles: dict[str, str]) -> str:
    """The reader's Study page: study-page.js fills the first block from the progress kept in the
    browser; the list of every question by topic under it is what it joins that progress with."""
    lines = [
        *NOT_IN_SEARCH,
        "# Study",
        "",
        "Under every answer, **Got it** or **Review again** records how you did, and **Undo** takes",
        "the last grade back. A spaced-repetition schedule",
        "([FSRS](https://github.com/open-spaced-repetition/ts-fsrs)) then says when each question is",
        "due again: a miss comes back the same day, ten minutes later; each success puts the question",
        "further away, days, then weeks. Your progress stays in this browser; export it to a file to",
        "keep a copy or to carry it to another device. A [mock interview](mock-interview.md) asks",
        "questions as an interviewer words them and feeds the same progress.",
        "",
        "/// html | div.study-app",
        "",
        "Your progress appears here; it needs JavaScript.",
        "",
        "///",
        "",
        "## All questions",
        "",
    ]
    for topic, questions in _by_topic(found, titles).items():
        lines += [f'/// html | div.study-topic[data-topic="{_attribute(topic)}"]', "", f"### {topic}", ""]
        for question in questions:
            lines.append(f'- [{question.title}]({question.url}){{ data-question-id="{question.id}" }}')
        lines += ["", "///", ""]
    return "\n".join(lines)


def mock_page(found: list[Question], titles: dict[str, str]) -> str:
    """The mock interview: mock.js draws from the pool of every question, asks it in one of the
    interviewer's phrasings (the card's list), and shows the short answer under its heading."""
    lines = [
        *NOT_IN_SEARCH,
        "# Mock interview",
        "",
        "Questions one at a time, in the words an interviewer uses, against the clock. Answer aloud,",
        "then reveal the short answer (under the question's heading in the notes) and grade yourself:",
        "your grades go into the same progress as the **Got it** and **Review again** buttons under",
        "each answer, and the [Study](study.md) page schedules the misses.",
        "",
        "/// html | div.mock-app",
        "",
        "The mock interview needs JavaScript.",
        "",
        "///",
        "",
        "///// html | div.mock-pool",
        "",
    ]
    for question in found:
        topic = _attribute(_topic(question, titles))
        lines += [
            f'//// html | div.mock-card[data-question-id="{question.id}" data-topic="{topic}"]',
            "",
            question.title,
            "{ .mock-card__title }",
            "",
            "/// html | div.mock-card__asked",
            "",
            *[f"- {phrasing}" for phrasing in interviewer_phrasings(question)],
            "",
            "///",
            "",
            "/// html | div.mock-card__answer",
            "",
            '!!! short-answer "Short answer"',
            *["    " + line if line else "" for line in question.short_answer.split("\n")],
            "",
            f"[Full answer, with the code that proves it]({question.url})",
            "",
            "///",
            "",
            "////",
            "",
        ]
    lines += ["/////", ""]
    return "\n".join(lines)
