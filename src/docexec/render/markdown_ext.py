"""A Python-Markdown extension: a line ``%run snippets/<page>/<name>.py`` becomes the snippet's code
and its real output (text, expected traceback, figures). Where the outputs were produced is said once
per page (`docexec.render.provenance`); an output says it only where it differs (a recorded GPU run).

It emits standard Markdown (superfences code blocks, admonitions), so highlighting, copy buttons
and search work as for any other block. It renders the plan of the page (`docexec.site`): the
host says which page renders, and a page it was not given a plan for is planned as it renders.
Any other Python-Markdown host loads it by name (``markdown_extensions: [docexec.render.markdown_ext]``,
see `makeExtension`); there a failing or broken snippet raises `SnippetError`, which fails that
host's build.
"""

from __future__ import annotations

import atexit
import dataclasses
import logging
import posixpath
from collections.abc import Callable
from pathlib import Path

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

from docexec import config as configuration
from docexec import recordings
from docexec.config import Config
from docexec.directives import Directive, directives
from docexec.execution import declarations
from docexec.execution.engine import Engine, Summary
from docexec.execution.result import Figure, Reason, Result, Status
from docexec.render import gist, outputs, provenance, requirements
from docexec.render.figure_files import figure_url
from docexec.render.markdown_blocks import fenced, title
from docexec.render.outputs.figure import data_url
from docexec.render.plain_text import markdown_text
from docexec.site import PagePlan, SiteBuild, Use, engine_results, one_by_one

log = logging.getLogger("mkdocs.plugins.docexec")

# After whitespace is normalized (30), which would strip the HTML stash's placeholders, and before
# superfences (25) reads the fences; after pymdownx.snippets (32), so output is never read as an include.
PRIORITY = 29


class SnippetError(Exception):
    """A snippet that failed, or a ``%run`` line that names none, in a strict renderer: the message
    starts with the page's ``file:line``."""


def _indent(block: list[str], prefix: str) -> list[str]:
    return [prefix + line if line else line for line in block]


