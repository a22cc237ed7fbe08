"""Outputs, figures and downloads as readers see them: phone and desktop width, light and dark
scheme (the scheme the reader's system prefers), the site served at its root and under a sub-path."""

from __future__ import annotations

import functools
import http.server
import re
import threading
from pathlib import Path
from urllib.parse import urlparse

import nbformat
import pytest

from docexec import config
from docexec.directives import directive_lines
from docexec.execution.engine import Engine
from docexec.render.figure_files import figure_name

pytestmark = pytest.mark.browser

VIEWS = [
    pytest.param(width, scheme, id=f"{width}px-{scheme}")
    for width in (390, 1280)
    for scheme in ("light", "dark")
]
ROOT = Path(__file__).resolve().parents[2]
PROVING_GROUND = "how-this-site-works/"
SUB_PATH = "/pytorch-foundations/"
LEGIBLE_PX = 8


@pytest.fixture(scope="module")
def sub_path_url(built_site):
    """The site served under a sub-path, as GitHub Pages serves a project site."""
    root = Path(built_site.path)

    class SubPathHandler(http.server.SimpleHTTPRequestHandler):
        def translate_path(self, path: str) -> str:
            if not path.startswith(SUB_PATH):
                return str(root / "does-not-exist")
            return super().translate_path("/" + path[len(SUB_PATH) :])

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(SubPathHandler, directory=str(root))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}{SUB_PATH.rstrip('/')}"
    server.shutdown()


@pytest.fixture
def open_page(browser):
    """``open_page(url, width, scheme)``: a page that records console errors and outside requests."""
    contexts = []

    def opener(url: str, width: int = 1280, scheme: str = "light"):
        context = browser.new_context(
            viewport={"width": width, "height": 900}, is_mobile=width < 600, color_scheme=scheme
        )
        contexts.append(context)
        page = context.new_page()
        page.errors, page.outside = [], []
        page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        page.on(
            "request",
            lambda r: (
                page.outside.append(r.url)
                if r.url.startswith("http") and urlparse(r.url).hostname != "127.0.0.1"
                else None
            ),
        )
        page.goto(url)
        page.wait_for_load_state("networkidle")
        return page

    yield opener
    for context in contexts:
        context.close()


def clean(page) -> None:
    assert page.errors == [], page.errors
    assert page.outside == [], page.outside


@pytest.fixture(scope="module")
def proving_ground_figures(root: Path) -> dict:
    """The figures the proving ground shows, by file name on the site (from the result cache)."""
    page = (root / "docs" / PROVING_GROUND.rstrip("/")).with_suffix(".md").read_text()
    engine = Engine(root, config.from_environment(root))  # the build's device and cache
    paths = [path for _, _, path in directive_lines(page.splitlines()) if not engine.declarations(path).cuda]
    results, _ = engine.execute(paths, progress=False)
    return {figure_name(f): f for result in results.values() for f in result.figures}


