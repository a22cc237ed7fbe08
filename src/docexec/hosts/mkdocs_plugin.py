"""MkDocs glue: runs every snippet the pages reference before any page renders (in parallel,
cached), hands the results to the ``%run`` Markdown extension, and adds to the site as generated
files: the figures, the lab notebooks, a notebook of each page that runs snippets, and the build
report. It also warns, with file and line, of what `docexec.checks` finds (strict builds fail).

Under ``mkdocs serve`` the instance lives as long as the preview (`docexec.hosts.preview`): one engine
and its warm servers for every rebuild, and pages served before many snippets have run."""

from __future__ import annotations

import logging
import os
import posixpath
import re
import shutil
import signal
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urljoin

import nbformat
from mkdocs.config import base, config_options
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from docexec import checks, recordings
from docexec.config import ConfigError, from_environment
from docexec.execution.engine import DeclarationError, Engine, Summary
from docexec.execution.result import Figure, Reason, Result, Status
from docexec.hosts.preview import Preview, pending_result
from docexec.render import build_report, labs, page_notebook, provenance
from docexec.render.figure_files import figure_name, served_bytes
from docexec.render.markdown_ext import RunExtension, SnippetRenderer, directive_lines

log = logging.getLogger("mkdocs.plugins.docexec")
FIGURES_DIR = "assets/figures"


class DocexecConfig(base.Config):
    execute = config_options.Type(bool, default=True)
    force = config_options.Type(bool, default=False)
    workers = config_options.Optional(config_options.Type(int))


