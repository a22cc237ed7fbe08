"""The engine knows no drill, question or page layout of this site: that knowledge lives in
``studysite`` and reaches the engine through its two seams (``notebook-cells``, ``new-page``). The
words are this site's study vocabulary and the classes of its study layer's style sheet; a line of
``src/docexec`` that uses one fails with its file and line, unless `ALLOWED` says why it may."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import docexec

ROOT = Path(__file__).resolve().parents[2]
ENGINE = Path(docexec.__file__).resolve().parent
STUDY_CSS = ROOT / "docs" / "assets" / "study.css"  # the study layer's markup (studysite)

# The site's words, by what they name.
VOCABULARY = {
    "drill": r"\bdrills?\b",
    "check_here": r"\bcheck_here\b",  # torchguide's drill checker
    "Asked as": r"\basked as\b",
    "not in the notes": r"\bnot in the notes\b",
    "Day N, Qn": r"\bday (?:n|\d+)\b|\bq(?:n|\d+)\b",  # a question's source tag
    "question": r"\bquestions?\b",
    "interview": r"\binterview",
    "short answer": r"\bshort[- ]answers?\b",
    "correction": r"\bcorrections?\b",
    "Shown by": r"(?-i:\bShown by\b)",  # a correction's link to its proof; "shown by a line" is English
    "self-test": r"\bself-?test",
    "flash card": r"\bflash[- ]?cards?\b",
    "deck": r"\bdecks?\b",
    "curriculum": r"\bcurricul",
    "studysite": r"\bstudysite\b",
}

# (file under src/docexec, word): why the engine may use it there. Generic words only.
ALLOWED: dict[tuple[str, str], str] = {}

# Material's and MkDocs' own classes, which the study style sheet styles too: not the site's.
THEIRS = re.compile(r"^(?:md-|admonition|highlight)")


def study_classes(css: str) -> set[str]:
    """The classes the study style sheet's selectors name (not its comments, strings or urls)."""
    css = re.sub(r"/\*.*?\*/|url\([^)]*\)|\"[^\"]*\"|'[^']*'", "", css, flags=re.S)
    selectors = " ".join(re.findall(r"([^{}]*)\{", css))
    return {name for name in re.findall(r"\.([a-z][\w-]*)", selectors) if not THEIRS.match(name)}


def site_words(classes: set[str]) -> dict[str, re.Pattern[str]]:
    """Each word and how a use of it looks: a class as a selector or in a class attribute."""
    words = {word: re.compile(pattern, re.I) for word, pattern in VOCABULARY.items()}
    for name in classes:
        escaped = re.escape(name)
        selector = rf"(?:(?<![\w)\]])|\b(?:div|span|section|details|p|a))\.{escaped}(?![\w-])"
        words[f".{name}"] = re.compile(rf"{selector}|class=[\"'][^\"']*\b{escaped}\b")
    return words


def uses(folder: Path, words: dict[str, re.Pattern[str]], allowed: dict) -> list[str]:
    """``file:line: word: the line`` for each line of a Python file under ``folder`` using a word."""
    found = []
    for file in sorted(folder.rglob("*.py")):
        name = file.relative_to(folder).as_posix()
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
            for word, pattern in sorted(words.items()):
                if pattern.search(line) and (name, word) not in allowed:
                    found.append(f"{folder.name}/{name}:{number}: {word}: {line.strip()}")
    return found


def test_a_use_of_the_sites_words_is_found_with_its_file_and_line(tmp_path):
    engine = tmp_path / "engine"
    (engine / "render").mkdir(parents=True)
    (engine / "render" / "cells.py").write_text(
        "import re\n\n"
        "SOLUTION = re.compile(r'drills/(\\w+)_solution.py')\n"
        "NOTE = '<div class=\"mock-app study-note\">'\n"
        "size = self.answer_bar  # an attribute is no class\n"
        "# /// html | div.answer-bar\n"
    )
    words = site_words({"study-note", "answer-bar"})
    assert uses(engine, words, {}) == [
        "engine/render/cells.py:3: drill: SOLUTION = re.compile(r'drills/(\\w+)_solution.py')",
        "engine/render/cells.py:4: .study-note: NOTE = '<div class=\"mock-app study-note\">'",
        "engine/render/cells.py:6: .answer-bar: # /// html | div.answer-bar",
    ]
    allowed = {("render/cells.py", "drill"): "a reason"}
    assert uses(engine, words, allowed)[0].startswith("engine/render/cells.py:4")


def test_the_study_style_sheets_classes_are_read_from_its_selectors():
    css = "/* .not-this */\n.answer-bar__line, div.answer > .x{color: red; background: url(a.b.png)}\n"
    assert study_classes(css) == {"answer-bar__line", "answer", "x"}
    assert "md-typeset" not in study_classes(".md-typeset .answer { }")


@pytest.mark.this_site
def test_the_engine_uses_none_of_the_sites_drill_question_or_layout_words():
    classes = study_classes(STUDY_CSS.read_text(encoding="utf-8"))
    assert {"answer-bar", "selftest", "short-answer"} <= classes  # the sheet is still where it was
    found = uses(ENGINE, site_words(classes), ALLOWED)
    listed = "\n".join(found)
    assert not found, f"the site's words in the engine (move them to studysite, or behind a seam):\n{listed}"