def _luminance(rgb: tuple[float, ...]) -> float:
    def channel(value: float) -> float:
        value /= 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(v) for v in rgb[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def _rgba(css: str) -> tuple[float, ...]:
    values = [float(v) for v in re.findall(r"[\d.]+", css)]
    return (*values[:3], values[3] if len(values) > 3 else 1.0)


def _over(top: tuple[float, ...], bottom: tuple[float, ...]) -> tuple[float, ...]:
    alpha = top[3]
    return tuple(top[i] * alpha + bottom[i] * (1 - alpha) for i in range(3)) + (1.0,)


def contrast(one: tuple[float, ...], other: tuple[float, ...]) -> float:
    lighter, darker = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def page_background(page) -> tuple[float, ...]:
    return _rgba(page.evaluate("getComputedStyle(document.body).backgroundColor"))


@pytest.mark.parametrize(("width", "scheme"), VIEWS)
def test_the_scheme_follows_the_readers_system(open_page, site_url, width, scheme):
    page = open_page(f"{site_url}/{PROVING_GROUND}", width, scheme)
    expected = "slate" if scheme == "dark" else "default"
    assert page.get_attribute("body", "data-md-color-scheme") == expected
    clean(page)


@pytest.mark.parametrize(("width", "scheme"), VIEWS)
def test_printed_lines_wrap_with_a_mark_on_each_continuation_and_tables_keep_their_columns(
    open_page, site_url, width, scheme
):
    page = open_page(f"{site_url}/{PROVING_GROUND}", width, scheme)
    blocks = page.locator(".docexec-output:not(.docexec-long) pre > code, .docexec-raises pre > code")
    assert blocks.count() >= 3
    measured = blocks.evaluate_all(
        """codes => codes.map(code => {
            const style = getComputedStyle(code);
            const lines = [...code.querySelectorAll(':scope > span')];
            return {
                table: code.closest('.docexec-table') !== null,
                whiteSpace: style.whiteSpace,
                cut: code.scrollWidth > code.clientWidth + 1,
                printed: code.textContent.replace(/\\n$/, "").split("\\n").length,
                read: code.innerText.replace(/\\n$/, "").split("\\n").length,
                rows: lines.map(line => line.getClientRects().length),
                gutterMarks: style.backgroundImage.includes('svg'),
                firstRowsCovered: lines.every(line => {
                    const cover = getComputedStyle(line, '::before');
                    return parseFloat(cover.width) > 0 && cover.backgroundColor === style.backgroundColor;
                }),
            };
        })"""
    )
    for block in measured:
        assert block["read"] == block["printed"] == len(block["rows"]), block  # copied text: its own lines
        if block["table"]:
            assert block["whiteSpace"] == "pre" and set(block["rows"]) == {1}, block
            continue
        assert block["whiteSpace"] == "pre-wrap" and not block["cut"], block
        # Every row of the gutter holds a mark, and each printed line covers the mark on its first
        # row: what remains marks the continuation rows of wrapped lines.
        assert block["gutterMarks"] and block["firstRowsCovered"], block
    if width == 390:
        assert any(rows > 1 for block in measured for rows in block["rows"]), "no line wraps on a phone"
    clean(page)


@pytest.mark.parametrize(("width", "scheme"), VIEWS)
def test_the_copy_button_sits_clear_of_the_output_text(open_page, site_url, width, scheme):
    page = open_page(f"{site_url}/{PROVING_GROUND}", width, scheme)
    block = page.locator(".docexec-output").first
    button = block.locator(".md-code__nav, .md-clipboard").first
    code = block.locator("pre > code").first
    assert button.bounding_box()["y"] + button.bounding_box()["height"] <= code.bounding_box()["y"] + 1
    clean(page)


@pytest.mark.parametrize(("width", "scheme"), VIEWS)
def test_an_expected_error_is_marked_at_least_as_strongly_as_output(open_page, site_url, width, scheme):
    page = open_page(f"{site_url}/{PROVING_GROUND}", width, scheme)
    background = page_background(page)

    def rule(selector: str) -> tuple[float, float]:
        code = page.locator(f"{selector} pre > code").first
        color = _over(_rgba(code.evaluate("c => getComputedStyle(c).borderLeftColor")), background)
        return contrast(color, background), float(
            code.evaluate("c => getComputedStyle(c).borderLeftWidth")[:-2]
        )

    output_contrast, output_width = rule(".docexec-output")
    raises_contrast, raises_width = rule(".docexec-raises")
    assert raises_contrast >= output_contrast and raises_width >= output_width
    title = page.locator(".docexec-raises .filename").first
    assert re.match(r"Raises \w+Error, as intended", title.inner_text())
    bar = _over(_rgba(title.evaluate("t => getComputedStyle(t).backgroundColor")), background)
    text = _rgba(title.evaluate("t => getComputedStyle(t).color"))
    assert contrast(text, bar) >= 4.5  # the exception type is readable in both schemes
    clean(page)


@pytest.fixture(scope="module")
def pages_with(built_site, site_url) -> dict[str, str]:
    """For each marker, the URL of the first built page (in path order) whose HTML holds it."""
    found: dict[str, str] = {}
    for html in sorted(Path(built_site.path).rglob("index.html")):
        text = html.read_text(encoding="utf-8")
        relative = html.parent.relative_to(built_site.path).as_posix()
        url = f"{site_url}/{relative}/" if relative != "." else f"{site_url}/"
        for marker in ("docexec-output docexec-long", "arithmatex"):
            if marker in text:
                found.setdefault(marker, url)
    return found


@pytest.mark.parametrize(("width", "scheme"), VIEWS)
def test_a_long_output_folds_and_unfolds_without_a_script(open_page, pages_with, width, scheme):
    url = pages_with.get("docexec-output docexec-long")
    if url is None:
        pytest.skip("no page prints more than the fold")
    page = open_page(url, width, scheme)
    code = page.locator(".docexec-long pre > code").first
    folded = code.evaluate("c => c.clientHeight")
    assert folded < code.evaluate("c => c.scrollHeight")
    toggle = page.locator(".docexec-fold > summary").first
    toggle.scroll_into_view_if_needed()
    assert toggle.inner_text().startswith("Show all")
    toggle.click()
    assert code.evaluate("c => c.clientHeight") > folded
    assert code.evaluate("c => c.scrollHeight <= c.clientHeight + 1")
    clean(page)


@pytest.mark.parametrize(("width", "scheme"), VIEWS)
def test_figures_are_sized_lazy_legible_and_open_at_full_size(
    open_page, site_url, proving_ground_figures, width, scheme
):
    page = open_page(f"{site_url}/{PROVING_GROUND}", width, scheme)
    figures = proving_ground_figures
    images = page.locator("a.docexec-figure > img")
    assert images.count() >= 1
    for index in range(images.count()):
        image = images.nth(index)
        assert image.get_attribute("loading") == "lazy"
        assert image.get_attribute("width") and image.get_attribute("height")
        assert not image.get_attribute("alt").startswith("Figure 1")
        image.scroll_into_view_if_needed()
        page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
        figure = figures[image.get_attribute("src").rsplit("/", 1)[-1]]
        rendered = image.bounding_box()["width"]
        assert figure.smallest_font_px * rendered / figure.width >= LEGIBLE_PX - 0.1
    clean(page)
    link = page.locator("a.docexec-figure").first
    href = link.evaluate("a => a.href")  # resolved: without a script, a tap opens the file itself
    assert href == link.locator("img").evaluate("img => img.src")
    # With it, the figure opens full screen in the page (test_figure_view_in_chromium.py).
    link.click()
    assert page.locator("dialog.figure-view img").evaluate("img => img.src") == href
    assert page.url == f"{site_url}/{PROVING_GROUND}"


@pytest.mark.parametrize(("width", "scheme"), VIEWS)
def test_the_page_says_once_where_and_when_its_outputs_were_produced(open_page, site_url, width, scheme):
    page = open_page(f"{site_url}/{PROVING_GROUND}", width, scheme)
    lines = page.locator(".docexec-page-line")
    assert lines.count() == 1
    text = lines.inner_text()
    assert re.search(
        r"produced on a (CPU|CUDA GPU) with torch \S+ and Python \S+, built \d+ \w+ \d{4}\.", text
    )
    # Outputs repeat nothing the page says; only a GPU recording, made elsewhere, says where.
    assert page.locator(".docexec-provenance:not(.docexec-recorded)").count() == 0
    for recorded in page.locator(".docexec-recorded").all_inner_texts():
        assert re.match(r"Recorded on \S.* · torch \S+.* · \d{4}-\d{2}-\d{2}$", recorded), recorded
    assert page.evaluate(
        "() => document.querySelector('article h1').compareDocumentPosition("
        "document.querySelector('.docexec-page-line')) & Node.DOCUMENT_POSITION_FOLLOWING"
    )
    clean(page)


def _snippet_blocks(page) -> list[str]:
    """The titles (snippet paths) of the code blocks on a page, in order."""
    return page.locator(".docexec-source .filename").all_inner_texts()


@pytest.mark.parametrize("served", ["root", "sub-path"])
def test_a_page_downloads_as_a_valid_notebook_of_its_snippets_and_outputs(
    open_page, site_url, sub_path_url, served
):
    base = site_url if served == "root" else sub_path_url
    page = open_page(f"{base}/{PROVING_GROUND}", 390)
    assert 'href="how-this-site-works.ipynb" download' in page.request.get(page.url).text()  # relative
    with page.expect_download() as download:
        page.locator(".docexec-page-line a.docexec-download").click()
    assert download.value.url == f"{base}/{PROVING_GROUND}how-this-site-works.ipynb"
    notebook = nbformat.reads(Path(download.value.path()).read_text(encoding="utf-8"), as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert "%pip install torch==" in code[0].source
    assert [cell.metadata["docexec"]["snippet"] for cell in code[1:]] == _snippet_blocks(page)
    outputs = "".join(o.get("text", "") for cell in code for o in cell.outputs)
    for shown in page.locator(".docexec-output code").all_inner_texts():
        assert shown.strip() in outputs
    assert _colab_path(page) == f"{PROVING_GROUND}how-this-site-works.ipynb"  # the one downloaded
    clean(page)


def _colab_path(page) -> str:
    """The path in the site of the notebook that the page's "Open in Colab" link opens: the
    publish workflow tags the commit built with its notebooks at those paths."""
    from docexec.render.publication import COLAB, FOLDER, TAG_PREFIX, source_commit

    link = page.locator(".docexec-page-line a.docexec-colab")
    assert link.inner_text() == "Open in Colab"
    href = link.get_attribute("href") or ""
    tag = f"{TAG_PREFIX}{source_commit(ROOT)}"
    opened = re.fullmatch(rf"{re.escape(COLAB)}/[\w.-]+/[\w.-]+/blob/{tag}/{FOLDER}/(\S+)", href)
    assert opened, href
    return opened.group(1)


@pytest.mark.parametrize("served", ["root", "sub-path"])
def test_a_lab_downloads_under_any_sub_path(open_page, site_url, sub_path_url, served):
    base = site_url if served == "root" else sub_path_url
    page = open_page(f"{base}/labs/broadcasting/")
    assert 'href="broadcasting.ipynb" download' in page.request.get(page.url).text()  # relative
    with page.expect_download() as download:
        page.locator(".docexec-page-line a.docexec-download").click()
    assert download.value.url == f"{base}/labs/broadcasting/broadcasting.ipynb"
    nbformat.validate(nbformat.reads(Path(download.value.path()).read_text(encoding="utf-8"), as_version=4))
    assert _colab_path(page) == "labs/broadcasting/broadcasting.ipynb"
    weight = page.evaluate("document.documentElement.outerHTML.length")
    assert weight < 200_000  # no inline JupyterLab style sheet
    clean(page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def _unrecorded_gpu_snippet_page(root: Path) -> str | None:
    """The page (its URL path) of a CUDA snippet that has no GPU recording yet, where there is one."""
    from docexec import recordings

    for page in sorted((root / "docs").rglob("*.md")):
        for snippet in re.findall(r"^\s*%run (\S+\.py)", page.read_text(encoding="utf-8"), re.MULTILINE):
            source = root / snippet
            cuda = source.is_file() and re.search(r"^# docexec:.*\bcuda\b", source.read_text(), re.MULTILINE)
            if cuda and not recordings.recording_file(root, snippet).is_file():
                return page.relative_to(root / "docs").with_suffix("").as_posix() + "/"
    return None


def test_a_gpu_snippet_shows_its_recording_labelled_under_its_code(open_page, site_url):
    page = open_page(f"{site_url}/{PROVING_GROUND}", 390, "light")
    if "CUDA GPU" in page.locator(".docexec-page-line").inner_text():
        pytest.skip("this build ran on a GPU: the snippet has its own output")
    label = page.locator(".docexec-recorded").first
    assert re.match(r"Recorded on \S.* · torch \S+", label.inner_text())
    assert page.locator(".admonition", has_text="Needs a GPU").count() == 0
    clean(page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_gpu_snippet_without_a_recording_says_in_plain_words_that_it_has_no_output_here(
    open_page, site_url, root, scheme
):
    url = _unrecorded_gpu_snippet_page(root)
    if url is None:
        pytest.skip("every CUDA snippet has its GPU recording")
    page = open_page(f"{site_url}/{url}", 390, scheme)
    if "CUDA GPU" in page.locator(".docexec-page-line").inner_text():
        pytest.skip("this build ran on a GPU: the snippet has its output")
    note = page.locator(".admonition", has_text="Needs a GPU").first
    text = note.text_content()  # the snippet may sit in a folded box
    assert "not shown" in text and "runner" not in text and "below" not in text
    block = note.evaluate("n => n.previousElementSibling.className")
    assert "docexec-source" in block  # right under the code: no output block in between
    clean(page)


def test_formulas_are_rendered_by_the_sites_own_katex(open_page, pages_with):
    url = pages_with.get("arithmatex")
    if url is None:
        pytest.skip("no page holds a formula")
    page = open_page(url, 390, "dark")
    page.wait_for_selector(".arithmatex .katex")
    clean(page)