class DocexecPlugin(BasePlugin[DocexecConfig]):
    # Under `mkdocs serve` one instance lives through every rebuild (it has on_startup), and the
    # preview's engine and warm servers with it.
    serving = False
    preview: Preview | None = None
    pending: frozenset[str] | set[str] = frozenset()  # snippets of the preview still running
    focus: frozenset[str] = frozenset()  # a focused preview renders only these pages in full
    _builds_started = 0
    _building = False

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serving = command == "serve"
        if self.serving and threading.current_thread() is threading.main_thread():
            # SIGTERM would end the preview without MkDocs' clean-up (on_shutdown, its temporary
            # site): stop it as Ctrl-C does, which mkdocs serve handles.
            signal.signal(signal.SIGTERM, _interrupt)

    def on_shutdown(self) -> None:
        if self.preview is not None:
            self.preview.close()
            shutil.rmtree(self._signal.parent, ignore_errors=True)

    def on_serve(self, server, config: MkDocsConfig, builder):  # type: ignore[no-untyped-def]
        if self.preview is not None:
            server.watch(str(self._signal.parent))  # the background run asks for rebuilds here
            self._watching.set()
        return server

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.root = Path(config.config_file_path).parent.resolve()
        # DOCEXEC_EXECUTE=0 switches execution off for one run: pages show code only.
        self.execute = self.config.execute and os.environ.get("DOCEXEC_EXECUTE", "1") != "0"
        # DOCEXEC_FOCUS=week-1/autograd (`make serve PAGE=...`): a preview of those pages only.
        self.focus = focused_pages(os.environ.get("DOCEXEC_FOCUS", "")) if self.serving else frozenset()
        if self.focus:  # the pages left out on purpose (labs) are no mistake in the nav
            config.validation.nav.not_found = logging.INFO
        self._page_dir = ""
        try:
            self.engine = self._engine()
        except ConfigError as error:  # "Error: pyproject.toml:LINE: ..." and no traceback
            raise PluginError(f"docexec: {error}") from None
        self._builds_started += 1
        self._building = True
        self._page_pending: set[str] = set()  # snippets of the page being rendered still running
        self.results: dict[str, Result] = {}
        self.summary = Summary()
        self.built = provenance.build_date()
        # Where the reader gets the project that ships torchguide (it is not on PyPI).
        self.repository = config.repo_url or config.extra.get("repository")
        self.notebooks: dict[str, str] = {}  # page src_uri -> its notebook's file name, beside it
        self.lab_pages: set[str] = set()
        self.recordings = recordings.Store(self.root)  # GPU outputs shown where CUDA snippets skip
        self.renderer = SnippetRenderer(
            self.root,
            self._result,
            self._figure_url,
            environment=self.engine.environment,
            library_repository=self.repository,
            recorded=self._recording,
        )
        config.markdown_extensions.append(RunExtension(self.renderer))  # type: ignore[arg-type]
        return config

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        shown_on: dict[str, list[str]] = {}  # snippet -> pages, for the build report
        page_sources: dict[str, str] = {}
        for file in files.documentation_pages():
            if not file.src_uri.endswith(".md") or file.abs_src_path is None:
                continue  # generated pages hold no %run lines of a contributor
            if not self._in_focus(file.src_uri):
                continue  # a focused preview shows the other pages as stubs
            text = Path(file.abs_src_path).read_text(encoding="utf-8")
            for _, _, path in directive_lines(text.splitlines()):
                page_sources[file.src_uri] = text
                shown_on.setdefault(path, []).append(file.src_uri)
        lab_paths = [p for p in labs.lab_snippets(self.root) if self._in_focus(labs.page_uri(p))]
        for path in lab_paths:
            shown_on.setdefault(path, []).append(labs.page_uri(path))
        runnable = []
        for path in sorted(shown_on):
            try:
                if (self.root / path).is_file():
                    self.engine.declarations(path)
                    runnable.append(path)
            except DeclarationError:
                pass  # reported where the page uses it, with the page's line
        if self.preview is not None:
            self.results, self.summary, self.pending = self.preview.results(runnable)
        elif self.execute:
            self.results, self.summary = self.engine.execute(runnable)
        self._check(files, config, set(shown_on))
        self._add_labs(lab_paths, files, config)
        self._add_page_notebooks(page_sources, files, config)
        shown = [*self.results.values(), *self._recorded_results()]
        figures = {figure_name(f): f for result in shown for f in result.figures}
        for name, figure in sorted(figures.items()):
            files.append(File.generated(config, f"{FIGURES_DIR}/{name}", content=served_bytes(figure)))
        if self.execute:
            report = build_report.markdown(self.results, shown_on, self.engine.environment, self.built)
            files.append(File.generated(config, build_report.PAGE, content=report))
        return files

    def _add_labs(self, lab_paths: list[str], files: Files, config: MkDocsConfig) -> None:
        notebook_root = self.engine.cache.root / "pages"
        self.lab_pages = set()
        for path in lab_paths:
            result = self.results.get(path) or Result(path, Status.SKIPPED, Reason.EXECUTION_OFF)  # none run
            if result.status == Status.FAILED:
                log.warning("lab %s failed: %s", labs.page_uri(path), result.failure)
            try:
                labs.write_notebook(
                    self.root, path, result, notebook_root, self.engine.environment, self.repository
                )
            except labs.LabError as error:
                log.warning("%s", error)
                continue
            # A File with a real src_dir, not File.generated: mkdocs-jupyter wraps the file and
            # derives the notebook's path from src_dir, which generated files do not have.
            files.append(
                File(
                    labs.page_uri(path),
                    src_dir=str(notebook_root),
                    dest_dir=config.site_dir,
                    use_directory_urls=config.use_directory_urls,
                )
            )
            self.lab_pages.add(labs.page_uri(path))

    def _add_page_notebooks(self, page_sources: dict[str, str], files: Files, config: MkDocsConfig) -> None:
        """Each page that runs snippets, as a notebook beside the page's HTML."""
        self.notebooks = {}
        if not self.execute:
            return
        for src_uri, markdown in sorted(page_sources.items()):
            page = files.get_file_from_path(src_uri)
            if page is None:
                continue
            try:
                notebook = page_notebook.notebook_for_page(
                    self.root,
                    markdown,
                    self._result,
                    self.engine.environment,
                    self.repository,
                    url_of=lambda target, page=src_uri: _published_url(target, page, files, config),
                )
            except (OSError, DeclarationError):
                continue  # the page reports its broken %run line where it renders
            name = page_notebook.file_name(src_uri)
            folder = posixpath.dirname(page.dest_uri)
            files.append(
                File.generated(config, posixpath.join(folder, name), content=nbformat.writes(notebook))
            )
            self.notebooks[src_uri] = name

    def on_page_read_source(self, page: Page, config: MkDocsConfig) -> str | None:
        if self._in_focus(page.file.src_uri) or not page.file.src_uri.endswith(".md"):
            return None
        if page.file.abs_src_path is None:
            return None  # generated (the build report, the corrections): no snippets to leave out
        shown = ", ".join(sorted(self.focus - {"index.md"}))
        headings = _outline(Path(page.file.abs_src_path).read_text(encoding="utf-8"))
        title = headings[0] if headings and headings[0].startswith("# ") else f"# {page.title}"
        note = (
            '!!! info "Not rendered in this preview"\n'
            f"    This preview renders only {shown}; `make serve` without `PAGE=` renders every page."
        )
        # Its headings and correction boxes stay, so that links to them still land.
        return "\n\n".join([title, note, *[h for h in headings if not h.startswith("# ")]]) + "\n"

    def _in_focus(self, src_uri: str) -> bool:
        return not self.focus or src_uri in self.focus

    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        docs_dir = Path(config.docs_dir).resolve().relative_to(self.root).as_posix()
        self.renderer.start_page(f"{docs_dir}/{page.file.src_uri}", page.file.src_uri)
        self._page_dir = posixpath.dirname(page.file.src_uri)
        self._page_pending = set()
        return markdown

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        # A snippet block's id is inside HTML that superfences stashes before MkDocs looks for raw
        # HTML ids, so links to it ("Shown by") would be reported as broken: register them.
        if page.present_anchor_ids is not None:
            page.present_anchor_ids |= self.renderer.anchors
        if self._page_pending:
            html = _after_title(html, self._pending_note(len(self._page_pending)))
        lab = page.file.src_uri in self.lab_pages
        if lab:
            html = labs.lighten(html)
        if self.execute and (self.renderer.outcomes or lab):
            notebook = posixpath.basename(page.file.src_uri) if lab else self.notebooks.get(page.file.src_uri)
            line = provenance.page_line_html(
                self.engine.environment, self.built, notebook, self._needs_gpu(page)
            )
            html = _after_title(html, line)
        return html

    def on_page_context(self, context, page: Page, config: MkDocsConfig, nav):  # type: ignore[no-untyped-def]
        if page.file.src_uri in self.lab_pages and config.edit_uri:  # a lab's source is its snippet
            snippet = f"{labs.LABS_DIR}/{posixpath.basename(page.file.src_uri).removesuffix('.ipynb')}.py"
            page.edit_url = urljoin(config.edit_uri, "../" + snippet)
        return context

    def on_post_build(self, config: MkDocsConfig) -> None:
        self._building = False
        if self.pending:
            log.info("docexec: %s; %d still running", self.summary.line(), len(self.pending))
        elif self.execute:
            log.info("docexec: %s", self.summary.line())
        else:
            log.info("docexec: execution is switched off (plugin option execute: false)")

    def _engine(self) -> Engine:
        """A new engine per build; in the preview, one for all its builds, started at once."""
        settings = from_environment(self.root)  # [tool.docexec], then DOCEXEC_*
        settings = settings.replace(force=settings.force or self.config.force)
        if not (self.serving and self.execute):
            return Engine(self.root, settings, workers=self.config.workers)
        if self.preview is None:
            engine = Engine(self.root, settings, workers=self.config.workers, keep_warm=True)
            engine.warm_up()
            self.preview = Preview(engine, self._ask_for_rebuild)
            self._signal = Path(tempfile.mkdtemp(prefix="docexec-preview-")) / "outputs-arrived"
            self._watching = threading.Event()
        return self.preview.engine

    def _ask_for_rebuild(self) -> None:
        """Touch a file the server watches (its public API for plugins); again if no build
        started, as when the server was not watching yet."""
        self._watching.wait()
        started = self._builds_started
        for attempt in range(10):
            self._signal.write_text(f"{started} {attempt}\n", encoding="utf-8")
            time.sleep(2.0)
            if self._builds_started != started or self._building:
                return

    def _pending_note(self, count: int) -> str:
        progress = self.preview.progress() if self.preview else ""
        return (
            '<div class="admonition info docexec-pending"><p class="admonition-title">Outputs on '
            f"their way</p><p>{count} snippet{'s' if count != 1 else ''} of this page "
            f"{'are' if count != 1 else 'is'} still running ({progress}); the page reloads with "
            "their outputs.</p></div>"
        )

    def _check(self, files: Files, config: MkDocsConfig, used: set[str]) -> None:
        """What `docexec.checks` finds, as warnings: the strict build fails on them, the preview
        shows the pages anyway."""
        snippets = self.engine.all_snippets()
        if self.focus:  # only the focused pages' own snippets can be judged
            folders = {"snippets/" + uri.rsplit(".", 1)[0] + "/" for uri in self.focus}
            snippets = [path for path in snippets if path.startswith(tuple(folders))]
        labs = self.engine.config.labs
        problems = checks.unused_snippets(snippets, used, labs)
        problems += [problem for problem in (checks.snippet_name(path, labs) for path in snippets) if problem]
        docs_dir = Path(config.docs_dir).resolve().relative_to(self.root).as_posix()
        for file in files.documentation_pages():
            if file.src_uri.endswith(".md") and file.abs_src_path and self._in_focus(file.src_uri):
                text = Path(file.abs_src_path).read_text(encoding="utf-8")
                problems += checks.page_code_blocks(text, f"{docs_dir}/{file.src_uri}")
        for problem in problems:
            log.warning("%s", problem)

    def _result(self, path: str) -> Result:
        if path in self.pending:
            self._page_pending.add(path)
            return pending_result(path, self.engine.environment)
        if path not in self.results:
            if not self.execute:
                return Result(path, Status.SKIPPED, Reason.EXECUTION_OFF, failure="execution is switched off")
            results, _ = self.engine.execute([path], progress=False)
            self.results.update(results)
        return self.results[path]

    def _recording(self, path: str) -> recordings.Recording | None:
        """A CUDA snippet's recorded output; a broken recording file is a warning (strict fails)."""
        try:
            return self.recordings.find(path)
        except recordings.RecordingError as error:
            log.warning("%s", error)
            return None

    def _recorded_results(self) -> list[Result]:
        """The results of the recordings that pages will show: their figures are part of the site."""
        skipped = [path for path, result in self.results.items() if result.status == Status.SKIPPED]
        found = [self._recording(path) for path in skipped]
        return [recording.result for recording in found if recording is not None and not recording.stale]

    def _needs_gpu(self, page: Page) -> list[bool]:
        """For each output the page shows from a run here, whether its snippet is declared ``cuda``."""
        ran = [outcome.path for outcome in self.renderer.outcomes if outcome.status != Status.SKIPPED]
        if page.file.src_uri in self.lab_pages:
            ran.append(f"{labs.LABS_DIR}/{posixpath.basename(page.file.src_uri).removesuffix('.ipynb')}.py")
        return [self.engine.declarations(path).cuda for path in ran]

    def _figure_url(self, figure: Figure) -> str:
        return posixpath.relpath(f"{FIGURES_DIR}/{figure_name(figure)}", self._page_dir or ".")


