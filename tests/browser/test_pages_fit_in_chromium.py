"""Every page as a reader meets it at desktop and phone width: no output cuts its text at the
right edge (a table may scroll, and says so), no table runs past its column, no code block cuts
its text and code is legible on a phone, no figure is wider than its column or has text under
10 px, the page's words hold no escaped quote nor an unexplained source tag, no topic page is
taller than `TOPIC_PAGE_GOAL_PX` at desktop width with its proofs folded, and no question page
taller than `MAX_QUESTION_PAGE_PX`; and axe-core finds nothing on any page, in the light or the
dark scheme (the accessibility gate's every-page part; its other states are in
test_accessibility_in_chromium.py).

Each page is loaded once per width for all of these (page_walk.py): a class per width, whose tests
read what that visit measured, so that pytest-xdist's loadscope gives each width to one worker."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from page_walk import accepted

from studysite.page_heights import TOPIC_PAGE_GOAL_PX, is_topic_page
from studysite.page_heights import WIDTHS as HEIGHT_WIDTHS
from studysite.questions import parse

pytestmark = pytest.mark.browser

LEGIBLE_PX = 10
LEGIBLE_CODE_PX = 13  # code on a phone: 0.85 of the body text, also inside a box
SVG_PX_PER_PT = 96 / 72
MAX_QUESTION_PAGE_PX = 20_000  # CSS px at 1280 px wide: about six questions


class EveryPage:
    """The checks at every width; a subclass names its width."""

    width: int

    def test_no_output_block_cuts_its_text(self, walk):
        cut, tables = [], 0
        for page, seen in walk(self.width).items():
            for block in seen.outputs:
                if block["table"]:
                    tables += 1
                    assert block["scrolls"], f"{page}: a table that cannot scroll: {block['text']!r}"
                elif block["cut"]:
                    cut.append(f"{page}: {block['text']!r}")
        assert not cut, f"{len(cut)} output blocks cut their text at {self.width} px:\n" + "\n".join(cut)
        assert tables, "no output was recognised as a table: the check above would prove nothing for tables"

    def test_no_table_runs_past_its_column(self, walk):
        cut, seen_tables, stacked = [], 0, 0
        for page, seen in walk(self.width).items():
            for table in seen.tables:
                seen_tables += 1
                stacked += table["stacked"]
                if table["cut"]:
                    cut.append(f"{page}: {table['text']!r}")
                if table["stacked"]:
                    assert table["labelled"], f"{page}: a stacked table's cells without their headings"
        assert seen_tables > 20, f"only {seen_tables} tables seen: the check would prove little"
        assert not cut, f"{len(cut)} tables run past their column at {self.width} px:\n" + "\n".join(cut)
        if self.width == 1280:
            assert stacked == 0, "a table is stacked on a desktop"

    def test_no_code_block_cuts_its_text_and_code_is_legible_on_a_phone(self, walk):
        problems, seen_blocks, wrapped = [], 0, 0
        for page, seen in walk(self.width).items():
            for block in seen.code:
                seen_blocks += 1
                wrapped += block["wraps"]
                where = f"{page}: {block['text']!r}"
                if block["cut"]:
                    problems.append(f"{where} is cut")
                if block["copiedLines"] != block["lines"]:
                    problems.append(f"{where} copies as {block['copiedLines']} lines, not {block['lines']}")
                if block["wraps"] and not block["marked"]:
                    problems.append(f"{where} wraps without a mark")
                if self.width < 600 and block["px"] < LEGIBLE_CODE_PX:
                    problems.append(f"{where} is {block['px']:.1f} px")
        assert seen_blocks > 100, f"only {seen_blocks} code blocks seen: the check would prove little"
        if self.width < 600:
            assert wrapped, "no line of code wraps on a phone: the mark check proved nothing"
        assert not problems, f"{len(problems)} code blocks at {self.width} px:\n" + "\n".join(problems)

    def test_figures_fit_their_column_and_their_text_is_legible(self, walk):
        problems, seen_figures = [], 0
        for page, seen in walk(self.width).items():
            for figure in seen.figures:
                seen_figures += 1
                where = f"{page}: {figure['src']}"
                if figure["width"] > figure["column"] + 1 or figure["scrollsSideways"] or figure["offScreen"]:
                    wide = f"{figure['width']:.0f} px wide in a {figure['column']:.0f} px column"
                    problems.append(f"{where} is {wide}")
                if figure["smallestPt"] is not None:
                    shown_px = figure["smallestPt"] * SVG_PX_PER_PT * figure["width"] / figure["naturalPx"]
                    if shown_px < LEGIBLE_PX - 0.05:
                        problems.append(f"{where}: its smallest text is {shown_px:.1f} px")
        assert seen_figures, "no figure on any page"
        assert not problems, f"{len(problems)} figure problems at {self.width} px:\n" + "\n".join(problems)

    @pytest.mark.parametrize("scheme", ["light", "dark"])
    def test_every_page_passes_axe(self, walk, axe_source, scheme):
        if axe_source is None:
            pytest.skip(".ci/node_modules/axe-core is missing: `make workflows` installs it")
        failures = {}
        for path, seen in walk(self.width).items():
            found = accepted(seen.axe[scheme])
            if found:
                failures[path] = found[:5] + ([f"... and {len(found) - 5} more"] if len(found) > 5 else [])
        assert not failures, "\n".join(
            f"{path}:\n  " + "\n  ".join(lines) for path, lines in failures.items()
        )


class TestAtPhoneWidth(EveryPage):
    width = 390


class TestAtDesktopWidth(EveryPage):
    width = HEIGHT_WIDTHS["desktop"]

    def test_the_words_hold_no_escaped_quote_and_every_source_tag_is_a_link(self, walk):
        problems = []
        for page, seen in walk(self.width).items():
            if '\\"' in seen.prose["text"]:
                problems.append(f'{page}: a literal \\" in the text')
            tags = len(re.findall(r"\((?:Day \d+|Review), Q\d+\)", seen.prose["text"]))
            if tags != seen.prose["linkedTags"]:
                problems.append(f"{page}: {tags} source tags, {seen.prose['linkedTags']} of them linked")
        assert not problems, "\n".join(problems)

    def test_no_topic_page_is_taller_than_the_goal_at_desktop_width(self, walk, built_site):
        """As `python -m studysite.page_heights` measures it: the page as first met, proofs and long
        outputs folded. Past the goal, the gist of each answer is no longer what a reader scrolls through."""
        seen_pages = walk(self.width)
        topics = [page for page in seen_pages if is_topic_page(Path(built_site.path), page)]
        assert len(topics) >= 10, f"only {len(topics)} topic pages found: the check would prove little"
        tall = [
            f"{page}: {seen_pages[page].height:,} px"
            for page in topics
            if seen_pages[page].height > TOPIC_PAGE_GOAL_PX
        ]
        over = f"{len(tall)} topic pages taller than {TOPIC_PAGE_GOAL_PX:,} px at 1280 px"
        assert not tall, over + ":\n" + "\n".join(tall)

    def test_no_question_page_is_taller_than_the_limit(self, walk, root):
        questions = []
        for path in sorted((root / "docs").rglob("*.md")):
            questions += parse(path.read_text(encoding="utf-8"), path.relative_to(root / "docs").as_posix())
        seen_pages = walk(self.width)
        question_pages = sorted({q.site_path.split("#")[0] for q in questions})
        missing = [page for page in question_pages if page not in seen_pages]
        assert not missing, f"question pages the walk did not load: {missing}"
        too_tall = {
            page: seen_pages[page].height
            for page in question_pages
            if seen_pages[page].height > MAX_QUESTION_PAGE_PX
        }
        assert not too_tall, f"pages over {MAX_QUESTION_PAGE_PX} px: {too_tall}"