class SnippetRenderer:
    """Turns the plan of a page into Markdown lines."""

    def __init__(
        self,
        site: SiteBuild | Path,
        results: Callable[[str], Result] | None = None,
        environment: dict | None = None,
        library_repository: str | None = None,
        strict: bool = False,
        figure_files: bool = False,
        config: Config | None = None,
    ) -> None:
        """``site``: the build whose plans it renders; or, for a host without one, the project's root
        and ``results``, which gives one snippet's result (and ``config``, default: the project's).

        ``strict``: raise `SnippetError` on a failing or broken snippet, for a host that only
        fails its build on an exception; otherwise the page shows the error and it is logged (the
        MkDocs plugin: ``--strict`` fails on the warning, the preview keeps serving).
        ``figure_files``: figures are served as files (`figure_url`), else embedded as data URLs."""
        if not isinstance(site, SiteBuild):
            site = _one_by_one(site, results, environment, config)
        self.site = site
        self.config = site.config
        self.strict = strict
        self.figure_files = figure_files
        self.environment = environment or site.environment  # an output run elsewhere says so
        self.library_repository = library_repository
        # Raw HTML for the page; the Markdown extension replaces this with its stash.
        self.stash: Callable[[str], str] = lambda raw: raw
        self.start_page("<page>")

    def start_page(self, page: str, page_uri: str = "", plan: PagePlan | None = None) -> None:
        """The page that renders next: ``page`` names it in messages, ``page_uri`` is its path under
        the docs folder, ``plan`` what the site build planned for it (else planned as it renders)."""
        self.page = page
        self.page_uri = page_uri
        self.plan = plan
        self.library_noted = False  # where the library comes from is said once per page

    def plan_for(self, lines: list[str]) -> tuple[PagePlan, list[Directive]]:
        """The page's plan, when it is of these lines; else these lines planned now (a host that
        renders page by page, or Markdown changed after the site was planned)."""
        found = directives(lines, self.config.snippets)
        if self.plan is not None and self.plan.matches(found):
            return self.plan, found
        plan = self.site.plan_page(self.page_uri, "\n".join(lines), name=self.page)
        return plan, found

    def render(self, use: Use) -> list[str]:
        where = f"{self.page}:{use.line}"
        if use.problem is not None or use.declarations is None:
            return self.error(use.line, use.problem or "")
        decl, source, path = use.declarations, use.source, use.path
        # The file name is the block's anchor: a page links to the snippet's block with it.
        shown = gist.gist_source(source, decl) or declarations.displayed_source(source, decl)
        lines = fenced(shown, f' {{ .python .docexec-source #{use.anchor} title="{title(path)}" }}')
        # A gist or a part on show: the whole file that ran, one click away under the output.
        whole_proof = self._whole_proof(source, decl) if decl.gist or decl.show else []
        outcome = use.result
        library = self._library_note(source)
        if outcome.status == Status.SKIPPED:
            cuda = self._cuda_note(use) if decl.cuda and outcome.reason != Reason.STILL_RUNNING else []
            return lines + cuda + whole_proof + library
        if outcome.status == Status.FAILED:
            if self.strict:
                raise SnippetError(f"{where}: snippet failed: {outcome.failure}")
            log.warning("%s: snippet failed: %s", where, outcome.failure)
            return lines + self._output(outcome) + self._failure(outcome) + whole_proof
        return lines + self._output(outcome) + self._provenance(outcome) + whole_proof + library

    def _whole_proof(self, source: str, decl: declarations.Declarations) -> list[str]:
        whole = declarations.displayed_source(source, dataclasses.replace(decl, show=None))
        count = whole.count("\n")
        return [
            "",
            f'??? docexec-proof "The whole proof ({count} lines)"',
            "",
            *_indent(fenced(whole, " python"), "    "),
        ]

    def _output(self, outcome: Result) -> list[str]:
        """What it showed, in the order it showed it (`docexec.render.outputs`)."""
        return outputs.page_lines(outputs.PageContext(outcome, self._figure_url, self.stash))

    def _figure_url(self, figure: Figure) -> str:
        """Its file, as this page links it (``figure_files``), else the image itself as a data URL."""
        if self.figure_files:
            return figure_url(figure, self.page_uri, self.config.figure_store)
        return data_url(figure)

    def _provenance(self, outcome: Result) -> list[str]:
        """Said by the page once; an output says it only when it was produced elsewhere."""
        if not provenance.differs(outcome.environment, self.environment):
            return []
        text = "Ran " + markdown_text(provenance.environment_words(outcome.environment))
        return ["", text, "{ .docexec-provenance }", ""]

    def _library_note(self, source: str) -> list[str]:
        """Where the project's library comes from, for a reader who copies the snippet."""
        module = self.config.library_module
        if self.library_noted or not module or module not in requirements.imported_modules(source):
            return []
        self.library_noted = True
        name = f"`{module}`"
        if self.config.reference_page:
            here = posixpath.dirname(self.page_uri) or "."
            name = f"[{name}]({posixpath.relpath(self.config.reference_page, here)})"
        distribution = self.config.library_distribution or module
        command = requirements.pip_command(
            requirements.library_requirements(
                distribution, self.library_repository, self.config.repository_distributions
            )
        )
        return [
            "",
            f"Uses {name}, this site's helper library: `{command}`",
            "{ .docexec-library }",
            "",
        ]

    def _cuda_note(self, use: Use) -> list[str]:
        """Its recorded GPU output where one matches the source; else why no output is shown."""
        recording = use.recording
        if recording is not None and not recording.stale:
            label = [markdown_text(recording.label()), "{ .docexec-provenance .docexec-recorded }"]
            return [*self._output(recording.result), "", *label, ""]
        if recording is not None:
            return [
                "",
                '!!! warning docexec-needs-gpu "Needs a GPU: its recorded output is out of date"',
                "    This code runs only on a machine with a CUDA GPU. Its output was recorded on"
                f" {markdown_text(recording.gpu)} on {markdown_text(recording.recorded)}, but the code has"
                f" changed since, so that output is not shown. `{recordings.RECORD_COMMAND}` on a CUDA"
                " machine records it again.",
                "",
            ]
        return [
            "",
            '!!! info docexec-needs-gpu "Needs a GPU"',
            "    This code runs only on a machine with a CUDA GPU, and this copy of the site was",
            "    built without one, so its output is not shown here. Run it on a GPU machine to see it.",
            "",
        ]

    def _failure(self, outcome: Result) -> list[str]:
        return [
            "",
            f'!!! failure "This snippet failed: {title(outcome.path)}"',
            "",
            *_indent(fenced(outcome.failure or "", " text"), "    "),
            "",
        ]

    def error(self, page_line: int, message: str) -> list[str]:
        """A ``%run`` line that cannot run: raised when strict, else shown on the page and logged."""
        where = f"{self.page}:{page_line}"
        if self.strict:
            raise SnippetError(f"{where}: {message}")
        log.warning("%s: %s", where, message)
        return ['!!! failure "Snippet error"', "", *_indent(fenced(message, " text"), "    "), ""]


