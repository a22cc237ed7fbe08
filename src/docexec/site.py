"""The site's build, for any host: each page's ``%run`` lines and each snippet's declarations and
source read once, every result asked for in one call, and per page a plan of what it shows.

A host (the MkDocs plugin, the Python-Markdown extension) hands over the pages' Markdown; the
renderer and the notebooks read the plans; the host adds what they make to its site. A ``%run``
line that cannot be used (a bad path, a missing file, a bad declaration) is a failed result of
that use, named with the page's ``file:line``: the other snippets still run and nothing is raised.
"""

from __future__ import annotations

import dataclasses
import logging
import posixpath
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from docexec import checks, recordings
from docexec.config import Config
from docexec.directives import Directive, directives
from docexec.execution import declarations
from docexec.execution.declarations import Declarations
from docexec.execution.engine import Engine, Read, Summary
from docexec.execution.result import Reason, Result, Status

log = logging.getLogger("mkdocs.plugins.docexec")

STILL_RUNNING = "still running in the background: the page reloads with its output"
EXECUTION_OFF = "execution is switched off"

# What a host asks for the results of the snippets a plan read (by path, each read once): those it
# has (from the cache, executed now, skipped on this device), and the paths still running (a
# preview's background).
ResultsProvider = Callable[[Mapping[str, "Snippet"]], tuple[dict[str, Result], Summary, set[str]]]


@dataclasses.dataclass(frozen=True)
class Snippet:
    """A snippet as read once for the whole build: its declarations and source, or why it cannot run."""

    path: str
    declarations: Declarations | None = None
    source: str = ""  # newlines as a text file reads them
    problem: str | None = None  # shown where the page uses it
    reason: Reason | None = None
    data: bytes = b""  # the file's bytes as read: what the engine keys and runs

    @property
    def read(self) -> Read | None:
        """What the engine takes instead of reading the file again (`Engine.execute`'s ``read``)."""
        return None if self.declarations is None else (self.declarations, self.data)


@dataclasses.dataclass(frozen=True)
class Use:
    """One ``%run`` line of a page and everything shown for it."""

    line: int  # in the page, from 1
    indent: str
    path: str  # as written after %run
    result: Result
    declarations: Declarations | None = None  # None when the line cannot be used
    source: str = ""
    problem: str | None = None  # why the line cannot be used, as the page shows it
    recording: recordings.Recording | None = None  # a CUDA snippet's GPU output, where it skipped
    named_a_snippet: bool = True  # False: the line itself is malformed (no path to look for)

    @property
    def anchor(self) -> str | None:
        """The block's id, which a page links to as ``#file_name``: the snippet's file name."""
        return None if self.problem else Path(self.path).stem


@dataclasses.dataclass
class PagePlan:
    """What one page shows, in page order."""

    uri: str  # under the docs folder
    name: str  # as messages name it: the docs folder and the uri
    uses: list[Use]

    @property
    def anchors(self) -> set[str]:
        return {use.anchor for use in self.uses if use.anchor}

    @property
    def ran_here(self) -> list[Use]:
        """The uses whose output this build produced (not skipped, not waiting, not broken)."""
        return [use for use in self.uses if use.problem is None and use.result.status != Status.SKIPPED]

    def needs_gpu(self) -> list[bool]:
        """For each output that ran here, whether its snippet is declared ``cuda``: the page line."""
        return [bool(use.declarations and use.declarations.cuda) for use in self.ran_here]

    @property
    def still_running(self) -> list[Use]:
        return [use for use in self.uses if use.result.reason == Reason.STILL_RUNNING]

    def matches(self, found: list[Directive]) -> bool:
        """Whether ``found`` (the ``%run`` lines a renderer was given) are the ones planned."""
        return [d.path for d in found] == [use.path for use in self.uses]


