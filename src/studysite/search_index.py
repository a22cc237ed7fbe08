"""What the site's search (Material's search plugin, lunr in the browser) indexes, and how it weighs it.

The reader's unit is the question, so a search should open a question's heading. Three adjustments,
all through the index that Material itself writes and reads:

- Code blocks and outputs stay out of it. Every snippet's code, its output and its traceback are a
  ``<pre>`` block (whatever wraps them: a docexec box, a collapsed "whole program"), titled by a
  ``<span class="filename">``; both are marked ``data-search-exclude``, Material's own switch, and
  so are the title of the folded box that holds a snippet's whole proof and the note that stands
  for a CUDA snippet's output in a build without a GPU. Numbers and single
  characters of a full answer are left out of its ``words``.
- A question's entry shows what identifies it: its text (the result's teaser) is the *Asked as*
  line and the short answer. The rest of its answer goes into a field of its own, ``words``: each
  word once, weighed below the text (``fields`` in mkdocs.yml), so a term from the full answer still
  finds the question without the answer's length outranking a question that names it. The index
  grows with the number of questions, not with the length of their proofs.
- A page's own entry weighs less than its sections. Material multiplies a page's score by up to 5
  and a section's by up to 2, and a page's title names its topics, so a query that named a question's
  topic opened the page's top, the question hidden behind "N more on this page". Pages that hold no
  question of their own (indexes, the review, the corrections, labs, the API reference) repeat or
  support the questions, and weigh less than the questions' pages. A document may carry its own
  ``boost`` (Material hands it to lunr); Material's plugin sets one value for all the entries of a
  page, so each entry gets its own here, once Material wrote the index.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from studysite.questions import ASKED_AS_LABEL, NOT_IN_NOTES_LABEL

# The opening tag of every preformatted block, of a code block's title, and of the note that a
# build without a GPU shows in place of a CUDA snippet's output (the build's words, not the answer's).
UNINDEXED = re.compile(
    r"<(pre|span class=\"filename\"|div class=\"admonition [a-z]+ docexec-needs-gpu\")(?=[\s>])"
)
# The title of the folded box that holds a snippet's whole proof, "The whole proof (26 lines)": the
# site's words, not the answer's (in ``words`` they were four words of every question).
PROOF_TITLE = re.compile(r'(<details class="docexec-proof">\s*<summary)>')
# A word of the full answer that no reader searches by: a number, or a single character.
UNSEARCHED = re.compile(r"[\d.]+|.")
# A page's entry matching as well as one of its sections is scored 1 + (1 + share)² against
# 1 + share², at most 5/2, and its title (the page's topics) often matches rarer word forms: at 0.1
# it leads its results only where none of its sections matches nearly as well.
PAGE_ENTRY_BOOST = 0.1
# Entries of pages without questions of their own, against a question's entry.
SUPPORTING_PAGE_BOOST = 0.5
# A drill's section names the question's topic in the words of a task: it is found, below the
# question it practises.
DRILL_ANCHOR_PREFIX = "drill-"
DRILL_BOOST = 0.5
# A question's text as Material indexes it: the Asked-as paragraph (or the one that says the notes
# do not ask it), the short answer's title and its first block (short answers are one paragraph),
# then the full answer.
QUESTION_TEXT = re.compile(
    rf"(?s)(<p>(?:{re.escape(ASKED_AS_LABEL)}|{re.escape(NOT_IN_NOTES_LABEL)}):"
    r".*?<p>Short answer</p>\s*<(p|ol|ul)>.*?</\2>)(.*)"
)
# A page's own entry (its introduction) and an API object's (its docstring; mkdocstrings' anchors,
# and only they, hold a dot) show their first paragraph, after a class's "Bases:" line: the rest
# goes into ``words`` as a question's full answer does; an API object's other paragraphs (19 KB)
# are left out. Their whole text was a third of the index.
FIRST_PARAGRAPH = re.compile(r"(?s)(\s*(?:<p>\s*Bases:.*?</p>\s*)?<p>.*?</p>)()(\s*\S.*)")
# A drill section's first paragraph, "Drill id · medium · check your file with python -m …": the
# same words in every drill (the title and the task find it).
DRILL_LINE = re.compile(r"(?s)\A\s*<p>Drill .*?</p>")
TAG = re.compile(r"<[^>]+>")
# Inline code marks in an entry's text: the result's teaser shows the words plainly, and the marks
# were 5% of the index (every page's first load carries the index).
CODE_MARK = re.compile(r"</?code>")
# lunr's English stop words (lunr.stopWordFilter): the search drops them from queries and the index.
_STOP_WORDS = """
a able about across after all almost also am among an and any are as at be because been but by
can cannot could dear did do does either else ever every for from get got had has have he her hers
him his how however i if in into is it its just least let like likely may me might most must my
neither no nor not of off often on only or other our own rather said say says she should since so
some than that the their them then there these they this tis to too twas us wants was we were what
when where which while who whom why will with would yet you your"""
STOP_WORDS = frozenset(_STOP_WORDS.split())


# A drill's section, from its heading to the next heading of its level or above.
DRILL_SECTION = re.compile(rf'(?s)<h3 id="{DRILL_ANCHOR_PREFIX}.*?(?=<h[1-3][\s>]|\Z)')


def exclude_code_and_outputs(page_html: str) -> str:
    """The page's HTML with its code blocks and outputs marked for Material's indexer to skip, and
    a drill's hints and reference solution (its folded boxes): a drill is found by its title and
    task, and each drill costs the index a few hundred bytes instead of its every hint."""
    unindexed_boxes = lambda drill: drill[0].replace("<details", "<details data-search-exclude")  # noqa: E731
    page_html = DRILL_SECTION.sub(unindexed_boxes, page_html)
    page_html = PROOF_TITLE.sub(r"\1 data-search-exclude>", page_html)
    return UNINDEXED.sub(lambda match: f"<{match[1]} data-search-exclude", page_html)


def _words(text: str, separator: re.Pattern[str]) -> list[str]:
    plain = html.unescape(TAG.sub(" ", text))
    return [word.lower() for word in separator.split(plain) if word and word.lower() not in STOP_WORDS]


def reshape(index_file: Path, question_locations: set[str]) -> None:
    """Rewrite Material's search index in place: page entries weigh less, and each question's entry
    keeps its Asked-as line and short answer as text, the other words of its answer in ``words``
    (a page's entry and a drill's: its first paragraph, then ``words``; an API object's: its first
    paragraph)."""
    index = json.loads(index_file.read_text(encoding="utf-8"))
    separator = re.compile(index["config"]["separator"])
    question_pages = {location.split("#")[0] for location in question_locations}
    for doc in index["docs"]:
        page, _, anchor = doc["location"].partition("#")
        boost = doc.get("boost", 1) * (1 if page in question_pages else SUPPORTING_PAGE_BOOST)
        boost *= PAGE_ENTRY_BOOST if not anchor else 1
        boost *= DRILL_BOOST if anchor.startswith(DRILL_ANCHOR_PREFIX) else 1
        if boost != 1:
            doc["boost"] = boost
        split = QUESTION_TEXT.match(doc["text"]) if doc["location"] in question_locations else None
        if anchor.startswith(DRILL_ANCHOR_PREFIX):  # its task's first paragraph, as a page's entry
            doc["text"] = DRILL_LINE.sub("", doc["text"])
        if not split and (not anchor or "." in anchor or anchor.startswith(DRILL_ANCHOR_PREFIX)):
            split = FIRST_PARAGRAPH.match(doc["text"])
        if split:
            doc["text"] = split[1]
            if "." in anchor:  # an API object is found by its name and first paragraph
                continue
            shown = set(_words(doc["title"] + " " + doc["text"], separator))
            kept = (w for w in _words(split[3], separator) if w not in shown and not UNSEARCHED.fullmatch(w))
            words = dict.fromkeys(kept)
            doc["words"] = " ".join(_without_plural_twins(words))
        doc["text"] = CODE_MARK.sub("", doc["text"])
    # Written as UTF-8, not as \uXXXX escapes: "·" and "—" take 2 or 3 bytes, not 6.
    index_file.write_text(json.dumps(index, separators=(",", ":"), ensure_ascii=False), encoding="utf-8")


def _without_plural_twins(words: dict[str, None]) -> list[str]:
    """The words, less each plural whose singular is among them ("gradients", "losses"): the search
    reads a plural in a query as its singular, a prefix that finds both (docs/assets/search-reading.js),
    so the twin finds nothing more and only weighs on the index."""

    def singular(word: str) -> str:
        if word.endswith("sses"):
            return word[:-2]
        return word[:-1] if word.endswith("s") and not word.endswith("ss") else ""

    return [word for word in words if singular(word) not in words]
