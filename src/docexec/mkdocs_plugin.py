"""MkDocs glue: runs every snippet the pages reference before any page renders (in parallel,
cached), hands the results to the ``%run`` Markdown extension, and adds figures and lab
notebooks to the site as generated files."""

from __future__ import annotations

import base64
import hashlib
import logging
import os
import posixpath
from pathlib import Path

from mkdocs.config import base, config_options
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from docexec import labs
from docexec.engine import DeclarationError, Engine, Summary
from docexec.markdown_ext import RunExtension, SnippetRenderer, directive_lines
from docexec.result import FAILED, SKIPPED, Result

log = logging.getLogger("mkdocs.plugins.docexec")
FIGURES_DIR = "assets/figures"


class DocexecConfig(base.Config):
    execute = config_options.Type(bool, default=True)
    force = config_options.Type(bool, default=False)
    workers = config_options.Optional(config_options.Type(int))


class DocexecPlugin(BasePlugin[DocexecConfig]):
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self.root = Path(config.config_file_path).parent.resolve()
        # DOCEXEC_EXECUTE=0 switches execution off for one run: pages show code only.
        self.execute = self.config.execute and os.environ.get("DOCEXEC_EXECUTE", "1") != "0"
        self._page_dir = ""
        self.engine = Engine(self.root, force=self.config.force, workers=self.config.workers)
        self.results: dict[str, Result] = {}
        self.summary = Summary()
        self.renderer = SnippetRenderer(self.root, self._result, self._figure_url)
        config.markdown_extensions.append(RunExtension(self.renderer))  # type: ignore[arg-type]
        return config

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        referenced = set()
        for file in files.documentation_pages():
            if not file.src_uri.endswith(".md") or file.abs_src_path is None:
                continue  # generated pages hold no %run lines of a contributor
            lines = Path(file.abs_src_path).read_text(encoding="utf-8").splitlines()
            referenced.update(path for _, _, path in directive_lines(lines))
        lab_paths = labs.lab_snippets(self.root)
        runnable = []
        for path in sorted(referenced | set(lab_paths)):
            try:
                if (self.root / path).is_file():
                    self.engine.declarations(path)
                    runnable.append(path)
            except DeclarationError:
                pass  # reported where the page uses it, with the page's line
        if self.execute:
            self.results, self.summary = self.engine.run(runnable)
        notebook_root = self.engine.cache.root / "pages"
        for path in lab_paths:
            result = self.results.get(path) or Result(path=path, status=SKIPPED)  # no outputs
            if result.status == FAILED:
                log.warning("lab %s failed: %s", labs.page_uri(path), result.failure)
            try:
                labs.write_notebook(self.root, path, result, notebook_root)
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
        figures = {
            figure_name(data): data
            for result in self.results.values()
            for data in map(base64.b64decode, result.figures)
        }
        for name, data in sorted(figures.items()):
            files.append(File.generated(config, f"{FIGURES_DIR}/{name}", content=data))
        return files

    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        docs_dir = Path(config.docs_dir).resolve().relative_to(self.root).as_posix()
        self.renderer.page = f"{docs_dir}/{page.file.src_uri}"
        self.renderer.anchors = set()
        self._page_dir = posixpath.dirname(page.file.src_uri)
        return markdown

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        # A snippet block's id is inside HTML that superfences stashes before MkDocs looks for raw
        # HTML ids, so links to it ("Shown by") would be reported as broken: register them.
        if page.present_anchor_ids is not None:
            page.present_anchor_ids |= self.renderer.anchors
        return html

    def on_post_build(self, config: MkDocsConfig) -> None:
        if self.execute:
            log.info("docexec: %s", self.summary.line())
        else:
            log.info("docexec: execution is switched off (plugin option execute: false)")

    def _result(self, path: str) -> Result:
        if path not in self.results:
            if not self.execute:
                return Result(path=path, status=SKIPPED, failure="execution is switched off")
            results, _ = self.engine.run([path], progress=False)
            self.results.update(results)
        return self.results[path]

    def _figure_url(self, data: bytes) -> str:
        return posixpath.relpath(f"{FIGURES_DIR}/{figure_name(data)}", self._page_dir or ".")


def figure_name(png: bytes) -> str:
    """Named by content: the same figure keeps its URL, a changed one gets a new one."""
    return hashlib.sha256(png).hexdigest()[:20] + ".png"
