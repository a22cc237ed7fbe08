"""A new page's first question: the site's ``docexec new`` hook (``new-page`` in ``[tool.docexec]``,
`docexec.hosts.scaffold.NewPageFields`).

``docexec new`` gets ``--question``, ``--asked`` and ``--source``; they replace the sample
question's heading and the line under it in ``templates/page.md``, which says where the question
is asked (``*Asked as:* "..." (Day 7, Q3)``) or, without a source, that no note asks it.
"""

from __future__ import annotations

import posixpath
import re

from docexec.hosts.scaffold import NewPage, anchor_of

OPTIONS = {
    "question": "the first question's heading, in a reader's words",
    "asked": "the question as the source asks it",
    "source": "the source's tag, e.g. 'Day 7, Q3'",
}
# What templates/page.md holds where the new page's own words go.
TEMPLATE_HEADING = "## A short title that states the question { #stable-anchor }"
TEMPLATE_ASKED = '*Asked as:* "The question as the source asks it." (Day N, Qn)'
SOURCE_TAG = re.compile(r"(Day \d+|Review), Q\d+")


def fields(new: NewPage) -> dict[str, str]:
    """The question's heading and provenance line; raises ValueError for a source tag the
    questions' parser would not read."""
    question, asked, source = (new.options.get(name) for name in OPTIONS)
    if source is not None and not SOURCE_TAG.fullmatch(source):
        raise ValueError(f"{source}: a source tag reads like 'Day 7, Q3' or 'Review, Q2'")
    anchor = anchor_of(question or posixpath.basename(new.page))
    return {
        TEMPLATE_HEADING: f"## {question or 'A short title that states the question'} {{ #{anchor} }}",
        # No source given: the question is one that no note asks, and the page says so.
        TEMPLATE_ASKED: provenance(asked, source),
    }


def provenance(asked: str | None, source: str | None) -> str:
    """The line under a question's heading: the note that asks it, or that none does."""
    if source:
        return f'*Asked as:* "{asked or "The question as the source asks it."}" ({source})'
    first = asked or "The question as an interviewer asks it?"
    return f'*A common interview question, not in the notes:* "{first}" · "Another way a reader asks it?"'