def _outline(markdown: str) -> list[str]:
    """A page's headings and correction boxes (each with a one-line body), outside fenced blocks:
    what other pages link to."""
    found, fence = [], None
    for line in markdown.splitlines():
        marker = re.match(r"^\s*(`{3,}|~{3,})", line)
        if marker and (fence is None or marker[1][0] == fence[0] and len(marker[1]) >= len(fence)):
            fence = marker[1] if fence is None else None
        elif fence is None and re.match(r"^#{1,6} ", line):
            found.append(line)
        elif fence is None and re.match(r"^\s*!!! correction ", line):
            found.append(line.strip() + "\n    Not rendered in this preview.")
    return found


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def focused_pages(value: str) -> frozenset[str]:
    """``week-1/autograd, docs/labs/x.ipynb`` -> the pages' paths under docs/, with the home page."""
    pages = set()
    for item in value.replace(",", " ").split():
        uri = item.removeprefix("docs/")
        pages.add(uri if uri.endswith((".md", ".ipynb")) else uri + ".md")
    return frozenset(pages | {"index.md"}) if pages else frozenset()


def _published_url(target: str, src_uri: str, files: Files, config: MkDocsConfig) -> str | None:
    """A link's target on the published site, for a notebook read away from it."""
    linked = files.get_file_from_path(posixpath.normpath(posixpath.join(posixpath.dirname(src_uri), target)))
    if linked is None or not config.site_url:
        return None
    return config.site_url.rstrip("/") + "/" + linked.url


def _after_title(html: str, line: str) -> str:
    """``line`` right under the page's first heading (at the top where there is none)."""
    end = html.find("</h1>")
    if end < 0:
        return line + html
    end += len("</h1>")
    return html[:end] + "\n" + line + html[end:]
