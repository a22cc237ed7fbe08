"""Every page of the built site loaded once per width, with every page check's measurements taken on
that one visit: its height, words and tables as first met, its outputs, code blocks and figures
with every box unfolded, then, folded again, axe in the light and the dark scheme. The checks are
the tests of test_pages_fit_in_chromium.py, one class per width (pytest-xdist's loadscope gives a
class to one worker, which walks its width once: `walk` in conftest.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

LIGHT, DARK = "default", "slate"  # Material's schemes, as mkdocs.yml's palette names them
STUDY_PAGE = "study/"  # its "By topic" table is drawn by its script after loading
# (rule, a fragment of the offending element's markup): why it is accepted, and what it waits for.
AXE_EXCEPTIONS: dict[tuple[str, str], str] = {}
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]

RUN_AXE = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return result.violations.map(v => ({
    rule: v.id, help: v.help,
    nodes: v.nodes.map(n => ({
      target: n.target.join(' '), html: n.html.slice(0, 160), why: n.failureSummary,
    })),
  }));
}"""

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


@dataclass
class Seen:
    """What one visit measured on one page."""

    height: int
    prose: dict
    tables: list[dict]
    outputs: list[dict]
    code: list[dict]
    figures: list[dict]
    axe: dict[str, list[dict]] = field(default_factory=dict)  # by scheme; empty without axe-core


def open_page(tab, url: str) -> None:
    tab.goto(url)
    tab.wait_for_load_state("load")


def axe_violations(tab, axe_source: str) -> list[dict]:
    """What axe finds on the page as it is now (every violation; the tests leave out the exceptions)."""
    # Colours are read as they are drawn: a transition under way (a button just pressed) is
    # neither its old nor its new colour, so wait for it to end.
    tab.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    if not tab.evaluate("() => typeof axe !== 'undefined'"):
        tab.add_script_tag(content=axe_source)
    return tab.evaluate(RUN_AXE, AXE_TAGS)


def accepted(found: list[dict]) -> list[str]:
    """What axe found, less the accepted exceptions: one line per element."""
    lines = []
    for violation in found:
        for node in violation["nodes"]:
            if any(rule == violation["rule"] and part in node["html"] for rule, part in AXE_EXCEPTIONS):
                continue
            lines.append(f"{violation['rule']} ({violation['help']}): {node['target']}: {node['why']}")
    return lines


def set_scheme(tab, scheme: str) -> None:
    """The reader's system preference and Material's palette both set to ``scheme``, as a page
    first loaded under that preference has them. Material keeps the palette a page chose in
    localStorage, so the next page loaded follows the last one set here."""
    tab.emulate_media(color_scheme="dark" if scheme == DARK else "light")
    tab.evaluate(
        "scheme => document.querySelector(`input[data-md-color-scheme='${scheme}']`).click()", scheme
    )
    tab.wait_for_function("scheme => document.body.dataset.mdColorScheme === scheme", arg=scheme)


def visit(tab, url: str, page: str, axe_source: str | None) -> Seen:
    open_page(tab, url)
    if page == STUDY_PAGE:
        tab.wait_for_selector(".study-topics table")
    height = tab.evaluate("document.documentElement.scrollHeight")  # as first met, proofs folded
    prose = tab.evaluate(PROSE)
    tab.wait_for_timeout(50)  # a table too wide is stacked in the next frame (narrow-tables.js)
    tables = tab.evaluate(TABLES)
    # Every folded box opened (secondary evidence, a drill's stub and solution): what a reader
    # unfolds must fit as well as what is in view. Closed again after, for axe.
    tab.evaluate(
        """() => document.querySelectorAll('article details:not([open])')
          .forEach(d => { d.dataset.walkUnfolded = ''; d.open = true; })"""
    )
    seen = Seen(
        height=height,
        prose=prose,
        tables=tables,
        outputs=tab.evaluate(OUTPUT_BLOCKS),
        code=tab.evaluate(CODE_BLOCKS),
        figures=tab.evaluate(FIGURES),
    )
    tab.evaluate(
        """() => document.querySelectorAll('article details[data-walk-unfolded]')
          .forEach(d => { d.open = false; delete d.dataset.walkUnfolded; })"""
    )
    if axe_source is not None:
        seen.axe["light"] = axe_violations(tab, axe_source)
        set_scheme(tab, DARK)
        seen.axe["dark"] = axe_violations(tab, axe_source)
        set_scheme(tab, LIGHT)
    return seen


def walk(browser, site_url: str, pages: list[str], width: int, axe_source: str | None) -> dict[str, Seen]:
    """Every page at ``width`` (a phone below 600 px), in the light scheme as first met."""
    context = browser.new_context(
        viewport={"width": width, "height": 900}, is_mobile=width < 600, color_scheme="light"
    )
    tab = context.new_page()
    try:
        return {page: visit(tab, f"{site_url}/{page}", page, axe_source) for page in pages}
    finally:
        context.close()
