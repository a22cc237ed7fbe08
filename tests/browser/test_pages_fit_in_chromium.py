"""Every page as a reader meets it at desktop and phone width: no output cuts its text at the
right edge (a table may scroll, and says so), no table runs past its column, no code block cuts
its text and code is legible on a phone, no figure is wider than its column or has text under
10 px, the page's words hold no escaped quote nor an unexplained source tag, and no topic page is
taller than `TOPIC_PAGE_GOAL_PX` at desktop width with its proofs folded."""

from __future__ import annotations

from pathlib import Path

import pytest

from studysite.page_heights import TOPIC_PAGE_GOAL_PX, is_topic_page, site_pages
from studysite.page_heights import WIDTHS as HEIGHT_WIDTHS

pytestmark = pytest.mark.browser

WIDTHS = [pytest.param(1280, id="1280px"), pytest.param(390, id="390px")]
LEGIBLE_PX = 10
LEGIBLE_CODE_PX = 13  # code on a phone: 0.85 of the body text, also inside a box
STUDY_PAGE = "study/"  # its "By topic" table is drawn by its script after loading
SVG_PX_PER_PT = 96 / 72

# For each output block shown: whether its text runs past the block's right edge.
OUTPUT_BLOCKS = """() => [...document.querySelectorAll(
    '.docexec-output pre > code, .docexec-raises pre > code')]
  .filter(code => code.offsetParent !== null)
  .map(code => ({
    table: code.closest('.docexec-table') !== null,
    cut: code.scrollWidth > code.clientWidth + 1,
    scrolls: getComputedStyle(code).overflowX === 'auto',
    text: code.textContent.slice(0, 60),
  }))"""

# Each table shown: whether it runs past its column (its scroll wrapper, or itself), where a phone
# leaves its last columns off-screen. The build report's table scrolls on purpose: a line a snippet.
TABLES = """() => [...document.querySelectorAll('article table')]
  .filter(table => table.offsetParent !== null && table.closest('.docexec-report') === null)
  .map(table => {
    const column = table.closest('.md-typeset__scrollwrap') || table.parentElement;
    const cells = [...table.querySelectorAll('th, td')];
    return {
      cut: column.scrollWidth > column.clientWidth + 1 || table.scrollWidth > table.clientWidth + 1
        || cells.some(cell => cell.getBoundingClientRect().right > document.documentElement.clientWidth + 1),
      stacked: table.hasAttribute('data-stacked'),
      labelled: [...table.querySelectorAll('tbody td')].every(cell => cell.dataset.label),
      text: table.textContent.trim().slice(0, 60),
    };
  })"""

# Each code block shown (outputs are checked above): whether it cuts its text, its size, and whether
# a wrapped line is marked as printed output's are (a mark in each row of the gutter, covered by
# each line on its first row) while the text a reader copies keeps its own lines.
CODE_BLOCKS = """() => [...document.querySelectorAll('article pre > code')]
  .filter(code => code.offsetParent !== null && !code.closest('.docexec-output, .docexec-raises'))
  .map(code => {
    const style = getComputedStyle(code);
    const lines = [...code.querySelectorAll(':scope > span')];
    return {
      cut: code.scrollWidth > code.clientWidth + 1,
      px: parseFloat(style.fontSize),
      wraps: lines.some(line => line.getClientRects().length > 1),
      marked: style.backgroundImage.includes('svg') && lines.every(line => {
        const cover = getComputedStyle(line, '::before');
        return parseFloat(cover.width) > 0 && cover.backgroundColor === style.backgroundColor;
      }),
      copiedLines: code.innerText.replace(/\\n$/, '').split('\\n').length,
      lines: code.textContent.replace(/\\n$/, '').split('\\n').length,
      text: code.textContent.slice(0, 60),
    };
  })"""

