"""The Markdown a drill gets on its page, and the Practice page's table of every drill.

Pages hold this text as written here (a test compares them), so the statement and hints that
``python -m torchguide.drills show`` prints are the ones the reader sees on the site.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from torchguide.drills.framework import Drill

FOLDS_CLASS = "drill-folds"  # the row of folded boxes under a drill's statement (study.css)


def drill_section(drill: Drill) -> str:
    """The drill's section, inserted on its page right after the question it practises: the
    statement in view, then the stub, each hint and the solution folded side by side in one row.

    Examples:
      ```python
      from torchguide.drills import get
      from studysite.drill_pages import drill_section

      text = drill_section(get("pad_collate"))
      assert text.startswith("### Practice: ") and "pad_collate_solution.py" in text
      ```
    """
    lines = [
        f"### Practice: {drill.title} {{ #{drill.anchor} }}",
        "",
        f"*Drill* `{drill.id}` · {drill.difficulty} · check your file with "
        f"`python -m torchguide.drills check {drill.id} FILE`",
        "",
        _wrap(drill.statement),
        "",
        # The task stays in view; what a reader opens one at a time is folded in one row.
        f"/// html | div.{FOLDS_CLASS}",
        "",
        '??? example "The stub to start from"',
        "",
        f"    %run {drill.stub_path}",
        "",
    ]
    for number, hint in enumerate(drill.hints, 1):
        lines += [f'??? tip "Hint {number}"', _wrap(hint, "    "), ""]
    lines += [
        '??? success "A reference solution, checked"',
        "",
        f"    %run {drill.solution_path}",
        "",
        "///",
        "",
    ]
    return "\n".join(lines)


def _wrap(text: str, indent: str = "") -> str:
    """Lines of at most 100 characters, as the pages' prose is written."""
    return textwrap.fill(
        text,
        width=100,
        initial_indent=indent,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )


def practice_table(drills: Iterable[Drill], titles: dict[str, str] | None = None) -> str:
    """The Practice page's table: each drill by page, with its difficulty and a link to it.

    Examples:
      ```python
      from torchguide.drills import all_drills
      from studysite.drill_pages import practice_table

      table = practice_table(all_drills().values())
      assert "pad_collate" in table and table.startswith("| topic |")
      ```
    """
    titles = titles or {}
    rows = ["| topic | drill | difficulty | practises |", "| --- | --- | --- | --- |"]
    for drill in drills:
        topic = titles.get(drill.page, drill.page)
        link = f"{drill.page}.md#{drill.anchor}"
        rows.append(
            f"| {topic} | [{drill.title}]({link}) `{drill.id}` | {drill.difficulty} | "
            f"[the question]({drill.page}.md#{drill.question}) |"
        )
    return "\n".join(rows)