@dataclasses.dataclass
class Site:
    """Every page's plan, the labs, and what the build report and the checks need."""

    pages: dict[str, PagePlan]
    labs: dict[str, Use]  # a lab's page uri -> its snippet's use
    results: dict[str, Result]
    summary: Summary
    markdown: dict[str, str]  # page uri -> its Markdown as planned
    snippets: str  # the snippets folder
    labs_folder: str | None  # the labs folder, where the project has one

    def pages_using(self, path: str) -> list[str]:
        """The pages that show snippet ``path`` (a lab's page included)."""
        return [uri for uri, plan in self.pages.items() if any(use.path == path for use in plan.uses)] + [
            uri for uri, lab in self.labs.items() if lab.path == path
        ]

    def shown_on(self) -> dict[str, list[str]]:
        """Snippet -> the pages that show it, for the build report and the unused-snippet check."""
        found: dict[str, list[str]] = {}
        for uri, plan in self.pages.items():
            for use in plan.uses:
                if use.named_a_snippet and uri not in found.get(use.path, []):
                    found.setdefault(use.path, []).append(uri)
        for uri, lab in self.labs.items():
            found.setdefault(lab.path, []).append(uri)
        return found

    def recordings(self) -> dict[str, recordings.Recording | None]:
        """CUDA snippet that skipped here -> its recording (None where it has none to show)."""
        found: dict[str, recordings.Recording | None] = {}
        for plan in self.pages.values():
            for use in plan.uses:
                if use.result.reason is Reason.NEEDS_GPU:
                    found[use.path] = found.get(use.path) or use.recording
        return found

    def shown_results(self) -> list[Result]:
        """The results whose outputs the pages show: executed, and recorded where a CUDA snippet skipped."""
        recorded = [
            use.recording.result
            for plan in self.pages.values()
            for use in plan.uses
            if use.recording is not None and not use.recording.stale
        ]
        return [*self.results.values(), *recorded]


class SiteBuild:
    """Plans a site of the project at ``root``; ``results`` gives the snippets' results."""

    def __init__(
        self,
        root: Path,
        config: Config,
        results: ResultsProvider,
        environment: dict,
        recorded: recordings.Store | None = None,
    ) -> None:
        self.root = root
        self.config = config
        self.results = results
        self.environment = environment
        self.recorded = recorded

    @classmethod
    def of_engine(cls, engine: Engine, results: ResultsProvider, docs: str) -> SiteBuild:
        """The build of ``engine``'s project, whose pages are in ``docs``; GPU recordings are shown
        where CUDA snippets skip."""
        settings = engine.config.replace(docs=docs)
        recorded = recordings.Store(engine.root, settings.snippets)
        return cls(engine.root, settings, results, engine.environment, recorded)

    def plan(
        self, pages: dict[str, str], labs: Iterable[str] = (), names: dict[str, str] | None = None
    ) -> Site:
        """``pages``: page uri under the docs folder -> its Markdown; ``labs``: the lab snippets;
        ``names``: how messages name a page, where not `page_name`."""
        names = {uri: (names or {}).get(uri) or self.page_name(uri) for uri in pages}
        found = {uri: directives(text.splitlines(), self.config.snippets) for uri, text in pages.items()}
        wanted = sorted({d.path for ds in found.values() for d in ds if d.problem is None} | set(labs))
        snippets = {path: self.read(path) for path in wanted}
        runnable = {path: snippet for path, snippet in snippets.items() if snippet.problem is None}
        results, summary, still_running = self.results(runnable) if runnable else ({}, Summary(), set())
        shown = dict(results)  # and those still running, which the report leaves out
        for path in still_running:
            shown[path] = Result(
                path=path,
                status=Status.SKIPPED,
                reason=Reason.STILL_RUNNING,
                failure=STILL_RUNNING,
                environment=self.environment,
            )
        plans = {
            uri: PagePlan(uri, names[uri], [self._use(names[uri], d, snippets, shown) for d in ds])
            for uri, ds in found.items()
        }
        lab_uses = {
            lab_page(path, self.config): self._use(
                self.page_name(lab_page(path, self.config)), Directive(0, "", path), snippets, shown
            )
            for path in labs
        }
        return Site(plans, lab_uses, results, summary, dict(pages), self.config.snippets, self.config.labs)

    def plan_page(self, uri: str, markdown: str, name: str | None = None) -> PagePlan:
        """One page on its own, as a host that renders page by page asks for it; ``name``: the
        page as messages name it, where the host names it otherwise."""
        return self.plan({uri: markdown}, names={uri: name} if name else None).pages[uri]

    def page_name(self, uri: str) -> str:
        return f"{self.config.docs}/{uri}" if uri else "<page>"

    def read(self, path: str) -> Snippet:
        """The snippet's declarations and source, or why it cannot run (never raised)."""
        file = self.root / path
        if not file.is_file():
            problem = (
                f"%run {path}: no such snippet (paths are relative to the "
                f"project root and start with {self.config.snippets}/)"
            )
            return Snippet(path, problem=problem, reason=Reason.NO_SUCH_SNIPPET)
        try:
            decl, data = declarations.read_file(file, self.root, self.config.snippets)  # refuses a link out
        except declarations.DeclarationError as error:
            return Snippet(path, problem=str(error), reason=Reason.BAD_DECLARATION)
        source = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        return Snippet(path, decl, source, data=data)

    def _use(
        self, page: str, directive: Directive, snippets: dict[str, Snippet], results: dict[str, Result]
    ) -> Use:
        """``page``: the page as messages name it."""
        line = directive.index + 1
        snippet = snippets.get(directive.path) if directive.problem is None else None
        problem = directive.problem if snippet is None else snippet.problem
        if problem is not None:
            reason = snippet.reason if snippet is not None else Reason.NO_SUCH_SNIPPET
            failed = Result(
                path=directive.path,
                status=Status.FAILED,
                reason=reason,
                failure=f"{page}:{line}: {problem}",
                environment=self.environment,
            )
            named = directive.problem is None
            return Use(line, directive.indent, directive.path, failed, problem=problem, named_a_snippet=named)
        assert snippet is not None and snippet.declarations is not None
        result = results.get(directive.path) or Result(
            path=directive.path, status=Status.SKIPPED, reason=Reason.EXECUTION_OFF, failure=EXECUTION_OFF
        )
        recording = None
        if (
            snippet.declarations.cuda
            and result.status == Status.SKIPPED
            and result.reason != Reason.STILL_RUNNING
        ):
            recording = self._recording(directive.path)
        return Use(
            line,
            directive.indent,
            directive.path,
            result,
            snippet.declarations,
            snippet.source,
            None,
            recording,
        )

    def _recording(self, path: str) -> recordings.Recording | None:
        """A CUDA snippet's recorded output; a broken recording file is a warning (strict fails)."""
        if self.recorded is None:
            return None
        try:
            return self.recorded.find(path)
        except recordings.RecordingError as error:
            log.warning("%s", error)
            return None