class RunPreprocessor(Preprocessor):
    def __init__(self, md: Markdown, renderer: SnippetRenderer) -> None:
        super().__init__(md)
        self.renderer = renderer

    def run(self, lines: list[str]) -> list[str]:
        if not any("%run" in line for line in lines):
            return lines
        plan, found = self.renderer.plan_for(lines)
        if not found:
            return lines
        self.renderer.stash = self.md.htmlStash.store
        output = list(lines)
        blocks = {}
        for directive, use in zip(
            found, plan.uses, strict=True
        ):  # in page order: a strict host names the first problem
            blocks[directive.index] = (directive.indent, self.renderer.render(use))
        for index in sorted(blocks, reverse=True):
            indent, block = blocks[index]
            output[index : index + 1] = ["", *_indent(block, indent), ""]
        return output


class RunExtension(Extension):
    """Register with ``Markdown(extensions=[RunExtension(renderer)])``."""

    def __init__(self, renderer: SnippetRenderer, **kwargs: object) -> None:
        self.renderer = renderer
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's API name
        md.preprocessors.register(RunPreprocessor(md, self.renderer), "docexec_run", PRIORITY)


class _HostPagePreprocessor(Preprocessor):
    """Names the page in messages where the host says which page it renders (Zensical keeps it on
    a preprocessor's ``page.path``); Python-Markdown itself has no notion of a page."""

    def __init__(self, md: Markdown, renderer: SnippetRenderer) -> None:
        super().__init__(md)
        self.renderer = renderer

    def run(self, lines: list[str]) -> list[str]:
        for processor in self.md.preprocessors:
            page_path = getattr(getattr(processor, "page", None), "path", None)
            if isinstance(page_path, str) and page_path:
                self.renderer.start_page(page_path, page_path)
                break
        return lines


class HostedRunExtension(RunExtension):
    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's API name
        super().extendMarkdown(md)
        md.preprocessors.register(_HostPagePreprocessor(md, self.renderer), "docexec_page", PRIORITY + 1)


_hosted_engines: dict[Path, Engine] = {}


@atexit.register
def close_hosted_engines() -> None:
    """End the warm servers of the engines `makeExtension` started (done at exit too)."""
    while _hosted_engines:
        _hosted_engines.popitem()[1].close()


def makeExtension(root: str | None = None, strict: bool = True, **unknown: object) -> RunExtension:  # noqa: N802
    """The extension for a host that loads it by name: snippets run (cached) as pages render.

    ``root``: the project (default: the nearest folder at or above the working one that holds
    ``snippets/``); ``strict`` (default true): a failing or broken snippet raises `SnippetError`.
    """
    if unknown:
        raise TypeError(
            f"docexec.render.markdown_ext: unknown options {sorted(unknown)} (accepted: root, strict)"
        )
    from docexec.execution.engine import find_root

    project = Path(root).resolve() if root else find_root(Path.cwd())
    engine = _hosted_engines.get(project)
    if engine is None:  # one engine and its warm servers for every page the host renders
        settings = configuration.from_environment(project)
        engine = _hosted_engines[project] = Engine(project, settings, keep_warm=True)
    site = SiteBuild(
        project,
        engine.config,
        engine_results(engine, progress=False),
        engine.environment,
        recordings.Store(project, engine.config.snippets),
    )
    return HostedRunExtension(SnippetRenderer(site, strict=strict))


def _one_by_one(
    root: Path, results: Callable[[str], Result] | None, environment: dict | None, config: Config | None
) -> SiteBuild:
    """A site build whose results come one snippet at a time from ``results``."""
    provider = one_by_one(results) if results else (lambda paths: ({}, Summary(), set()))
    settings = config or configuration.load(root)
    return SiteBuild(root, settings, provider, environment or {}, recordings.Store(root, settings.snippets))