# Each figure: its width on the page, its column's width, and the smallest text it draws. Matplotlib
# draws text as glyph paths, each run under `scale(s -s)` where s is the size in points / 100.
FIGURES = """async () => Promise.all([...document.querySelectorAll('a.docexec-figure > img')]
  .filter(img => img.offsetParent !== null)
  .map(async img => {
    // The figure's column is its link, a block as wide as the text (edge to edge on a phone).
    const link = img.parentElement;
    const column = link.getBoundingClientRect();
    const box = img.getBoundingClientRect();
    let smallestPt = null, naturalPx = null;
    if (img.src.endsWith('.svg')) {
      const svg = await (await fetch(img.src)).text();
      naturalPx = parseFloat(svg.match(/<svg[^>]*\\swidth="([\\d.]+)pt"/)[1]) * 96 / 72;
      const scales = [...svg.matchAll(/scale\\(([\\d.]+) -\\1\\)/g)].map(m => parseFloat(m[1]) * 100);
      smallestPt = scales.length ? Math.min(...scales) : null;
    }
    return {
      src: img.getAttribute('src'), width: box.width, column: column.width,
      offScreen: column.left < -1 || column.right > document.documentElement.clientWidth + 1,
      scrollsSideways: link.scrollWidth > link.clientWidth + 1,
      smallestPt, naturalPx,
    };
  }))"""

# The page's own words: code and outputs are left out, they may print anything.
PROSE = """() => {
  const article = document.querySelector('article').cloneNode(true);
  article.querySelectorAll('pre, code, .highlight, script').forEach(e => e.remove());
  const tags = [...article.querySelectorAll('a')]
    .filter(a => /^(Day \\d+|Review), Q\\d+$/.test(a.textContent));
  return {text: article.innerText, linkedTags: tags.length};
}"""


@pytest.fixture(scope="module")
def every_page(built_site) -> list[str]:
    return site_pages(Path(built_site.path))


@pytest.fixture(scope="module")
def tab_at(browser, site_url):
    """One tab per width, reused over every page (each page is loaded afresh)."""
    tabs = {}

    def at(width: int):
        if width not in tabs:
            context = browser.new_context(viewport={"width": width, "height": 900}, is_mobile=width < 600)
            tabs[width] = context.new_page()
        return tabs[width]

    yield at
    for tab in tabs.values():
        tab.context.close()


def _open(tab, url: str) -> None:
    tab.goto(url)
    tab.wait_for_load_state("load")


def _unfold_every_box(tab) -> None:
    """Open every folded box (secondary evidence, a drill's stub and solution): what a reader
    unfolds must fit as well as what is in view."""
    tab.evaluate("() => document.querySelectorAll('article details').forEach(d => { d.open = true; })")


@pytest.mark.parametrize("width", WIDTHS)
def test_no_output_block_cuts_its_text(tab_at, site_url, every_page, width):
    tab = tab_at(width)
    cut, tables = [], 0
    for page in every_page:
        _open(tab, f"{site_url}/{page}")
        _unfold_every_box(tab)
        for block in tab.evaluate(OUTPUT_BLOCKS):
            if block["table"]:
                tables += 1
                assert block["scrolls"], f"{page}: a table that cannot scroll: {block['text']!r}"
            elif block["cut"]:
                cut.append(f"{page}: {block['text']!r}")
    assert not cut, f"{len(cut)} output blocks cut their text at {width} px:\n" + "\n".join(cut)
    assert tables, "no output was recognised as a table: the check above would prove nothing for tables"


@pytest.mark.parametrize("width", WIDTHS)
def test_no_table_runs_past_its_column(tab_at, site_url, every_page, width):
    tab = tab_at(width)
    cut, seen, stacked = [], 0, 0
    for page in every_page:
        _open(tab, f"{site_url}/{page}")
        if page == STUDY_PAGE:
            tab.wait_for_selector(".study-topics table")
        tab.wait_for_timeout(50)  # a table too wide is stacked in the next frame (narrow-tables.js)
        for table in tab.evaluate(TABLES):
            seen += 1
            stacked += table["stacked"]
            if table["cut"]:
                cut.append(f"{page}: {table['text']!r}")
            if table["stacked"]:
                assert table["labelled"], f"{page}: a stacked table's cells without their headings"
    assert seen > 20, f"only {seen} tables seen: the check would prove little"
    assert not cut, f"{len(cut)} tables run past their column at {width} px:\n" + "\n".join(cut)
    if width == 1280:
        assert stacked == 0, "a table is stacked on a desktop"