def engine_results(engine: Engine, execute: bool = True, progress: bool = True) -> ResultsProvider:
    """Results from ``engine``: executed (or cached), or, with ``execute`` off, none (code only)."""

    def results(planned: Mapping[str, Snippet]) -> tuple[dict[str, Result], Summary, set[str]]:
        if not execute:
            return {}, Summary(), set()
        read = {path: snippet.read for path, snippet in planned.items() if snippet.read is not None}
        found, summary = engine.execute(list(planned), progress=progress, read=read)
        return found, summary, set()

    return results


def one_by_one(result_of: Callable[[str], Result]) -> ResultsProvider:
    """Results asked for one snippet at a time (a host, or a test, without an engine of its own)."""

    def results(planned: Mapping[str, Snippet]) -> tuple[dict[str, Result], Summary, set[str]]:
        return {path: result_of(path) for path in planned}, Summary(), set()

    return results


def lab_page(path: str, config: Config) -> str:
    """``<snippets>/notebooks/name.py`` is the page ``notebooks/name.ipynb``: the labs folder as it
    sits in the snippets folder (or its last name), under the docs folder."""
    folder = posixpath.dirname(path)
    inside = posixpath.relpath(folder, config.snippets) if folder.startswith(config.snippets + "/") else None
    return posixpath.join(inside or posixpath.basename(folder), Path(path).with_suffix(".ipynb").name)


def lab_snippets(root: Path, config: Config) -> list[str]:
    """The project's labs: percent-format snippets in the ``labs`` folder (none where it is unset)."""
    if not config.labs or not (root / config.labs).is_dir():
        return []
    return sorted(p.relative_to(root).as_posix() for p in (root / config.labs).glob("*.py"))


def lab_snippet(page_uri: str, config: Config) -> str | None:
    """The snippet a lab page is written in (its edit link), or None where there are no labs."""
    if not config.labs:
        return None
    return f"{config.labs}/{posixpath.basename(page_uri).removesuffix('.ipynb')}.py"


def problems(
    site: Site, all_snippets: list[str], focus: frozenset[str] = frozenset()
) -> list[checks.Problem]:
    """What `docexec.checks` finds in the planned site. In a focused build only the focused pages'
    own snippets can be judged."""
    snippets = all_snippets
    if focus:
        folders = tuple(f"{site.snippets}/{uri.rsplit('.', 1)[0]}/" for uri in focus)
        snippets = [path for path in snippets if path.startswith(folders)]
    found = checks.unused_snippets(snippets, set(site.shown_on()), site.labs_folder)
    found += [
        problem for problem in (checks.snippet_name(path, site.labs_folder) for path in snippets) if problem
    ]
    for uri, text in site.markdown.items():
        plan = site.pages[uri]
        found += checks.page_code_blocks(text, plan.name)
    return found


__all__ = [
    "PagePlan",
    "ResultsProvider",
    "Site",
    "SiteBuild",
    "Snippet",
    "Use",
    "engine_results",
    "one_by_one",
    "lab_page",
    "lab_snippet",
    "lab_snippets",
    "problems",
]
