"""Every page as a reader meets it at desktop and phone width: no output cuts its text at the
right edge (a table may scroll, and says so), no figure is wider than its column or has text
under 10 px, the page's words hold no escaped quote nor an unexplained source tag, and no topic
page is taller than `TOPIC_PAGE_GOAL_PX` at desktop width with its proofs folded."""

from __future__ import annotations

from pathlib import Path

import pytest

from studysite.page_heights import TOPIC_PAGE_GOAL_PX, is_topic_page, site_pages
from studysite.page_heights import WIDTHS as HEIGHT_WIDTHS

pytestmark = pytest.mark.browser

WIDTHS = [pytest.param(1280, id="1280px"), pytest.param(390, id="390px")]
LEGIBLE_PX = 10
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
