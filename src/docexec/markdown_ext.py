"""A Python-Markdown extension: a line ``%run snippets/<page>/<name>.py`` becomes the snippet's code,
its real output (text, expected traceback, figures) and a line saying where and how it ran.

It emits standard Markdown (superfences code blocks, admonitions), so highlighting, copy buttons
and search work as for any other block. It does not depend on MkDocs: the MkDocs plugin only
hands it results computed ahead of time and a place for figures.
"""

from __future__ import annotations

import base64
import dataclasses
import logging
import re
from collections.abc import Callable
from pathlib import Path

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

from docexec import declarations
from docexec.result import FAILED, SKIPPED, Result

log = logging.getLogger("mkdocs.plugins.docexec")

DIRECTIVE = re.compile(r"^(?P<indent>[ \t]*)%run[ \t]+(?P<path>\S+)[ \t]*$")
_FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})")
PRIORITY = 35  # before pymdownx.snippets (32) and superfences (25) read the lines


def directive_lines(lines: list[str]) -> list[tuple[int, str, str]]:
    """(index, indent, path) of every ``%run`` line outside fenced code blocks."""
    found = []
    open_fence: str | None = None
    for index, line in enumerate(lines):
        fence = _FENCE.match(line)
        if fence:
            marker = fence.group("fence")
            if open_fence is None:
                open_fence = marker
            elif (
                marker[0] == open_fence[0]
                and len(marker) >= len(open_fence)
                and not line.strip()[len(marker) :]
            ):
                open_fence = None
            continue
        if open_fence is None:
            match = DIRECTIVE.match(line)
            if match:
                found.append((index, match.group("indent"), match.group("path")))
    return found


def _fenced(content: str, attributes: str) -> list[str]:
    """A code block whose fence is longer than any backtick run inside, so output cannot end it."""
    longest = max((len(run) for run in re.findall(r"`+", content)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}{attributes}", *content.rstrip("\n").split("\n"), fence]


def _title(text: str) -> str:
    return text.replace('"', "'")


def _alt_text(text: str) -> str:
    """Image alt text that cannot end the Markdown image syntax early."""
    return re.sub(r"[\[\]\\]", "", text)


def _indent(block: list[str], prefix: str) -> list[str]:
    return [prefix + line if line else line for line in block]


class SnippetRenderer:
    """Turns a snippet and its result into Markdown lines."""

    def __init__(
        self, root: Path, results: Callable[[str], Result], figure_url: Callable[[bytes], str] | None = None
    ) -> None:
        self.root = root
        self.results = results
        self.figure_url = figure_url or (
            lambda png: "data:image/png;base64," + base64.b64encode(png).decode()
        )
        self.page = "<page>"
        self.anchors: set[str] = set()  # ids of the snippet blocks rendered on the current page

    def render(self, path: str, page_line: int) -> list[str]:
        where = f"{self.page}:{page_line}"
        file = self.root / path
        if not path.startswith("snippets/") or not file.is_file():
            return self._error(
                where,
                f"%run {path}: no such snippet (paths are relative to the "
                "project root and start with snippets/)",
            )
        source = file.read_text(encoding="utf-8")
        try:
            decl = declarations.parse(source, path)
        except declarations.DeclarationError as error:
            return self._error(where, str(error))
        # The file name is the block's anchor: a correction's "Shown by" links to it.
        anchor = Path(path).stem
        self.anchors.add(anchor)
        lines = _fenced(
            declarations.displayed_source(source, decl), f' {{ .python #{anchor} title="{_title(path)}" }}'
        )
        if decl.show:  # the part on show, and the program it runs in one click away
            whole = declarations.displayed_source(source, dataclasses.replace(decl, show=None))
            lines += ["", '??? note "The whole program"', "", *_indent(_fenced(whole, " python"), "    ")]
        outcome = self.results(path)
        if outcome.status == SKIPPED:
            return lines + (self._cuda_note() if decl.cuda else [])
        if outcome.status == FAILED:
            log.warning("%s: snippet failed: %s", where, outcome.failure)
            return lines + self._output(outcome) + self._failure(outcome)
        return lines + self._output(outcome) + self._provenance(outcome)

    def _output(self, outcome: Result) -> list[str]:
        lines: list[str] = []
        text = outcome.output + outcome.truncation_note
        if text.strip():
            lines += ["", *_fenced(text, ' { .text .docexec-output title="Output" }')]
        if outcome.expected_exception and outcome.exception:
            title = f"Raises {outcome.exception['type']} (as intended)"
            attributes = f' {{ .pytb .docexec-raises title="{_title(title)}" }}'
            lines += ["", *_fenced(outcome.exception["traceback"], attributes)]
        for number, (png, title) in enumerate(zip(outcome.figures, outcome.figure_titles, strict=True), 1):
            url = self.figure_url(base64.b64decode(png))
            alt = _alt_text(
                f"Figure {number}: {title}" if title else f"Figure {number} drawn by {outcome.path}"
            )
            lines += ["", f"![{alt}]({url}){{ .docexec-figure }}"]
        return lines

    def _provenance(self, outcome: Result) -> list[str]:
        env = outcome.environment
        device = "CUDA" if env.get("device") == "cuda" else "CPU"
        text = (
            f"Ran on {device} · torch {env.get('torch')} · Python {env.get('python')}"
            f" · {outcome.duration:.2f} s"
        )
        return ["", text, "{ .docexec-provenance }", ""]

    def _cuda_note(self) -> list[str]:
        return [
            "",
            '!!! info "Runs on the CUDA runner"',
            "    This snippet needs a CUDA device. Its output is recorded on the CUDA runner when",
            "    the published site is built; a build without a GPU shows the code only, never an",
            "    invented output.",
            "",
        ]

    def _failure(self, outcome: Result) -> list[str]:
        return [
            "",
            f'!!! failure "This snippet failed: {_title(outcome.path)}"',
            "",
            *_indent(_fenced(outcome.failure or "", " text"), "    "),
            "",
        ]

    def _error(self, where: str, message: str) -> list[str]:
        log.warning("%s: %s", where, message)
        return ['!!! failure "Snippet error"', "", *_indent(_fenced(message, " text"), "    "), ""]


class RunPreprocessor(Preprocessor):
    def __init__(self, md: Markdown, renderer: SnippetRenderer) -> None:
        super().__init__(md)
        self.renderer = renderer

    def run(self, lines: list[str]) -> list[str]:
        found = directive_lines(lines)
        if not found:
            return lines
        output = list(lines)
        for index, indent, path in reversed(found):
            block = self.renderer.render(path, index + 1)
            output[index : index + 1] = ["", *_indent(block, indent), ""]
        return output


class RunExtension(Extension):
    """Register with ``Markdown(extensions=[RunExtension(renderer)])``."""

    def __init__(self, renderer: SnippetRenderer, **kwargs: object) -> None:
        self.renderer = renderer
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's API name
        md.preprocessors.register(RunPreprocessor(md, self.renderer), "docexec_run", PRIORITY)