@pytest.mark.parametrize("width", WIDTHS)
def test_no_code_block_cuts_its_text_and_code_is_legible_on_a_phone(tab_at, site_url, every_page, width):
    tab = tab_at(width)
    problems, seen, wrapped = [], 0, 0
    for page in every_page:
        _open(tab, f"{site_url}/{page}")
        _unfold_every_box(tab)
        for block in tab.evaluate(CODE_BLOCKS):
            seen += 1
            wrapped += block["wraps"]
            where = f"{page}: {block['text']!r}"
            if block["cut"]:
                problems.append(f"{where} is cut")
            if block["copiedLines"] != block["lines"]:
                problems.append(f"{where} copies as {block['copiedLines']} lines, not {block['lines']}")
            if block["wraps"] and not block["marked"]:
                problems.append(f"{where} wraps without a mark")
            if width < 600 and block["px"] < LEGIBLE_CODE_PX:
                problems.append(f"{where} is {block['px']:.1f} px")
    assert seen > 100, f"only {seen} code blocks seen: the check would prove little"
    if width < 600:
        assert wrapped, "no line of code wraps on a phone: the mark check proved nothing"
    assert not problems, f"{len(problems)} code blocks at {width} px:\n" + "\n".join(problems)


@pytest.mark.parametrize("width", WIDTHS)
def test_figures_fit_their_column_and_their_text_is_legible(tab_at, site_url, every_page, width):
    tab = tab_at(width)
    problems, seen = [], 0
    for page in every_page:
        _open(tab, f"{site_url}/{page}")
        _unfold_every_box(tab)
        for figure in tab.evaluate(FIGURES):
            seen += 1
            where = f"{page}: {figure['src']}"
            if figure["width"] > figure["column"] + 1 or figure["scrollsSideways"] or figure["offScreen"]:
                wide = f"{figure['width']:.0f} px wide in a {figure['column']:.0f} px column"
                problems.append(f"{where} is {wide}")
            if figure["smallestPt"] is not None:
                shown_px = figure["smallestPt"] * SVG_PX_PER_PT * figure["width"] / figure["naturalPx"]
                if shown_px < LEGIBLE_PX - 0.05:
                    problems.append(f"{where}: its smallest text is {shown_px:.1f} px")
    assert seen, "no figure on any page"
    assert not problems, f"{len(problems)} figure problems at {width} px:\n" + "\n".join(problems)


def test_the_words_hold_no_escaped_quote_and_every_source_tag_is_a_link(tab_at, site_url, every_page):
    import re

    tab = tab_at(1280)
    problems = []
    for page in every_page:
        _open(tab, f"{site_url}/{page}")
        prose = tab.evaluate(PROSE)
        if '\\"' in prose["text"]:
            problems.append(f'{page}: a literal \\" in the text')
        tags = len(re.findall(r"\((?:Day \d+|Review), Q\d+\)", prose["text"]))
        if tags != prose["linkedTags"]:
            problems.append(f"{page}: {tags} source tags, {prose['linkedTags']} of them linked")
    assert not problems, "\n".join(problems)


def test_no_topic_page_is_taller_than_the_goal_at_desktop_width(tab_at, site_url, every_page, built_site):
    """As `python -m studysite.page_heights` measures it: the page as first met, proofs and long outputs
    folded. Past the goal, the gist of each answer is no longer what a reader scrolls through."""
    tab = tab_at(HEIGHT_WIDTHS["desktop"])
    topics = [page for page in every_page if is_topic_page(Path(built_site.path), page)]
    assert len(topics) >= 10, f"only {len(topics)} topic pages found: the check would prove little"
    tall = []
    for page in topics:
        _open(tab, f"{site_url}/{page}")
        height = tab.evaluate("document.documentElement.scrollHeight")
        if height > TOPIC_PAGE_GOAL_PX:
            tall.append(f"{page}: {height:,} px")
    over = f"{len(tall)} topic pages taller than {TOPIC_PAGE_GOAL_PX:,} px at 1280 px"
    assert not tall, over + ":\n" + "\n".join(tall)
